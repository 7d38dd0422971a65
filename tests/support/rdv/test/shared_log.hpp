#pragma once
/// \file
/// A log that a server thread writes and a test reads, safely.

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace rdv::test {

/// An std::ostream for a server's log: the server's thread writes to it, the
/// test's thread reads text() at any time, without a data race.
class shared_log : public std::ostream {
public:
  shared_log() : std::ostream(&buffer_) {}
  /// Everything written so far.
  std::string text() const {
    const std::lock_guard lock(buffer_.mutex);
    return buffer_.text;
  }

private:
  struct locked_buffer : std::streambuf {
    mutable std::mutex mutex;
    std::string text;
    int_type overflow(int_type c) override {
      if (c != traits_type::eof()) {
        const std::lock_guard lock(mutex);
        text += traits_type::to_char_type(c);
      }
      return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      const std::lock_guard lock(mutex);
      text.append(s, static_cast<std::size_t>(n));
      return n;
    }
  };
  locked_buffer buffer_;
};

}  // namespace rdv::test
