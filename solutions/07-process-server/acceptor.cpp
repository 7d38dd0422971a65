#include "acceptor.hpp"

#include "after.hpp"
#include "connection.hpp"
#include "notify.hpp"
#include "processes.hpp"
#include "rdv/server.hpp"

#include <boost/asio/error.hpp>

#include <memory>
#include <ostream>

namespace rdv::web {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

struct accepted {};  // tags the completion of an accept in the acceptor's mailbox

// What every connection process shares with the acceptor, and outlives it.
struct service {
  handler handle;
  server_options options;
};

void log(const server_options& options, const auto&... parts) {
  if (options.log) ((*options.log << parts), ...) << std::endl;
}

// Answers a connection over the limit, in a short process of its own so that
// the acceptor does not wait for a slow client.
void refuse(tcp::socket socket, std::chrono::milliseconds patience) {
  proc::spawn([socket = std::move(socket), patience]() mutable {
    response busy = text_response(503);
    busy.fields.emplace_back("Retry-After", "1");
    answer_and_close(socket, busy, patience);
  });
}

}  // namespace

//! [accept_connections]
void accept_connections(tcp::acceptor& acceptor, handler handle, server_options options) {
  const auto shared =
      std::make_shared<const service>(service{std::move(handle), std::move(options)});
  const server_options& opts = shared->options;
  std::size_t open = 0;                             // connection processes that have not ended
  const auto ended = [&](const proc::down& gone) {  // heard wherever the acceptor waits
    --open;
    if (!gone.reason.normal()) log(opts, "connection ", gone.who, " crashed: ", gone.reason);
  };
  // Each turn accepts one connection. The accept completes as a message, so
  // that while it waits the acceptor also hears of connections that end.
  for (;;) {
    tcp::socket socket(acceptor.get_executor());
    acceptor.async_accept(socket, proc::notify(proc::self(), accepted{}));
    boost::system::error_code ec;
    for (bool waiting = true; waiting;) {
      proc::receive(
          [&](const proc::completed<accepted>& done) { ec = done.error, waiting = false; }, ended);
    }
    if (ec == asio::error::operation_aborted) return;  // the acceptor was closed
    if (rdv::out_of_descriptors(ec)) {
      // The pending connection stays in the listen queue and the socket stays
      // readable: retrying at once would spin. Wait for a connection to end
      // (freeing a descriptor) or for 100 ms.
      log(opts, "accept: ", ec.message(), "; pausing accepts");
      proc::receive(ended, proc::after(std::chrono::milliseconds(100), [] {}));
      continue;
    }
    if (ec) continue;  // e.g. the client reset before we accepted it
    // EXERCISE ch07.3: serve the connection in a process of its own, and watch it
    // HINT: Which process should own the socket, and what must it capture to
    //       serve (the handler and the options live in `shared`)?
    // HINT: How does the acceptor learn that the process ended, and why? And
    //       what if `open` has reached opts.max_connections already?
    // STUB: (void)socket; (void)refuse;
    if (open >= opts.max_connections) {
      refuse(std::move(socket), opts.send_timeout);
      continue;
    }
    const proc::pid connection = proc::spawn([socket = std::move(socket), shared]() mutable {
      serve_connection(std::move(socket), shared->handle, shared->options);
    });
    proc::monitor(connection);
    ++open;
    // END EXERCISE
  }
}
//! [accept_connections]

}  // namespace rdv::web
