#pragma once
/// \file
/// A client for byte streams that are not HTTP and may be large: it writes
/// from one thread while another reads, with a deadline on every read and
/// write, and a receive buffer as small as a test wants (a slow reader, but
/// one that does read).

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdv::test {

/// A TCP connection to 127.0.0.1. Writing and reading may happen on two
/// threads at once; each call fails with an exception when the other side
/// makes no progress for `timeout`, and at once when the code under test
/// reaches an exercise stub.
class stream_client {
public:
  /// Connects to 127.0.0.1:`port`. Before connecting, asks the kernel for a
  /// receive buffer of `receive_buffer` bytes, so that the window the server
  /// sees is that small, and for segments of at most `segment` bytes, so
  /// that the server sends in pieces of that size (0: the kernel's default).
  stream_client(std::uint16_t port, int receive_buffer = 0, int segment = 0,
                std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~stream_client();
  stream_client(const stream_client&) = delete;
  stream_client& operator=(const stream_client&) = delete;

  /// Writes all of `bytes`.
  void write_all(std::string_view bytes);
  /// Tells the server that nothing more comes (a half close).
  void shutdown_write();
  /// Reads until the server closes the connection; returns what came.
  std::string read_to_end();

private:
  int fd_ = -1;
  std::chrono::milliseconds timeout_;
};

}  // namespace rdv::test
