#pragma once
// Chapter 10's black-box tests: the hub runs as a program, as the hub
// protocol (appendix A1) describes it; the backend it forwards to runs in
// the test process and records what it gets; the test itself plays the
// workers.
#include "acceptor.hpp"
#include "event_loop.hpp"
#include "processes.hpp"

#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/server_thread.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ch10 {

using namespace std::chrono_literals;

// One request as the backend received it from the hub.
struct forwarded {
  std::string method, target, body;
  rdv::test::field_lines fields;
  std::uint16_t from_port = 0;  // the hub's end of the connection it came on

  // The value of the first field called `name` (ASCII case-insensitive), or "".
  std::string field(std::string_view name) const;
  // How many fields are called `name`.
  std::size_t count(std::string_view name) const;
  // The request's id, from X-Hub-Request-Id.
  std::string id() const { return field("X-Hub-Request-Id"); }
  // Every field line, for failure messages.
  std::string head() const;
};

// While it lives, test_backend::next() stops waiting as soon as `p` logs
// a crashed process (an unsolved exercise), and says so, instead of
// waiting 10 s for a request that cannot come.
class watching {
public:
  explicit watching(const rdv::test::program& p);
  ~watching();
  watching(const watching&) = delete;
  watching& operator=(const watching&) = delete;

private:
  const rdv::test::program* previous_;
};

// A backend under the test's control, in the test process (chapter 7's
// server on a thread of its own): it records every request the hub
// forwards, then answers with the status the test chose (202 unless told).
class test_backend {
public:
  // Called with each forwarded request before the backend answers it.
  using hook = std::function<void(const forwarded&)>;

  explicit test_backend(int status = 202, hook before_answer = {});
  std::uint16_t port() const { return thread_.port(); }
  // "127.0.0.1:PORT", for --backend.
  std::string address() const { return "127.0.0.1:" + std::to_string(port()); }

  // Waits for the next forwarded request; throws if none comes in 10 s, or
  // if the watched program logs a crashed process meanwhile.
  forwarded next();
  // Waits for the next `n` forwarded requests.
  std::vector<forwarded> next(std::size_t n);
  // The next forwarded request, if one comes within `limit`.
  std::optional<forwarded> next_within(std::chrono::milliseconds limit);
  // How many requests have arrived so far (taken by next() or not).
  std::size_t received() const;

private:
  rdv::web::response handle(rdv::web::request& r);

  int status_;
  hook before_answer_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<forwarded> waiting_;  // guarded by mutex_
  std::size_t received_ = 0;       // guarded by mutex_
  rdv::test::server_thread thread_;
};

// A port on which nothing listens: connections to it are refused.
std::uint16_t refused_port();

// A backend that never answers: a socket that listens, so that the kernel
// completes connections and takes the requests sent on them, but that no
// one reads or answers.
class silent_backend {
public:
  silent_backend();
  ~silent_backend();
  silent_backend(const silent_backend&) = delete;
  silent_backend& operator=(const silent_backend&) = delete;
  // "127.0.0.1:PORT", for --backend.
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

// The hub program, started with `--listen 127.0.0.1:0 --reply-listen
// 127.0.0.1:0` and `args`.
class hub {
public:
  explicit hub(std::vector<std::string> args);
  std::uint16_t front() const { return front_; }
  std::uint16_t replies() const { return replies_; }
  rdv::test::program& program() { return program_; }

  // GET /stats, parsed.
  boost::json::object stats();
  // One counter of /stats.
  std::int64_t stat(std::string_view name) { return stats().at(name).as_int64(); }
  // Polls /stats (every 10 ms, for 10 s at most) until `name` equals `value`;
  // returns whether it did.
  bool wait_for_stat(std::string_view name, std::int64_t value);
  // The hub's output, for failure messages.
  std::string output() const { return program_.output(); }

private:
  rdv::test::program program_;
  std::uint16_t front_, replies_;
  watching watch_;
};

// The request that posts `body` as the reply for `id`, with `content_type`
// and any further header lines (`extra`, each ending in CRLF).
std::string reply_request(std::string_view id, std::string_view body,
                          std::string_view content_type = "message/http",
                          std::string_view extra = {});
// A whole HTTP/1.1 response with `body` framed by Content-Length, as a
// message/http reply carries it: `status_line` is "HTTP/1.1 200 OK".
std::string http_message(std::string_view status_line, std::string_view body,
                         std::string_view extra_fields = {});
// Posts a reply on a new connection and returns the hub's answer to it.
rdv::test::response post_reply(std::uint16_t reply_port, std::string_view id, std::string_view body,
                               std::string_view content_type = "message/http",
                               std::string_view extra = {});

// A GET of `target` that a client sends to the hub's front port.
std::string get(std::string_view target, std::string_view extra = {});

}  // namespace ch10
