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
#include <optional>
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
  const http::request_head& head;  ///< method, target, version, header fields
  std::string_view body;           ///< the whole body, decoded (chunked or not)
  /// The connection: a handler may watch it or stream a body on it, never
  /// close it (to end the connection, answer with response::hang_up).
  boost::asio::ip::tcp::socket& socket;
  boost::asio::ip::tcp::endpoint peer;  ///< the client's address
  /// Gives back the connection's input buffer while the request waits long
  /// (chapter 10's held clients): the request's bytes move into a buffer
  /// just their size, and `head` is parsed again there, so that it stays
  /// valid, but a view copied out of it before does not. Does nothing for a
  /// request with a body. Empty if the server does not offer it.
  std::function<void()> release_buffer = {};
};

/// A body the server does not hold in memory (chapter 8's files), and how
/// to send it: the extension point for what later chapters put on the wire.
struct body_writer {
  std::uint64_t length = 0;  ///< the Content-Length the head announces
  /// Sends `head`, which the server has written out, and then the body, in
  /// the connection's process (it may wait). It must give every step at
  /// most `patience` (server_options::send_timeout) to make progress, as
  /// send_all() does, and return false if the connection failed or stalled;
  /// the server then drops the connection.
  std::function<bool(boost::asio::ip::tcp::socket& socket, std::string_view head,
                     std::chrono::milliseconds patience)>
      send;
};

/// The writer of an answer with no body that announces `length` bytes all
/// the same: a 304 Not Modified carries the Content-Length its 200 would
/// have had (RFC 9110 §8.6), if it carries one at all. Seam for chapter 8's
/// 304 (and chapter 9's ETags); it stays beside body_writer, where chapter
/// 7's tests check that a writer may announce a length it does not send.
body_writer announced_length(std::uint64_t length);

/// The answer to a request. The server adds Content-Length and Connection.
struct response {
  int status = 200;                                         ///< the status code
  std::vector<std::pair<std::string, std::string>> fields;  ///< further header fields, in order
  std::string body;                                         ///< the body, unless `writer` is set
  std::optional<body_writer> writer{};  ///< a body sent by its own code instead of `body`
  bool close = false;                   ///< close the connection after this response
  /// Send nothing, and drop the connection: for a client that left (chapter
  /// 10's held clients). A handler may watch `request::socket` to learn
  /// that, but never closes it: the socket is the server's.
  bool hang_up = false;
  /// The reason phrase; empty: http::reason_phrase(status). Seam for
  /// chapter 10, which relays the reason a worker chose.
  std::string reason{};
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
  /// How long a client may go without taking any of an answer's bytes (a
  /// stalled write); then the connection is dropped. A client that sends
  /// and never reads cannot hold its process for ever (nginx's send_timeout).
  std::chrono::milliseconds send_timeout{60000};
  /// How many connections may be open at once; more are answered 503.
  std::size_t max_connections = 10000;
  /// The parser's limits (line, head, field count and body sizes).
  http::limits limits{};
  /// Where to log crashed connections and accept errors (nullptr: nowhere).
  std::ostream* log = nullptr;
  /// Whether the handler answers at once, never waiting. Then the answers to
  /// requests that came together (pipelined) leave together: an answer to a
  /// request with another already behind it waits, and goes with the next
  /// ones in one write, at the latest before the server reads again. Behind
  /// a handler that may wait, the answers before it would wait as long.
  /// Seam for chapter 10, whose reply port answers every reply at once.
  bool answers_at_once = false;
};
/// A plain-text response with `status` and its reason phrase as the body.
response text_response(int status, std::string_view text = {});

/// Writes the status line and header fields of `r` to `out` (after clearing
/// it): `r.fields`, then Content-Length (except for 1xx and 204, which have
/// no body) and the Connection field that `keep_alive` calls for.
void write_head(const response& r, bool keep_alive, std::string& out);

/// Appends the field line `name: value` and its CRLF to `out`.
void append_field(std::string& out, std::string_view name, std::string_view value);
/// Appends `n` in decimal to `out`, without allocating.
void append_number(std::string& out, std::uint64_t n);

}  // namespace rdv::web
