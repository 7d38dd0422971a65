#include "connection_pool.hpp"

#include "after.hpp"
#include "event_loop.hpp"
#include "use_process.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

namespace rdv::hub {

namespace asio = boost::asio;
using asio::ip::tcp;
using proc::use_process;

namespace {

// The most a response's head may take in a connection's buffer (as chapter
// 7 allows a request's): the parser's limits, and room for the body's start.
constexpr std::size_t max_buffer = http::limits{}.max_start_line + http::limits{}.max_head + 4096;

boost::system::error_code not_http() {
  return boost::system::errc::make_error_code(boost::system::errc::bad_message);
}

}  // namespace

// A connection and what it has read that the parser has not used.
struct connection_pool::connection {
  explicit connection(asio::io_context& io) : socket(io) {}
  tcp::socket socket;
  http::response_parser parser;
  std::vector<char> buffer = std::vector<char>(4096);
  std::size_t filled = 0;  // bytes in buffer, from the first the parser has not used
  bool reused = false;     // whether it carried an exchange before this one

  exchange_result read_response(clock::time_point deadline, bool& answered, bool& reusable);
};

// The message that hands a connection to a process waiting in line; an
// empty one says "a connection closed: open one in its place".
struct connection_pool::handoff {
  std::unique_ptr<connection> c;
};

//! [read_response]
// Reads one response with chapter 2's parser and keeps only its status.
// `answered` says whether any byte of it came; `reusable` whether the
// connection may carry another exchange after it (only once the response
// is whole: a deadline that passes mid-body leaves the rest on the wire).
exchange_result connection_pool::connection::read_response(clock::time_point deadline,
                                                           bool& answered, bool& reusable) {
  int status = 0;
  bool keeps_alive = false;  // what the head says; it holds only once the response is whole
  std::size_t used = 0;      // bytes of buffer the parser is done with
  for (;;) {
    const http::step s = parser.next({buffer.data() + used, filled - used});
    used += s.used;
    switch (s.what) {
    case http::event::head:  // the views in head() are valid only now: take what we need
      status = parser.head().status;
      keeps_alive = http::keeps_alive(parser.head(), parser.body_framing()) && status != 101;
      break;
    case http::event::body: break;  // the hub needs the status only
    case http::event::end:
      if (status / 100 == 1 && status != 101) break;  // an interim response: the final one follows
      reusable = keeps_alive && used == filled;  // bytes nobody asked for: do not trust it
      filled = 0;
      return {{}, status};
    case http::event::error: reusable = false; return {not_http()};
    case http::event::need_more: {
      // Keep the unused bytes (the parser wants them again, with more), at the front.
      std::memmove(buffer.data(), buffer.data() + used, filled - used);
      filled -= used;
      used = 0;
      if (filled == buffer.size()) {
        if (buffer.size() >= max_buffer) return {not_http()};
        buffer.resize(std::min(2 * buffer.size(), max_buffer));
      }
      boost::system::error_code ec;
      const auto left = deadline - clock::now();
      if (left <= clock::duration::zero()) return {asio::error::timed_out};
      const std::size_t n =
          socket.async_read_some(asio::buffer(buffer.data() + filled, buffer.size() - filled),
                                 use_process.within(left)[ec]);
      if (ec == asio::error::eof && status != 0 && parser.finish_at_close()) {
        return {{}, status};  // the body ran until the close
      }
      if (ec) return {ec};
      filled += n;
      answered = true;
    }
    }
  }
}
//! [read_response]

connection_pool::connection_pool(std::size_t max_per_server) : max_per_server_(max_per_server) {}

connection_pool::~connection_pool() = default;

std::size_t connection_pool::open(const tcp::endpoint& server) const {
  const auto found = servers_.find(server);
  return found == servers_.end() ? 0 : found->second.open;
}

//! [exchange]
exchange_result connection_pool::exchange(const tcp::endpoint& server, std::string_view request,
                                          std::string_view method, clock::time_point deadline) {
  server_state& s = servers_[server];
  for (bool retried = false;; retried = true) {
    boost::system::error_code ec;
    std::unique_ptr<connection> c = take(s, server, deadline, ec);
    if (!c) return {ec};
    bool answered = false, reusable = false;
    // Most requests fit the socket's send buffer and go out at once: try
    // that first, without a timer; only the rest waits, until the deadline.
    const std::size_t sent = c->socket.write_some(asio::buffer(request), ec);
    if (sent < request.size() && (!ec || ec == asio::error::would_block)) {
      ec = {};
      asio::async_write(c->socket, asio::buffer(request.substr(sent)),
                        use_process.within(deadline - clock::now())[ec]);
    }
    c->parser.answering(method);
    const exchange_result result =
        ec ? exchange_result{ec} : c->read_response(deadline, answered, reusable);
    if (result.error && c->reused && !answered && !retried) {
      // The server closed this kept-alive connection while it was idle, and
      // probably the other idle ones too (it restarted?): close them all and
      // try once more on a new connection. Sending a request twice is safe
      // here: both copies carry the same X-Hub-Request-Id, and the hub
      // delivers only the first reply for an id.
      close(s, std::move(c));
      s.open -= s.idle.size();
      s.idle.clear();
      continue;
    }
    if (reusable) {
      give_back(s, std::move(c));
    } else {
      close(s, std::move(c));
    }
    return result;
  }
}
//! [exchange]

// An idle connection, a new one, or one a process gives back while we wait.
std::unique_ptr<connection_pool::connection> connection_pool::take(server_state& s,
                                                                   const tcp::endpoint& to,
                                                                   clock::time_point deadline,
                                                                   boost::system::error_code& ec) {
  if (!s.idle.empty()) {
    std::unique_ptr<connection> c = std::move(s.idle.back());
    s.idle.pop_back();
    c->reused = true;
    return c;
  }
  if (s.open < max_per_server_) {
    ++s.open;  // the new connection's place
  } else {
    bool slot_freed = false;
    if (std::unique_ptr<connection> c = wait_in_line(s, deadline, slot_freed)) return c;
    if (!slot_freed) {
      ec = asio::error::timed_out;
      return nullptr;
    }
  }
  auto c = std::make_unique<connection>(proc::current_io_context());
  c->socket.async_connect(to, use_process.within(deadline - clock::now())[ec]);
  if (!ec) c->socket.set_option(tcp::no_delay(true), ec);  // a request goes out in one write
  if (!ec) c->socket.non_blocking(true, ec);                // write_some() never waits
  if (ec) {
    close(s, std::move(c));  // gives its place to the next in line
    return nullptr;
  }
  return c;
}

// Waits until a process gives a connection back to us (returned), or closes
// one so that we may open another (slot_freed), or the deadline passes.
std::unique_ptr<connection_pool::connection>
connection_pool::wait_in_line(server_state& s, clock::time_point deadline, bool& slot_freed) {
  s.waiting.push_back(proc::self());
  std::optional<handoff> got =
      proc::receive([](handoff& h) { return std::optional<handoff>(std::move(h)); },
                    proc::after(deadline - clock::now(), [] { return std::optional<handoff>(); }));
  if (!got) {  // nobody handed us anything: leave the line
    const auto me = std::find(s.waiting.begin(), s.waiting.end(), proc::self());
    if (me != s.waiting.end()) s.waiting.erase(me);
    return nullptr;
  }
  slot_freed = got->c == nullptr;
  if (got->c) got->c->reused = true;
  return std::move(got->c);
}

//! [give_back]
// The connection goes to the first live process in line, or to the idle ones.
void connection_pool::give_back(server_state& s, std::unique_ptr<connection> c) {
  while (!s.waiting.empty()) {
    const proc::pid next = s.waiting.front();
    s.waiting.pop_front();
    if (proc::scheduler::current().alive(next)) {
      proc::send(next, handoff{std::move(c)});
      return;
    }
  }
  s.idle.push_back(std::move(c));
}
//! [give_back]

// Closes the connection; its place goes to the first live process in line.
void connection_pool::close(server_state& s, std::unique_ptr<connection> c) {
  c.reset();
  while (!s.waiting.empty()) {
    const proc::pid next = s.waiting.front();
    s.waiting.pop_front();
    if (proc::scheduler::current().alive(next)) {
      proc::send(next, handoff{});
      return;
    }
  }
  --s.open;
}

}  // namespace rdv::hub
