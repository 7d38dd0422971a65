#pragma once
/// \file
/// Chapter 8: sendfile(2) as an Asio asynchronous operation — the loop that
/// sends a file's bytes to a non-blocking socket, waiting for the socket to
/// drain whenever its buffer is full, usable with any completion token.

#include "sendfile_call.hpp"

#include <boost/asio/compose.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::files {

/// \cond
namespace detail {

// [sendfile_op]
// The state of one async_sendfile() between its steps. Asio's async_compose
// calls operator() first from async_sendfile() itself, then each time the
// socket becomes writable, and once more to complete from a posted handler.
template <class Socket>
class sendfile_op {
public:
  sendfile_op(Socket& socket, int file, std::uint64_t offset, std::uint64_t count)
      : socket_(socket), file_(file), offset_(offset), count_(count) {}

  template <class Self>
  void operator()(Self& self, boost::system::error_code ec = {}) {
    if (state_ == state::completing) return self.complete(result_, sent_);
    // TODO(ch08.5): send until done, waiting for writability whenever the socket is full
    // Hint: sendfile_some() sends what fits in the socket's buffer now. What do EAGAIN,
    //   EINTR, and "0 bytes, no error" each mean, and what does the loop do for each?
    //   (more: ./course hint 08 5)
    (void)sendfile_some;
    throw rdv::todo("ch08.5", "send until done, waiting for writability whenever the socket is full");
    finish(self, ec);
  }

private:
  enum class state { starting, waiting, completing };

  template <class Self>
  void finish(Self& self, boost::system::error_code ec) {
    if (state_ == state::waiting) return self.complete(ec, sent_);  // in a handler already
    // Still inside async_sendfile(): an Asio operation never calls its
    // handler from the function that started it, so complete from a post.
    state_ = state::completing;
    result_ = ec;
    boost::asio::post(socket_.get_executor(), std::move(self));
  }

  Socket& socket_;
  int file_;
  std::uint64_t offset_, count_, sent_ = 0;
  state state_ = state::starting;
  boost::system::error_code result_;
};
// [sendfile_op]

}  // namespace detail
/// \endcond

// [async_sendfile]
/// Sends `count` bytes of the open file `file`, from `offset`, to `socket`
/// with sendfile(2): no copy through user space. The socket is made
/// non-blocking; whenever its buffer is full the operation waits for it to
/// become writable, so the thread goes on with other work meanwhile.
/// Completes with `(error_code, bytes sent)`: `boost::asio::error::eof` if
/// the file ended before `count` bytes (it shrank), or the socket's error.
/// `file` must stay open until then. Like any Asio operation it takes any
/// completion token: a callback, `asio::spawn`'s yield, `rdv::proc::use_process`.
template <class Socket, class CompletionToken>
auto async_sendfile(Socket& socket, int file, std::uint64_t offset, std::uint64_t count,
                    CompletionToken&& token) {
  return boost::asio::async_compose<CompletionToken,
                                    void(boost::system::error_code, std::uint64_t)>(
      detail::sendfile_op<Socket>(socket, file, offset, count), token, socket);
}
// [async_sendfile]

}  // namespace rdv::files
