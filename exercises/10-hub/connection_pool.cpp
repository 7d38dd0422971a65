#include "connection_pool.hpp"

#include "after.hpp"
#include "connection_buffer.hpp"
#include "event_loop.hpp"
#include "response_parser.hpp"
#include "use_process.hpp"

#include <boost/asio/write.hpp>
#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::hub {

namespace asio = boost::asio;
using asio::ip::tcp;
using proc::use_process;
using clock = connection_pool::clock;

namespace {

// How long past the oldest request's deadline a line waits for its response
// before it gives the connection up. Its requester stopped waiting at the
// deadline; the line waits on a little, because closing the connection
// would cost the requests behind that one their places.
constexpr auto patience = std::chrono::seconds(1);

boost::system::error_code not_http() {
  return boost::system::errc::make_error_code(boost::system::errc::bad_message);
}

}  // namespace

// A line's state, shared by the pool (which chooses a line by its load) and
// the line's process.
struct connection_pool::line {
  proc::pid driver;
  std::size_t load = 0;  // exchanges given to it that have not ended
  bool ended = false;    // its process has ended: the pool forgets it

  void drive(const tcp::endpoint& server);
};

struct connection_pool::job {
  proc::caller from;
  std::string request;
  std::string method;  // the parser keeps a view of it while it reads the response
  clock::time_point deadline;
  bool retried = false;  // sent once more already, after a connection broke
  bool first = false;    // the first request written on its connection
};

