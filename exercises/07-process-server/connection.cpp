#include "connection.hpp"

#include "processes.hpp"
#include "use_process.hpp"

#include <boost/asio/write.hpp>

#include <sys/socket.h>  // MSG_MORE

#include <algorithm>
#include <array>
#include <optional>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::web {

namespace asio = boost::asio;
using asio::ip::tcp;
using clock = std::chrono::steady_clock;
using proc::use_process;

namespace {

// The bytes of one connection. Requests are parsed in place: the parser's
// views point into `bytes`, so a request's head stays where it is until the
// request has been answered. The buffer starts small (most heads are) and
// grows while a head does not fit, up to what the limits allow.
struct connection_buffer {
  std::vector<char> bytes;
  std::size_t filled = 0;  // bytes read from the socket
  std::size_t parsed = 0;  // bytes the parser has used

  // Room for the longest head the limits allow, and the start of a body.
  static std::size_t most(const http::limits& limits) {
    return limits.max_start_line + limits.max_head + 4096;
  }
  explicit connection_buffer(const http::limits& limits)
      : bytes(std::min<std::size_t>(2048, most(limits))) {}
  // Doubles the buffer, up to most(limits); false if it is that big already.
  bool grow(const http::limits& limits) {
    if (bytes.size() >= most(limits)) return false;
    bytes.resize(std::min(2 * bytes.size(), most(limits)));
    return true;
  }

  std::string_view unparsed() const { return {bytes.data() + parsed, filled - parsed}; }
  // Moves the unparsed bytes to `to`, making room at the end.
  void move_unparsed_to(std::size_t to) {
    std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(parsed),
              bytes.begin() + static_cast<std::ptrdiff_t>(filled),
              bytes.begin() + static_cast<std::ptrdiff_t>(to));
    filled = to + (filled - parsed);
    parsed = to;
  }
};

// How reading the next piece of a request ended.
enum class read_result { more, closed, idle, too_slow };

//! [read_more]
// Reads what the client sends next. Before the first byte of a request the
// client may take `idle_timeout`; from then on the whole request must be in
// by `deadline`, which this sets when the first byte arrives.
read_result read_more(tcp::socket& socket, connection_buffer& in,
                      std::optional<clock::time_point>& deadline, const server_options& options) {
  // TODO(ch07.1): read with the idle timeout between requests, and a request deadline within one
  // Hint: use_process.within(limit)[ec] suspends this process until the read completes
  //   or `limit` passes. Which error says the time ran out? (more: ./course hint 07 1)
  (void)socket; (void)in; (void)deadline; (void)options;
  throw rdv::todo("ch07.1", "read with the idle timeout between requests, and a request deadline within one");
}
//! [read_more]

//! [write_more]
// Writes `bytes` with MSG_MORE: the kernel keeps them until what is written
// next can go with them (Linux; elsewhere they are simply written).
void write_more(tcp::socket& socket, std::string_view bytes, boost::system::error_code& ec) {
#if defined(MSG_MORE)
  constexpr int more = MSG_MORE;
#else
  constexpr int more = 0;
#endif
  while (!ec && !bytes.empty()) {
    bytes.remove_prefix(socket.async_send(asio::buffer(bytes), more, use_process[ec]));
  }
}
//! [write_more]

//! [answers]
// A connection's answers on their way out. With
// server_options::answer_pipelined_together, an answer to a request that
// has another behind it in the buffer waits in `waiting`, and leaves with
// the answers after it, in one write.
struct answers {
  std::string head;     // the head being written; reused, as its capacity grows
  std::string waiting;  // whole answers not written yet
  bool may_wait = false;  // whether the answer being sent may wait

  // Writes the answers that wait; false if the connection failed.
  bool flush(tcp::socket& socket) {
    if (waiting.empty()) return true;
    boost::system::error_code ec;
    asio::async_write(socket, asio::buffer(waiting), use_process[ec]);
    waiting.clear();
    return !ec;
  }
};
//! [answers]

