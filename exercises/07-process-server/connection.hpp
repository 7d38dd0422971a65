#pragma once
/// \file
/// Chapter 7: one connection, served by the process that owns it.

#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <initializer_list>
#include <string_view>

namespace rdv::web {

/// Serves one connection in the calling process, until it is done: reads
/// each request with chapter 2's parser, answers it with `handle`, and keeps
/// the connection open as HTTP says. Closes it quietly after
/// `options.idle_timeout` without a request; answers 408 to a request that
/// takes longer than `options.request_timeout` to arrive, and the parser's
/// status (400, 413, 414, 431, 501, 505) to a bad one, and closes then;
/// drops it when a client takes none of an answer for `options.send_timeout`.
void serve_connection(boost::asio::ip::tcp::socket socket, const handler& handle,
                      const server_options& options);

/// Sends all of `pieces` (with send(2) `flags`, e.g. MSG_MORE), in the
/// calling process: what the socket has room for goes at once, and the
/// process waits only when it is full, each time at most `patience` (a
/// client that takes no byte for that long has stalled). Leaves the socket
/// non-blocking. Returns false if the connection failed or stalled. The
/// flags are a seam for chapter 8, which sends a head with MSG_MORE before
/// the file that follows it.
bool send_all(boost::asio::ip::tcp::socket& socket, std::initializer_list<std::string_view> pieces,
              std::chrono::milliseconds patience, int flags = 0);

/// Closes the connection so that what was sent arrives. A close with unread
/// data would reset the connection and could destroy the answer in flight:
/// so if the client has sent anything not read yet, this stops sending,
/// then reads and drops what the client still sends, for at most a second;
/// with nothing unread, it closes at once.
void close_gracefully(boost::asio::ip::tcp::socket& socket);

/// Sends `r` with `Connection: close` (each step within `patience`), then
/// stops sending and drops what the client still sends, for at most a
/// second, whatever it has sent so far: the answer to a request refused
/// half-way, whose rest is on its way.
void answer_and_close(boost::asio::ip::tcp::socket& socket, const response& r,
                      std::chrono::milliseconds patience);

}  // namespace rdv::web
