#pragma once
/// \file
/// Chapter 7: what a handler of the process-per-connection server sees and
/// returns — a parsed request, and the response to send.

#include "parse_error.hpp"
#include "request_parser.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// Chapter 7: an HTTP server with one process per connection.
namespace rdv::web {

// [request]
/// A request, as a handler sees it. The head's views point into the
/// connection's buffer: they are valid for the length of the handler call.
struct request {
  const http::request_head& head;           ///< method, target, version, header fields
  std::string_view body;                    ///< the whole body, decoded (chunked or not)
  boost::asio::ip::tcp::socket& socket;     ///< the connection (to watch it, or stream a body)
  boost::asio::ip::tcp::endpoint peer;      ///< the client's address
};

/// The answer to a request. The server adds Content-Length and Connection.
struct response {
  int status = 200;                                          ///< the status code
  std::vector<std::pair<std::string, std::string>> fields;  ///< further header fields, in order
  std::string body;                                          ///< the body (unless write_body is set)
  /// When set, the body is not `body`: after the head, the server calls
  /// write_body(socket) to send `body_length` bytes itself (chapter 8's files).
  std::function<void(boost::asio::ip::tcp::socket&)> write_body{};
  std::uint64_t body_length = 0;  ///< the length write_body() sends
  bool close = false;             ///< close the connection after this response
  /// The reason phrase; empty: http::reason_phrase(status). Chapter 10 relays
  /// the reason a worker chose.
  std::string reason{};
  /// With write_body: write the head with MSG_MORE, so that the kernel holds
  /// it back until the first bytes write_body sends can join it in one packet
  /// (chapter 8). write_body must then send at least one byte.
  bool head_joins_body = false;
};
// [request]

/// What answers requests: called in the connection's process, so it may
/// wait (for messages, timers, sockets) as long as it likes. If it throws,
/// the connection's process ends with that exception, and only it.
using handler = std::function<response(request&)>;

/// How the server treats its clients.
struct server_options {
  /// How long a kept-alive connection may wait for its next request.
  std::chrono::milliseconds idle_timeout{5000};
  /// How long a request may take to arrive, from its first byte to its last
  /// (its head and its body); slower clients get 408 (slow-loris protection).
  std::chrono::milliseconds request_timeout{10000};
  /// How many connections may be open at once; more are answered 503.
  std::size_t max_connections = 10000;
  /// The parser's limits (line, head, field count and body sizes).
  http::limits limits{};
  /// Where to log crashed connections and accept errors (nullptr: nowhere).
  std::ostream* log = nullptr;
  /// Whether to set TCP_NODELAY on each connection: a partial segment leaves
  /// at once instead of waiting, by Nagle's algorithm, until what is in flight
  /// has been acknowledged (chapter 8).
  bool no_delay = false;
  /// Whether the answers to pipelined requests leave together: an answer
  /// to a request with another already behind it in the buffer waits, and
  /// goes with the next ones in one write, at the latest before the server
  /// reads again. Only for handlers that answer at once (chapter 10's reply
  /// port): behind a handler that takes its time, the answers before it
  /// would wait as long.
  bool answer_pipelined_together = false;
};

/// A plain-text response with `status` and its reason phrase as the body.
response text_response(int status, std::string_view text = {});

/// Writes the status line and header fields of `r` to `out` (after clearing
/// it): `r.fields`, then Content-Length (except for 1xx and 204, which have
/// no body) and the Connection field that `keep_alive` calls for.
void write_head(const response& r, bool keep_alive, std::string& out);

}  // namespace rdv::web