// Writes the answer to one request: the head, then the body; or keeps it
// in `out` to go with the next one.
bool send_response(tcp::socket& socket, const response& r, bool keep_alive, bool head_only,
                   answers& out) {
  std::string& head = out.head;
  write_head(r, keep_alive, head);
  if (!r.write_body && ((out.may_wait && keep_alive) || !out.waiting.empty())) {
    out.waiting += head;
    if (!head_only) out.waiting += r.body;
    return (out.may_wait && keep_alive) || out.flush(socket);  // the last goes with those before it
  }
  if (!out.flush(socket)) return false;
  boost::system::error_code ec;
  if (head_only || r.write_body) {
    if (r.head_joins_body && !head_only && r.write_body) {
      write_more(socket, head, ec);
    } else {
      asio::async_write(socket, asio::buffer(head), use_process[ec]);
    }
    if (!ec && !head_only && r.write_body) r.write_body(socket);
  } else {
    const std::array<asio::const_buffer, 2> both{asio::buffer(head), asio::buffer(r.body)};
    asio::async_write(socket, both, use_process[ec]);
  }
  return !ec;
}

}  // namespace

void close_gracefully(tcp::socket& socket) {
  boost::system::error_code ec;
  socket.shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 4096> sink;
  const auto until = clock::now() + std::chrono::seconds(1);
  while (!ec && clock::now() < until) {
    socket.async_read_some(asio::buffer(sink), use_process.within(until - clock::now())[ec]);
  }
}

void answer_and_close(tcp::socket& socket, const response& r) {
  answers out;
  if (send_response(socket, r, false, false, out)) close_gracefully(socket);
}

//! [serve_connection]
void serve_connection(tcp::socket socket, const handler& handle, const server_options& options) {
  boost::system::error_code ec;
  const tcp::endpoint peer = socket.remote_endpoint(ec);
  if (options.no_delay) socket.set_option(tcp::no_delay(true), ec);
  http::request_parser parser(options.limits);
  connection_buffer in(options.limits);
  std::string body;  // reused: no allocation per request once it has grown
  answers out;
  // The answers that wait go before anything else the connection says.
  const auto refuse = [&](const response& r) {
    if (out.flush(socket)) answer_and_close(socket, r);
  };
  for (;;) {  // one request per turn
    std::optional<clock::time_point> deadline;  // set by the request's first byte
    std::size_t head_end = 0;                   // where the head ends, once parsed
    body.clear();
    for (bool complete = false; !complete;) {
      const http::step s = parser.next(in.unparsed());
      in.parsed += s.used;
      switch (s.what) {
      case http::event::head: head_end = in.parsed; break;
      case http::event::body: body.append(s.data); break;
      case http::event::end: complete = true; break;
      case http::event::error:
        refuse(text_response(http::status_for(parser.error()),
                             std::string(http::describe(parser.error())) + "\n"));
        return;
      case http::event::need_more:
        if (in.filled == in.bytes.size()) in.move_unparsed_to(head_end);  // the head stays put
        if (in.filled == in.bytes.size()) {
          if (!in.grow(options.limits)) {  // cannot happen within the limits; refuse anyway
            refuse(text_response(431));
            return;
          }
          if (head_end != 0) {  // a head that filled the buffer has moved: parse it again
            parser.reset();
            in.parsed = head_end = 0;
          }
        }
        if (!out.flush(socket)) return;  // before waiting for the client
        switch (read_more(socket, in, deadline, options)) {
        case read_result::more: break;
        case read_result::too_slow: answer_and_close(socket, text_response(408)); return;
        case read_result::idle:
        case read_result::closed: return;
        }
      }
    }
    out.may_wait = options.answer_pipelined_together && in.filled > in.parsed;  // another is here
    // TODO(ch07.2): answer the request, and decide whether the connection goes on
    // Hint: The handler runs right here, in this connection's process. What does it
    //   need to see of the request? (more: ./course hint 07 2)
    (void)handle; (void)peer; (void)send_response;
    throw rdv::todo("ch07.2", "answer the request, and decide whether the connection goes on");
    in.move_unparsed_to(0);  // the next request starts at the front
  }
}
//! [serve_connection]

}  // namespace rdv::web