namespace {

using line = connection_pool::line;
using job = connection_pool::job;

// A line's connection, and what it has read that the parser has not used
// (chapter 7's buffer: nothing of a response is kept but its status).
struct wire {
  explicit wire(asio::io_context& io) : socket(io), in(http::limits{}) {}
  tcp::socket socket;
  http::response_parser parser;
  web::connection_buffer in;
  std::size_t written = 0;     // requests written on this connection
  bool front_started = false;  // a byte of the oldest unanswered response came
  int status = 0;              // of the response being read, once its head is
  bool keeps_alive = false;    // whether that response leaves the connection open
};

// Tells a job's requester how its exchange ended.
void finish(line& l, job& j, const exchange_result& result) {
  --l.load;
  proc::answer(j.from, result);
}

// Opens a connection to `server`, by `deadline`.
std::unique_ptr<wire> connect(const tcp::endpoint& server, clock::time_point deadline,
                              boost::system::error_code& ec) {
  auto w = std::make_unique<wire>(proc::current_io_context());
  w->socket.async_connect(server, use_process.within(deadline - clock::now())[ec]);
  if (!ec) w->socket.set_option(tcp::no_delay(true), ec);  // a batch goes out in one write
  if (!ec) w->socket.non_blocking(true, ec);               // write_some() never waits
  if (ec) w.reset();
  return w;
}

//! [write_batch]
// Writes the first `count` waiting requests, all of them with one system
// call if the socket's send buffer takes them (it mostly does), and moves
// them to `sent`. Each is written from where it is, with no copy: a gather
// write of the requests' own strings.
boost::system::error_code write_batch(wire& w, std::deque<job>& waiting, std::size_t count,
                                      std::deque<job>& sent) {
  const bool reading = !sent.empty();
  boost::container::small_vector<asio::const_buffer, 16> batch;  // on the stack, for most
  clock::time_point latest = clock::now();
  for (; count > 0 && !waiting.empty(); --count) {
    job& j = waiting.front();
    latest = std::max(latest, j.deadline);
    j.first = w.written++ == 0;
    sent.push_back(std::move(j));  // a deque's elements stay where they are
    waiting.pop_front();
    batch.push_back(asio::buffer(sent.back().request));
  }
  if (!reading) w.parser.answering(sent.front().method);
  boost::system::error_code ec;
  std::size_t n = w.socket.write_some(batch, ec);
  auto rest = batch.begin();  // the first request not written whole
  for (; rest != batch.end() && n >= rest->size(); ++rest) n -= rest->size();
  if (rest != batch.end() && (!ec || ec == asio::error::would_block)) {
    ec = {};
    *rest += n;
    const std::span<const asio::const_buffer> unwritten(
        &*rest, static_cast<std::size_t>(batch.end() - rest));
    asio::async_write(w.socket, unwritten,
                      use_process.within(latest + patience - clock::now())[ec]);
  }
  return ec;
}
//! [write_batch]

//! [read_answers]
// A response has ended. An interim one (1xx, but 101) changes nothing: its
// final one follows. A final one goes to the oldest requester; then returns
// eof if it closes the connection, not_http() if bytes follow the last
// response expected, and nothing if the line may go on reading. Sets `took`.
std::optional<boost::system::error_code> ended(line& l, wire& w, std::deque<job>& sent,
                                               bool& took) {
  if (w.status / 100 == 1 && w.status != 101) return std::nullopt;
  finish(l, sent.front(), {{}, w.status});
  sent.pop_front();
  took = true;
  w.in.next_message();
  w.front_started = w.in.has_unparsed();
  if (!w.keeps_alive) return asio::error::eof;  // whatever follows is not to be trusted
  if (sent.empty()) return w.in.has_unparsed() ? not_http() : boost::system::error_code();
  w.parser.answering(sent.front().method);
  return std::nullopt;
}

// Reads more of the oldest unanswered response, giving its requester's
// deadline a little patience. A response whose body runs until the close
// ends with the end of stream.
boost::system::error_code read_more(line& l, wire& w, std::deque<job>& sent) {
  if (!w.in.make_room()) return not_http();  // a head beyond every limit
  boost::system::error_code ec;
  const std::size_t n = w.socket.async_read_some(
      w.in.room(), use_process.within(sent.front().deadline + patience - clock::now())[ec]);
  if (ec == asio::error::eof && w.status != 0 && w.front_started && w.parser.finish_at_close()) {
    finish(l, sent.front(), {{}, w.status});
    sent.pop_front();
    w.front_started = false;
  }
  if (ec) return ec;
  w.in.received(n);
  w.front_started = true;
  return {};
}

// Reads responses, each for the oldest unanswered request, with chapter 2's
// parser, and tells each requester its status. Returns once at least one
// has come and the buffer holds no other whole one, so that the requests
// that came meanwhile can be written; or when the connection fails. An
// end of stream after a response that closes the connection is eof.
boost::system::error_code read_answers(line& l, wire& w, std::deque<job>& sent) {
  bool took = false;
  for (;;) {
    const http::step s = w.parser.next(w.in.unparsed());
    w.in.used(s.used);
    switch (s.what) {
    case http::event::head:  // the views in head() are valid only now: take what we need
      w.status = w.parser.head().status;
      w.keeps_alive =
          http::keeps_alive(w.parser.head(), w.parser.body_framing()) && w.status != 101;
      break;
    case http::event::body: break;  // the requester needs the status only
    case http::event::end:
      if (const auto over = ended(l, w, sent, took)) return *over;
      break;
    case http::event::error: return not_http();
    case http::event::need_more:
      if (took) return {};
      if (const auto ec = read_more(l, w, sent)) return ec;
      break;
    }
  }
}
//! [read_answers]

//! [broke]
// The connection failed with `sent` unanswered. The oldest of them failed
// on its own account if its response had begun, if it was the first
// request on the connection, or if the line's patience with it ran out
// (timed_out); a request sent again already fails now whatever its place.
// The others (which a server that closes an idle
// connection never saw) go back in front of `waiting`, for one more try on
// a new connection. Sending a request twice is safe here: the hub's
// forwards carry their X-Hub-Request-Id, and the hub delivers only the
// first reply for an id.
void broke(line& l, const wire& w, boost::system::error_code ec, std::deque<job>& sent,
           std::deque<job>& waiting) {
  // TODO(ch10.8): after a broken connection, fail what failed and send the rest once more
  // Hint: A server may close a kept-alive connection just as requests are on their way;
  //   those it never saw are safe to send again. Which of the unanswered requests can
  //   you not say that of (three cases)? (more: ./course hint 10 8)
  (void)l; (void)w; (void)ec; (void)sent; (void)waiting;
  throw rdv::todo("ch10.8", "after a broken connection, fail what failed and send the rest once more");
}
//! [broke]

// Writes the waiting requests (only the first while `probing`), on a new
// connection if there is none. If none can be opened (refused, or no
// answer in time), every waiting request fails with that error, and
// nothing was sent that could break.
boost::system::error_code write_waiting(line& l, const tcp::endpoint& server,
                                        std::unique_ptr<wire>& w, std::deque<job>& waiting,
                                        std::deque<job>& sent, bool& probing) {
  boost::system::error_code ec;
  if (!w) {
    w = connect(server, waiting.front().deadline, ec);
    probing = w && waiting.front().retried;
  }
  if (!w) {
    for (job& j : waiting) finish(l, j, {ec});
    waiting.clear();
    return {};
  }
  return write_batch(*w, waiting, probing ? 1 : waiting.size(), sent);
}

}  // namespace

