#include "echo_server.hpp"

#include "processes.hpp"
#include "use_process.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::echo {

namespace asio = boost::asio;
using asio::ip::tcp;
using proc::use_process;

//! [serve]
void serve(tcp::socket socket, std::chrono::milliseconds idle) {
  // TODO(ch06.3): echo what the client sends, and hang up when it is idle too long
  // Hint: Read with use_process, as if the read blocked. Which variant of the token
  //   cancels the read after `idle`, and what error does it give then? (more:
  //   ./course hint 06 3)
  (void)socket; (void)idle;
  throw rdv::todo("ch06.3", "echo what the client sends, and hang up when it is idle too long");
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
