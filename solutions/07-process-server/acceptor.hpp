#pragma once
/// \file
/// Chapter 7: the acceptor process, which starts a process per connection,
/// watches them, and keeps the server going whatever they do.

#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

namespace rdv::web {

/// Accepts connections on `acceptor` in the calling process, until the
/// acceptor is closed, and serves each one in a process of its own
/// (serve_connection). It monitors those processes: one that crashes is
/// logged with its exit reason (its socket closed as its stack unwound) and
/// the server goes on. Above `options.max_connections` open connections, a
/// new one is answered 503 with `Retry-After: 1` and closed. When accept
/// fails for want of file descriptors (EMFILE, ENFILE) it pauses until a
/// connection ends or 100 ms pass, instead of spinning.
void accept_connections(boost::asio::ip::tcp::acceptor& acceptor, handler handle,
                        server_options options);

}  // namespace rdv::web
