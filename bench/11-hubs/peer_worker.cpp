// peer_worker: the worker side of chapter 11's benchmark, one program for
// every system it compares, so that the worker costs each of them the same.
//
//   --mode hub    answers each forward 202 and posts the answer, as
//                 message/http, to /reply/<X-Hub-Request-Id> at --reply-to
//                 (a fixed hub: with two hubs, every reply goes to one of
//                 them, whichever holds the client), or, with
//                 --follow-reply-to, to the forward's X-Hub-Reply-To, the
//                 hub that holds the client, as the protocol's worker does;
//   --mode grip   answers each request from Pushpin with GRIP hold headers
//                 (Grip-Hold: response, a channel of its own per request) and
//                 publishes the answer to that channel at --publish (Pushpin's
//                 HTTP publish endpoint);
//   --mode nchan  answers nchan's authorization subrequest 204 and publishes
//                 the answer to /pub/<X-Hub-Request-Id> at --publish.
//
// The answer is the same small JSON body everywhere; its "posted_ns" says
// when it was sent (CLOCK_MONOTONIC, which every process on the machine
// shares), for a client to tell how long its delivery took. Publishes and
// replies go on kept-alive connections (chapter 10's pool), as the hub's
// worker does.
//
// With --until-released, no job ends by itself: each waits until a request
// for /release/COUNT/RATE lets the COUNT oldest go, RATE per second
// (chapter 10's bench of many held clients). /count says how many jobs
// began, /released how many answers were posted and taken (2xx).
#include "acceptor.hpp"
#include "connection_pool.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "use_process.hpp"
#include "worker.hpp"

#include "rdv/cli.hpp"
#include "rdv/server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <cstdint>
#include <deque>
#include <functional>

#include <iostream>
#include <string>
#include <unordered_map>
#include <utility>

namespace {

namespace web = rdv::web;
namespace json = boost::json;
using tcp = boost::asio::ip::tcp;

enum class mode { hub, grip, nchan };

struct peer {
  peer(mode m, tcp::endpoint t, std::string h) : how(m), target(t), host(std::move(h)) {}
  explicit peer(mode m) : how(m) {}

  mode how;
  tcp::endpoint target;          // --reply-to or --publish
  std::string host;              // its HOST:PORT, for the Host field
  bool follow_reply_to = false;  // --follow-reply-to: replies go where forwards say
  std::unordered_map<std::string, tcp::endpoint> resolved;  // "HOST:PORT" -> where, for them
  rdv::hub::connection_pool pool{1024, 1};  // no pipelining: Pushpin's publish port refuses it
  std::chrono::milliseconds delay{0};       // --delay-ms: how long a job takes
  std::uint64_t channels = 0;               // grip: the last channel made
  std::unordered_map<std::string, std::string> published;  // grip: channel -> answer
  std::uint64_t jobs = 0;                     // forwards (or subrequests) that began a job
  std::uint64_t recovered = 0;                // grip: answers given to Pushpin's recovery requests
  bool until_released = false;                // --until-released: jobs wait for /release
  std::deque<std::function<void()>> waiting;  // the ends of jobs not released yet, oldest first
  std::uint64_t released = 0;                 // answers posted and taken (2xx)

  // Waits as long as a job takes, letting other processes run.
  void pause() const {
    if (delay.count() == 0) return;
    boost::asio::steady_timer timer(rdv::proc::current_io_context(), delay);
    timer.async_wait(rdv::proc::use_process);
  }

  // Where a reply told of by X-Hub-Reply-To goes, as {HOST:PORT, endpoint};
  // null unless HOST is an address (no name is looked up here).
  const std::pair<const std::string, tcp::endpoint>*
  endpoint_of(const rdv::hub::reply_address& told) {
    std::uint16_t port = 0;  // parse_reply_to() wrote it from a port number
    std::from_chars(told.port.data(), told.port.data() + told.port.size(), port);
    const std::string authority = rdv::cli::to_string({told.host, port});
    if (const auto known = resolved.find(authority); known != resolved.end()) return &*known;
    boost::system::error_code error;
    const auto found = tcp::resolver(rdv::proc::current_io_context())
                           .resolve(told.host, told.port, tcp::resolver::numeric_host, error);
    if (error || found.empty()) return nullptr;
    return &*resolved.emplace(authority, found.begin()->endpoint()).first;
  }

  // POSTs `body` to `path` at the target; reports anything but 2xx.
  void post(const std::string& path, std::string_view type, const std::string& body) {
    post(target, host, path, type, body);
  }

