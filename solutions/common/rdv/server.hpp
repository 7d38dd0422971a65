#pragma once
/// \file
/// What every server program of the course does around its lesson: open a
/// listening socket, say where it listens, and stop cleanly on SIGINT/SIGTERM.

#include "rdv/cli.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <exception>
#include <functional>
#include <string_view>

namespace rdv {

/// The endpoint that open_listener() binds for `where` (its port 0 if
/// `where` asks for any free port). Throws if the host does not resolve.
boost::asio::ip::tcp::endpoint listen_endpoint(boost::asio::io_context& context,
                                               const cli::host_port& where);

/// Opens a TCP listener on `where` (port 0 picks a free port) with the given
/// listen(2) backlog, and says nothing. Throws std::runtime_error saying why,
/// for `role`, and what to do, if it cannot listen (the port is taken, say).
/// With `reuse_port`, other processes may listen on the same port as well
/// (SO_REUSEPORT), and the kernel shares the connections out among them.
boost::asio::ip::tcp::acceptor
open_listener(boost::asio::io_context& context, const cli::host_port& where, std::string_view role,
              int backlog = boost::asio::socket_base::max_listen_connections,
              bool reuse_port = false);

/// Opens a TCP listener on `where` (port 0 picks a free port) with the given
/// listen(2) backlog, then prints `listening <role> http://HOST:PORT` on
/// standard output, flushed, so that scripts and tests can read the real port.
/// Throws as open_listener() does.
boost::asio::ip::tcp::acceptor
listen(boost::asio::io_context& context, const cli::host_port& where, std::string_view role,
       int backlog = boost::asio::socket_base::max_listen_connections, bool reuse_port = false);

/// Prints `listening <role> http://HOST:PORT` for `acceptor` on standard
/// output, flushed: what listen() says once it listens.
void announce(std::string_view role, const boost::asio::ip::tcp::acceptor& acceptor);

/// The `http://HOST:PORT` address of a listening endpoint.
std::string url_of(const boost::asio::ip::tcp::endpoint& endpoint);

/// Calls `action` once, on `context`, when SIGINT or SIGTERM arrives. On
/// Linux both are blocked in the calling thread, and so in every thread it
/// starts afterwards, and read from a signalfd: call it before starting any
/// thread. Once one has come, both are unblocked: a second one ends the
/// program as if nothing handled it.
void on_stop_signal(boost::asio::io_context& context, std::function<void()> action);

/// Stops `context` when SIGINT or SIGTERM arrives, so that run() returns.
void stop_on_signals(boost::asio::io_context& context);

/// Whether a failed accept(2) says that the process (EMFILE) or the system
/// (ENFILE) has no file descriptor left. The client then waits in the listen
/// queue and the listening socket stays readable, so a server that accepts
/// again at once spins: it must pause instead.
bool out_of_descriptors(const boost::system::error_code& ec);

/// A completion handler for `boost::asio::spawn` that rethrows what the
/// coroutine threw, so that the error surfaces from `io_context::run()`
/// instead of vanishing.
void rethrow(std::exception_ptr error);

}  // namespace rdv