//! [drive]
void connection_pool::line::drive(const tcp::endpoint& server) {
  std::deque<job> waiting;  // taken from the mailbox, not written yet
  std::deque<job> sent;     // written, unanswered, oldest first
  std::unique_ptr<wire> w;
  bool used = false;     // a line that has had its first job ends once it is idle and closed
  bool probing = false;  // a new connection for requests sent again: one at first (RFC 9112, 9.3.2)
  const auto take = [&](job& j) { waiting.push_back(std::move(j)); };
  for (;;) {
    while (proc::receive_now(take)) {}  // every request that waits, for one batch
    if (waiting.empty() && sent.empty()) {
      if (used && !w) break;
      proc::receive(take);  // idle: wait for a request
      continue;
    }
    used = true;
    boost::system::error_code ec;
    if (!waiting.empty() && !(probing && !sent.empty())) {
      ec = write_waiting(*this, server, w, waiting, sent, probing);
    }
    if (!ec && !sent.empty()) ec = read_answers(*this, *w, sent);
    if (sent.empty()) probing = false;  // the first request sent again was answered
    if (ec) {
      broke(*this, *w, ec, sent, waiting);
      w.reset();
    }
  }
  ended = true;
}
//! [drive]

connection_pool::connection_pool(std::size_t max_per_server, std::size_t depth)
    : max_per_server_(std::max<std::size_t>(max_per_server, 1)),
      depth_(std::max<std::size_t>(depth, 1)) {}

// The lines live on, idle, until their scheduler ends them.
connection_pool::~connection_pool() = default;

std::size_t connection_pool::open(const tcp::endpoint& server) const {
  const auto found = lines_.find(server);
  if (found == lines_.end()) return 0;
  return static_cast<std::size_t>(std::count_if(found->second.begin(), found->second.end(),
                                                [](const auto& l) { return !l->ended; }));
}

//! [line_for]
// The first line to `server` with fewer than `depth_` unanswered requests;
// a new one if there is none and there is room for it; else the least busy.
// Filling the lines in order, rather than spreading the requests over all
// of them, keeps the batches large after a burst has opened many lines.
std::shared_ptr<connection_pool::line> connection_pool::line_for(const tcp::endpoint& server) {
  std::vector<std::shared_ptr<line>>& lines = lines_[server];
  std::erase_if(lines, [](const std::shared_ptr<line>& l) { return l->ended; });
  // TODO(ch10.7): choose the line for a request: fill lines in order, open one only when all are full
  // Hint: A line's load is how many requests it carries unanswered; depth_ is how many
  //   it may carry before the next line gets a turn. Why does filling the first lines
  //   up, rather than spreading the requests evenly, make each write carry more of
  //   them? (more: ./course hint 10 7)
  (void)server;
  throw rdv::todo("ch10.7", "choose the line for a request: fill lines in order, open one only when all are full");
}
//! [line_for]

//! [exchange]
proc::ref connection_pool::send(const tcp::endpoint& server, std::string request,
                                std::string_view method, clock::time_point deadline) {
  const std::shared_ptr<line> l = line_for(server);
  const proc::caller me{proc::self(), proc::make_ref()};
  ++l->load;
  proc::send(l->driver, job{me, std::move(request), std::string(method), deadline});
  return me.call;
}

exchange_result connection_pool::exchange(const tcp::endpoint& server, std::string_view request,
                                          std::string_view method, clock::time_point deadline) {
  // An earlier exchange's answer that came too late is dropped on the way.
  return proc::await_reply<exchange_result>(send(server, std::string(request), method, deadline),
                                            deadline)
      .value_or(exchange_result{asio::error::timed_out});
}
//! [exchange]

}  // namespace rdv::hub
