#include "connection.hpp"

#include "connection_buffer.hpp"
#include "processes.hpp"
#include "use_process.hpp"

#include <boost/container/small_vector.hpp>

#include <array>
#include <optional>
#include <span>

namespace rdv::web {

namespace asio = boost::asio;
using asio::ip::tcp;
using clock = std::chrono::steady_clock;
using proc::use_process;

namespace {

// One connection while its process serves it.
struct connection {
  connection(tcp::socket s, const server_options& o)
      : socket(std::move(s)), options(o), parser(o.limits), in(o.limits) {}

  tcp::socket socket;
  tcp::endpoint peer;
  const server_options& options;
  http::request_parser parser;
  connection_buffer in;
  std::string body;     // the request's body, decoded; reused, as its capacity grows
  std::string head;     // the head of the answer being written; reused too
  std::string waiting;  // whole answers not written yet (options.answers_at_once)
};

// How reading a request ended: it is here; it was refused (the answer is
// sent and the connection closed); or the client left, or stayed silent.
enum class arrival { complete, refused, gone };

// How reading the next piece of a request ended.
enum class read_result { more, closed, idle, too_slow };

//! [read_more]
// Reads what the client sends next. Before the first byte of a request the
// client may take `idle_timeout`; from then on the whole request must be in
// by `deadline`, which this sets when the first byte arrives.
read_result read_more(connection& c, std::optional<clock::time_point>& deadline) {
  // EXERCISE ch07.2: read with the idle timeout between requests, and a request deadline within one
  // HINT: use_process.within(limit)[ec] suspends this process until the read
  //       completes or `limit` passes. Which error says the time ran out?
  // HINT: How do you tell "waiting for a new request" from "in the middle of
  //       one"? Look at `deadline` and at the bytes not parsed yet.
  // STUB: (void)c; (void)deadline;
  const bool in_request = deadline.has_value() || c.in.has_unparsed();
  if (in_request && !deadline) deadline = clock::now() + c.options.request_timeout;
  const auto limit =
      in_request ? *deadline - clock::now() : clock::duration(c.options.idle_timeout);
  if (limit <= clock::duration::zero()) return read_result::too_slow;
  boost::system::error_code ec;
  const std::size_t n = c.socket.async_read_some(c.in.room(), use_process.within(limit)[ec]);
  if (ec == asio::error::timed_out) return in_request ? read_result::too_slow : read_result::idle;
  if (ec) return read_result::closed;
  c.in.received(n);
  if (!deadline) deadline = clock::now() + c.options.request_timeout;
  return read_result::more;
  // END EXERCISE
}
//! [read_more]

// Writes the answers that wait; false if the connection failed or stalled.
bool flush(connection& c) {
  if (c.waiting.empty()) return true;
  const bool sent = send_all(c.socket, {c.waiting}, c.options.send_timeout);
  c.waiting.clear();
  return sent;
}

// Ends a connection whose client stopped taking what it was sent: a reset,
// so that the kernel does not keep trying to deliver it either.
void drop(tcp::socket& socket) {
  boost::system::error_code ec;
  socket.set_option(asio::socket_base::linger(true, 0), ec);
  socket.close(ec);
}

//! [send_response]
// Sends the answer to one request: the head, then the body. With
// options.answers_at_once, an answer to a request with another already
// read behind it waits in `waiting`, to leave with the answers after it.
bool send_response(connection& c, const response& r, bool keep_alive, bool head_only) {
  write_head(r, keep_alive, c.head);
  // A 1xx, 204 or 304 has no body, whatever r.body holds (text_response()
  // fills one in): bytes after its head would be taken for the next answer.
  // A writer knows that itself (chapter 8's 304 announces a length).
  head_only = head_only || (!r.writer && (r.status < 200 || r.status == 204 || r.status == 304));
  const bool may_wait = c.options.answers_at_once && keep_alive && c.in.has_unparsed();
  if (!r.writer && (may_wait || !c.waiting.empty())) {
    c.waiting += c.head;
    if (!head_only) c.waiting += r.body;
    return may_wait || flush(c);  // the last of them goes with those before it
  }
  if (!flush(c)) return false;
  if (head_only) return send_all(c.socket, {c.head}, c.options.send_timeout);
  if (r.writer) return r.writer->send(c.socket, c.head, c.options.send_timeout);
  return send_all(c.socket, {c.head, r.body}, c.options.send_timeout);
}
//! [send_response]

// Refuses a request that cannot be served: the answers that wait go first.
void refuse(connection& c, const response& r) {
  if (flush(c)) answer_and_close(c.socket, r, c.options.send_timeout);
}

//! [read_request]
// Reads the next request whole, with chapter 2's parser, in place in the
// connection's buffer: its head stays where it was parsed, and its body is
// decoded into c.body.
arrival read_request(connection& c) {
  std::optional<clock::time_point> deadline;  // set by the request's first byte
  c.body.clear();
  for (;;) {
    const http::step s = c.parser.next(c.in.unparsed());
    c.in.used(s.used);
    // Bytes of this request that came with an earlier one's: its time starts
    // now, or a pipelined head whose body never comes would wait for the
    // idle timeout instead (read_more() sees no unparsed byte after it).
    if (s.used > 0 && !deadline) deadline = clock::now() + c.options.request_timeout;
    switch (s.what) {
    case http::event::head: {
      // What follows the head needs room in the buffer: a body's pieces are
      // read into it, and a chunked body's trailer section is parsed in
      // place after them. Made now, before any of the body is used: if the
      // bytes had to move, parse the head again. No body, no room: the
      // buffer stays as small as it is while the request is handled (a
      // held client's, for minutes), and the next request makes its own.
      // Nor does a body that came whole with its head (one of a batch of
      // pipelined requests, say): it is decoded where it lies.
      std::size_t room = 0;
      const http::framing& body = c.parser.body_framing();
      switch (body.kind) {
      case http::body_kind::none: break;
      case http::body_kind::chunked: room = c.options.limits.max_head + http::max_chunk_line; break;
      case http::body_kind::length: room = body.length > c.in.unparsed().size() ? 4096 : 0; break;
      case http::body_kind::until_close: room = 4096; break;
      }
      if (c.in.room_after_head(room)) {
        c.parser.reset();
        break;
      }
      c.in.keep_head();
      break;
    }
    case http::event::body: c.body.append(s.data); break;
    case http::event::end: return arrival::complete;
    case http::event::error:
      refuse(c, text_response(http::status_for(c.parser.error()),
                              std::string(http::describe(c.parser.error())) + "\n"));
      return arrival::refused;
    case http::event::need_more:
      if (!c.in.make_room()) {  // cannot happen within the limits; refuse anyway
        refuse(c, text_response(431));
        return arrival::refused;
      }
      if (!flush(c)) return arrival::gone;  // before waiting for the client
      switch (read_more(c, deadline)) {
      case read_result::more: break;
      case read_result::too_slow: refuse(c, text_response(408)); return arrival::refused;
      case read_result::idle:
      case read_result::closed: return arrival::gone;
      }
    }
  }
}
//! [read_request]

//! [shrink_input]
// Gives back the connection's buffer while its request waits (a held
// client's, chapter 10): the request's bytes move into a buffer just their
// size, and the head is parsed again there, as read_request() left it, so
// that every view of it points into the new place. A request with a body
// keeps its buffer: the body's bytes are gone from it, decoded into c.body.
void shrink_input(connection& c) {
  if (c.parser.body_framing().kind != http::body_kind::none || !c.in.shrink_to_message()) return;
  c.parser.reset();
  http::step s = c.parser.next(c.in.unparsed());  // the head, again
  c.in.used(s.used);
  c.in.keep_head();
  s = c.parser.next(c.in.unparsed());  // and the end of a message without a body
  c.in.used(s.used);
}
//! [shrink_input]

//! [answer]
// Answers the request just read; returns whether the connection goes on.
bool answer(connection& c, const handler& handle) {
  // EXERCISE ch07.1: answer the request, and decide whether the connection goes on
  // HINT: The handler runs right here, in this connection's process. What
  //       does it need to see of the request?
  // HINT: Which requests keep the connection open (chapter 2 has a function
  //       for it), and what may the response say about it? A HEAD request
  //       gets the head of the response only.
  // HINT: An answer that could not be sent means a client that left or
  //       stopped reading: which of the two ways to end a connection here
  //       leaves the kernel nothing to keep trying? The same way ends a
  //       connection whose handler says to hang up.
  // HINT: A handler may hold its request for minutes (chapter 10's hub):
  //       offer it a way to give the connection's buffer back meanwhile.
  // STUB: (void)c; (void)handle; (void)send_response; (void)drop; (void)shrink_input;
  request req{c.parser.head(), c.body, c.socket, c.peer, [&c] { shrink_input(c); }};
  const response r = handle(req);
  if (r.hang_up) {
    drop(c.socket);
    return false;
  }
  const bool keep_alive = http::keeps_alive(c.parser.head()) && !r.close;
  if (!send_response(c, r, keep_alive, c.parser.head().method == "HEAD")) {
    drop(c.socket);
    return false;
  }
  if (!keep_alive) close_gracefully(c.socket);
  return keep_alive;
  // END EXERCISE
}
//! [answer]

}  // namespace

//! [serve_connection]
void serve_connection(tcp::socket socket, const handler& handle, const server_options& options) {
  connection c(std::move(socket), options);
  boost::system::error_code ec;
  c.peer = c.socket.remote_endpoint(ec);
  // Each answer is written whole, in as few writes as it takes: Nagle's
  // algorithm could only hold back its last piece (as nginx, tcp_nodelay on).
  c.socket.set_option(tcp::no_delay(true), ec);
  // No call on this socket may block the thread: reads wait in Asio, writes
  // in send_all(). Said now, before the first read, Asio needs no system
  // call of its own to make the socket non-blocking.
  c.socket.non_blocking(true, ec);
  while (read_request(c) == arrival::complete && answer(c, handle)) c.in.next_message();
}
//! [serve_connection]

//! [send_all]
bool send_all(tcp::socket& socket, std::initializer_list<std::string_view> pieces,
              std::chrono::milliseconds patience, int flags) {
  boost::container::small_vector<asio::const_buffer, 4> left;  // on the stack, for a few pieces
  for (const std::string_view piece : pieces) {
    if (!piece.empty()) left.emplace_back(piece.data(), piece.size());
  }
  boost::system::error_code ec;
  if (!socket.non_blocking()) socket.non_blocking(true, ec);  // send() returns, never waits
  auto next = left.begin();
  while (!ec && next != left.end()) {
    // What the socket's buffer has room for goes now, without a wait.
    const std::span<const asio::const_buffer> rest(&*next,
                                                   static_cast<std::size_t>(left.end() - next));
    std::size_t n = socket.send(rest, flags, ec);
    if (ec == asio::error::would_block) {  // full: wait for room, or `patience` to pass
      ec.clear();
      socket.async_wait(tcp::socket::wait_write, use_process.within(patience)[ec]);
      continue;  // failed, or no room within `patience`: stalled
    }
    for (; next != left.end() && n >= next->size(); ++next) n -= next->size();
    if (next != left.end()) *next += n;
  }
  return !ec;
}
//! [send_all]

body_writer announced_length(std::uint64_t length) {
  return {length,
          [](tcp::socket& socket, std::string_view head, std::chrono::milliseconds patience) {
            return send_all(socket, {head}, patience);
          }};
}

//! [close_gracefully]
namespace {

// Stops sending, then reads and drops what the client still sends, until
// it closes too or a second passes; then closes.
void drain_and_close(tcp::socket& socket) {
  boost::system::error_code ec;
  socket.shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 4096> sink;
  const auto until = clock::now() + std::chrono::seconds(1);
  while (!ec && clock::now() < until) {
    socket.async_read_some(asio::buffer(sink), use_process.within(until - clock::now())[ec]);
  }
  socket.close(ec);
}

}  // namespace

void close_gracefully(tcp::socket& socket) {
  // Nearly always the client has sent nothing since the request it was
  // answered: nothing unread, nothing to reset, and a plain close sends
  // the FIN after the answer (as nginx closes, unless it expects more).
  boost::system::error_code ec;
  if (socket.available(ec) == 0 && !ec) {
    socket.close(ec);
    return;
  }
  drain_and_close(socket);
}
//! [close_gracefully]

void answer_and_close(tcp::socket& socket, const response& r, std::chrono::milliseconds patience) {
  std::string head;
  write_head(r, false, head);
  if (send_all(socket, {head, r.body}, patience)) {
    drain_and_close(socket);  // the rest of a refused request may still be on its way
  } else {
    boost::system::error_code ec;
    socket.close(ec);
  }
}

}  // namespace rdv::web