  // The same, to `path` at `to`, which is `authority` (HOST:PORT).
  void post(const tcp::endpoint& to, const std::string& authority, const std::string& path,
            std::string_view type, const std::string& body) {
    const std::string request = "POST " + path + " HTTP/1.1\r\nHost: " + authority +
                                "\r\nContent-Type: " + std::string(type) +
                                "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
                                body;
    const auto answer = pool.exchange(
        to, request, "POST", rdv::hub::connection_pool::clock::now() + std::chrono::seconds(10));
    if (!answer.error && answer.status / 100 == 2) {
      ++released;
    } else {
      std::cerr << "peer_worker: POST " << path << ": "
                << (answer.error ? answer.error.message() : std::to_string(answer.status)) << '\n';
    }
  }

  // The answer every system's client gets: JSON naming the target, and
  // the moment it leaves (steady_clock is CLOCK_MONOTONIC on Linux).
  static std::string answer_for(std::string_view target) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return json::serialize(json::object{
        {"worker", "peer_worker"},
        {"target", target},
        {"done", true},
        {"posted_ns", std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()}});
  }

  // A job's end, `finish`: after the job's time, or when it is released.
  void later(std::function<void()> finish) {
    if (until_released) return waiting.push_back(std::move(finish));
    rdv::proc::spawn([this, finish = std::move(finish)] {
      pause();
      finish();
    });
  }

