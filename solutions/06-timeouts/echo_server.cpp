#include "echo_server.hpp"

#include "processes.hpp"
#include "use_process.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/write.hpp>

#include <array>

namespace rdv::echo {

namespace asio = boost::asio;
using asio::ip::tcp;
using proc::use_process;

//! [serve]
void serve(tcp::socket socket, std::chrono::milliseconds idle) {
  // EXERCISE ch06.3: echo what the client sends, and hang up when it is idle too long
  // HINT: Read with use_process, as if the read blocked. Which variant of the
  //       token cancels the read after `idle`, and what error does it give then?
  // HINT: What is the difference between async_read_some and async_write in how
  //       many bytes they move? Which one does the echo need for each?
  // HINT: A client may send and never read what comes back: the write then
  //       waits for it. For how long may it?
  // STUB: (void)socket; (void)idle;
  std::array<char, buffer_size> buffer;
  for (;;) {
    boost::system::error_code ec;
    const std::size_t n =
        socket.async_read_some(asio::buffer(buffer), use_process.within(idle)[ec]);
    if (ec) return;  // closed, reset, or idle for too long (asio::error::timed_out)
    // A client that takes nothing it is sent for as long is idle too.
    asio::async_write(socket, asio::buffer(buffer.data(), n), use_process.within(idle)[ec]);
    if (ec) return;
  }
  // END EXERCISE
}  // the socket closes here, as the process ends
//! [serve]

//! [accept]
void accept(tcp::acceptor& acceptor, std::chrono::milliseconds idle) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = acceptor.async_accept(use_process[ec]);
    if (ec == asio::error::operation_aborted) return;  // the acceptor was closed
    if (ec) continue;                                  // e.g. the client already left
    proc::spawn([socket = std::move(socket), idle]() mutable { serve(std::move(socket), idle); });
  }
}
//! [accept]

}  // namespace rdv::echo