  // /release/COUNT/RATE: the COUNT oldest waiting jobs end, RATE per second,
  // each in a process of its own, so that a slow answer holds up no other.
  web::response release(std::string_view what) {
    std::uint64_t count = 0, rate = 0;
    const auto slash = what.find('/');
    const auto number = [](std::string_view text, std::uint64_t& into) {
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), into);
      return ec == std::errc() && end == text.data() + text.size();
    };
    if (slash == what.npos || !number(what.substr(0, slash), count) ||
        !number(what.substr(slash + 1), rate) || rate == 0) {
      return web::text_response(400, "expected /release/COUNT/RATE\n");
    }
    count = std::min<std::uint64_t>(count, waiting.size());
    rdv::proc::spawn([this, count, rate] {
      const auto start = std::chrono::steady_clock::now();
      for (std::uint64_t i = 0; i < count && !waiting.empty(); ++i) {
        boost::asio::steady_timer step(rdv::proc::current_io_context(),
                                       start + std::chrono::nanoseconds(i * 1'000'000'000 / rate));
        step.async_wait(rdv::proc::use_process);
        rdv::proc::spawn(std::move(waiting.front()));
        waiting.pop_front();
      }
    });
    return web::text_response(200, std::to_string(count) + "\n");
  }

  web::response handle(web::request& r) {
    // The benchmark asks how many jobs have begun, to know when all the
    // clients it sent are held.
    if (r.head.target == "/count") return web::text_response(200, std::to_string(jobs));
    if (r.head.target == "/released") return web::text_response(200, std::to_string(released));
    if (r.head.target.starts_with("/release/")) return release(r.head.target.substr(9));
    ++jobs;
    switch (how) {
    case mode::hub: {
      const std::string id(r.head.fields.find("X-Hub-Request-Id").value_or(""));
      std::string authority = host;
      tcp::endpoint to = target;
      if (follow_reply_to) {
        const auto told =
            rdv::hub::parse_reply_to(r.head.fields.find("X-Hub-Reply-To").value_or(""));
        const auto where = told && told->path == "/reply/" + id ? endpoint_of(*told) : nullptr;
        if (!where) {
          return web::text_response(
              400, "expected X-Hub-Reply-To: http://ADDRESS:PORT/reply/<X-Hub-Request-Id>\n");
        }
        authority = where->first;
        to = where->second;
      }
      later([this, id, to, authority = std::move(authority), target = std::string(r.head.target)] {
        web::response answer;
        answer.fields = {{"Content-Type", "application/json"}};
        answer.body = answer_for(target);
        std::string message;
        web::write_head(answer, true, message);  // a whole response, as message/http carries it
        message += answer.body;
        post(to, authority, "/reply/" + id, "message/http", message);
      });
      return web::text_response(202);
    }
    case mode::grip: {
      web::response hold;
      // Pushpin asks again (Grip-Last) to recover a message it may have
      // missed: hold once more, on the same channel, and start no new job.
      if (const auto last = r.head.fields.find("Grip-Last")) {
        --jobs;  // not a new job
        const std::string channel(last->substr(0, last->find(';')));
        // Published before Pushpin had subscribed, it was lost: answer now.
        if (const auto done = published.find(channel); done != published.end()) {
          web::response answer;
          answer.fields = {{"Content-Type", "application/json"}};
          answer.body = std::move(done->second);
          published.erase(done);
          ++recovered;
          return answer;
        }
        hold.fields = {{"Grip-Hold", "response"}, {"Grip-Channel", channel + "; prev-id=0"}};
        return hold;
      }
      const std::string channel = "c" + std::to_string(++channels);
      hold.fields = {{"Grip-Hold", "response"},
                     {"Grip-Channel", channel + "; prev-id=0"},
                     {"Grip-Timeout", until_released ? "3600" : "60"},
                     {"Content-Type", "application/json"}};
      later([this, channel, target = std::string(r.head.target)] {
        const std::string body = answer_for(target);
        // Pushpin's publish format: one item on the channel, the response
        // its held client gets.
        json::object response{
            {"headers", json::array{json::array{"Content-Type", "application/json"}}},
            {"body", body}};
        json::object item{{"channel", channel},
                          {"id", "1"},
                          {"prev-id", "0"},
                          {"formats", json::object{{"http-response", std::move(response)}}}};
        post("/publish/", "application/json",
             json::serialize(json::object{{"items", json::array{std::move(item)}}}));
        published.emplace(channel, body);  // for Pushpin's recovery request, if it comes
      });
      return hold;
    }
    case mode::nchan: {
      const std::string id(r.head.fields.find("X-Hub-Request-Id").value_or(""));
      later([this, id, target = std::string(r.head.target)] {
        post("/pub/" + id, "application/json", answer_for(target));
      });
      web::response ok;
      ok.status = 204;
      return ok;
    }
    }
    return web::text_response(500);
  }
};

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("peer_worker",
                        "The worker of chapter 11's benchmark, for the hub, Pushpin or nchan.");
  rdv::cli::host_port listen{"127.0.0.1", 9000}, reply_to, publish;
  std::string how = "hub";
  std::chrono::milliseconds delay{0};
  bool until_released = false, follow_reply_to = false;
  flags.option("listen", listen, "where forwards come")
      .option("mode", how, "which system it works for", "hub|grip|nchan")
      .option("reply-to", reply_to, "hub mode: the reply port every reply goes to")
      .toggle("follow-reply-to", follow_reply_to,
              "hub mode: each reply goes to its forward's X-Hub-Reply-To instead")
      .option("publish", publish, "grip and nchan modes: where to publish")
      .option("delay-ms", delay, "how long each job takes")
      .range(0, 86'400'000)
      .toggle("until-released", until_released,
              "jobs end only when /release/COUNT/RATE lets them, oldest first");
  if (!flags.parse(argc, argv)) return flags.exit_status();
  const rdv::cli::host_port& where = how == "hub" ? reply_to : publish;
  const bool told = how == "hub" && follow_reply_to;
  if ((how != "hub" && how != "grip" && how != "nchan") || (where.host.empty() && !told)) {
    std::cerr << "peer_worker: --mode hub needs --reply-to (or --follow-reply-to), grip and "
                 "nchan need --publish\n";
    return 2;
  }
  try {
    boost::asio::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);
    rdv::stop_on_signals(io);
    auto acceptor = rdv::listen(io, listen, "backend");
    peer worker = told ? peer(mode::hub)
                       : peer(how == "hub"    ? mode::hub
                              : how == "grip" ? mode::grip
                                              : mode::nchan,
                              tcp::resolver(io)
                                  .resolve(where.host, std::to_string(where.port))
                                  .begin()
                                  ->endpoint(),
                              rdv::cli::to_string(where));
    worker.follow_reply_to = follow_reply_to;
    worker.delay = delay;
    worker.until_released = until_released;
    rdv::proc::scheduler node;
    rdv::proc::run_in(io, node);
    node.spawn([&] {
      web::accept_connections(acceptor, [&worker](web::request& r) { return worker.handle(r); },
                              {.idle_timeout = std::chrono::seconds(600),
                               .max_connections = 20000,
                               .log = &std::cerr,
                               .answers_at_once = true});
    });
    io.run();
    if (worker.recovered > 0) {
      std::cerr << "peer_worker: " << worker.recovered
                << " answers went to Pushpin's recovery requests\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "peer_worker: " << e.what() << '\n';
    return 1;
  }
}
