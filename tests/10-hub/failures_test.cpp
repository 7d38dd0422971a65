// Chapter 10: timeouts, failing backends, overload and clients that leave
// (the hub protocol, appendix A1), and what /stats says of them.
#include "hub_fixture.hpp"
#include "ids.hpp"

#include "request_id.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/slow_reader.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace {

using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;

const std::string reply = ch10::http_message("HTTP/1.1 200 OK", "too late?");

TEST(Timeout, TheClientGets504AndTheLateReply404) {
  explained_in("ch10-timeout");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "300"});
  rdv::test::client c(hub.front());
  const auto sent = clock_type::now();
  c.send(ch10::get("/slow"));
  const std::string id = backend.next().id();
  const auto r = c.read_response();  // the client waits up to 10 s
  EXPECT_EQ(r.status, 504) << c.transcript();
  EXPECT_GE(clock_type::now() - sent, std::chrono::milliseconds(300))
      << "504 came before --timeout-ms had passed";
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 404)
      << "the id was forgotten when the client got its 504";
  EXPECT_EQ(hub.stat("timed_out"), 1);
  EXPECT_EQ(hub.stat("late_replies"), 1);
  EXPECT_EQ(hub.stat("pending"), 0);
  c.send(ch10::get("/again"));  // the connection goes on
  EXPECT_TRUE(ch10::is_lone_hub_id(backend.next().id()));
}

TEST(Timeout, AClientMayAskForLessTimeButNotMore) {
  explained_in("ch10-timeout");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  rdv::test::client c(hub.front());
  // Of its 2 s, the backend has half to take the request (a shorter wait
  // would make a loaded machine's backend too late to take it: 502).
  c.send(ch10::get("/quick", "X-Hub-Timeout-Ms: 2000\r\n"));
  EXPECT_EQ(std::atoi(backend.next().field("X-Hub-Deadline-Ms").c_str()) <= 2000, true);
  EXPECT_EQ(c.read_response().status, 504) << "after 2 s, not 60 s\n" << c.transcript();
  c.send(ch10::get("/patient", "X-Hub-Timeout-Ms: 999999999\r\n"));
  const auto f = backend.next();
  EXPECT_LE(std::atoll(f.field("X-Hub-Deadline-Ms").c_str()), 60000)
      << "--timeout-ms caps what a client asks for\n"
      << f.head();
  for (const char* value : {"soon", "0", "-5"}) {  // a wait of no time is no wait to ask for
    rdv::test::client bad(hub.front());
    bad.send(ch10::get("/bad", "X-Hub-Timeout-Ms: " + std::string(value) + "\r\n"));
    EXPECT_EQ(bad.read_response().status, 400) << "X-Hub-Timeout-Ms: " << value << '\n'
                                               << bad.transcript();
  }
}

// Raises this process's soft limit on open files toward `wanted` (the hard
// limit at most), for it and the programs it starts; returns the limit.
rlim_t allow_files(rlim_t wanted) {
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = std::max(files.rlim_cur, std::min(files.rlim_max, wanted));
  ::setrlimit(RLIMIT_NOFILE, &files);
  return files.rlim_cur;
}

// A held client of the test below: its socket, its deadline, and what it got.
struct timed_client {
  int fd = -1;
  std::chrono::milliseconds asked{};
  clock_type::time_point sent{}, answered{};
  std::string got;
};

TEST(Timeout, TenThousandHoldsEachEndAtItsOwnDeadline) {
  explained_in("ch10-timeout");
  // Both ends are open at once: the clients here, the held connections in
  // the hub. Fewer clients where the limit on open files is lower, and under
  // ThreadSanitizer, whose hub takes 10,000 in too slowly for their deadlines
  // to start when the clients sent their requests.
#if defined(__SANITIZE_THREAD__)
  constexpr rlim_t most = 500;
#else
  constexpr rlim_t most = 10'000;
#endif
  const auto clients =
      static_cast<std::size_t>(std::min<rlim_t>(most, allow_files(most + 500) - 500));
  ASSERT_GE(clients, 100u) << "the limit on open files leaves room for too few clients";
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000", "--max-pending",
                 std::to_string(clients + 100)});
  sockaddr_in front{};
  front.sin_family = AF_INET;
  front.sin_port = htons(hub.front());
  front.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::vector<timed_client> held(clients);
  // Deadlines from 1 s to 2 s, mixed: long enough for the backend to take
  // every forward in its half of the time, on a slow (sanitized) build too.
  for (std::size_t i = 0; i < clients; ++i) {
    timed_client& c = held[i];
    c.asked = std::chrono::milliseconds(1000 + 100 * static_cast<int>((i * 7) % 11));
    c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(c.fd, 0) << "client " << i << ": " << std::strerror(errno);
    ASSERT_EQ(::connect(c.fd, reinterpret_cast<const sockaddr*>(&front), sizeof front), 0)
        << "client " << i << ": " << std::strerror(errno);
    const std::string request =
        ch10::get("/held/" + std::to_string(i),
                  "X-Hub-Timeout-Ms: " + std::to_string(c.asked.count()) + "\r\n");
    c.sent = clock_type::now();
    ASSERT_EQ(::send(c.fd, request.data(), request.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(request.size()));
  }
  // Every answer, as it comes: a whole 504 is short, one read each.
  std::vector<pollfd> waiting;
  for (const timed_client& c : held) waiting.push_back({c.fd, POLLIN, 0});
  std::size_t answered = 0;
  const auto give_up = clock_type::now() + std::chrono::seconds(60);
  while (answered < clients && clock_type::now() < give_up) {
    ASSERT_GE(::poll(waiting.data(), waiting.size(), 1000), 0);
    for (std::size_t i = 0; i < clients; ++i) {
      if (waiting[i].fd < 0 || waiting[i].revents == 0) continue;
      timed_client& c = held[i];
      char bytes[1024];
      const ssize_t n = ::recv(c.fd, bytes, sizeof bytes, 0);
      c.answered = clock_type::now();
      if (n > 0) c.got.assign(bytes, static_cast<std::size_t>(n));
      waiting[i].fd = -1;  // poll() skips it from now on
      ++answered;
    }
  }
  std::size_t early = 0, late = 0, wrong = 0;
  for (std::size_t i = 0; i < clients; ++i) {
    timed_client& c = held[i];
    const auto took = c.answered - c.sent;
    if (!c.got.starts_with("HTTP/1.1 504")) {
      if (++wrong <= 3) ADD_FAILURE() << "client " << i << " got: " << c.got.substr(0, 60);
    } else if (took < c.asked) {
      if (++early <= 3) {
        ADD_FAILURE() << "client " << i << " asked for " << c.asked.count()
                      << " ms and got its 504 after "
                      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                      << " ms";
      }
    } else if (took > c.asked + std::chrono::seconds(10)) {
      ++late;
    }
    ::close(c.fd);
  }
  EXPECT_EQ(answered, clients) << "clients that got nothing within a minute";
  EXPECT_EQ(wrong, 0u) << "clients that got anything but 504";
  EXPECT_EQ(early, 0u) << "holds that ended before their deadline";
  EXPECT_EQ(late, 0u) << "holds that ended more than 10 s after their deadline";
  EXPECT_TRUE(hub.wait_for_stat("timed_out", static_cast<std::int64_t>(clients))) << hub.output();
  EXPECT_EQ(hub.stat("pending"), 0);
}

TEST(Backends, ConnectionsRefusedEverywhereMean502) {
  explained_in("ch10-backends");
  ch10::hub hub({"--backend", "127.0.0.1:" + std::to_string(ch10::refused_port())});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/nobody"));
  EXPECT_EQ(c.read_response().status, 502) << c.transcript() << hub.output();
  EXPECT_EQ(hub.stat("backend_errors"), 1);
  EXPECT_EQ(hub.stat("forwarded"), 0);
  EXPECT_EQ(hub.stat("pending"), 0);
}

TEST(Backends, TheNextBackendIsTriedWhenOneRefuses) {
  explained_in("ch10-backends");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", "127.0.0.1:" + std::to_string(ch10::refused_port()), "--backend",
                 backend.address()});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  for (int i = 0; i < 4; ++i) {  // whichever backend's turn it is, the request gets through
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(ch10::get("/" + std::to_string(i)));
    backend.next();
  }
  EXPECT_TRUE(hub.wait_for_stat("forwarded", 4)) << hub.output();
  EXPECT_EQ(hub.stat("backend_errors"), 0);
}

TEST(Backends, AnErrorStatusFromTheBackendMeans502) {
  explained_in("ch10-backends");
  ch10::test_backend backend(500);
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/broken"));
  const std::string id = backend.next().id();
  EXPECT_EQ(c.read_response().status, 502) << c.transcript();
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 404) << "the id was forgotten";
  EXPECT_EQ(hub.stat("backend_errors"), 1);
}

TEST(Overload, ClientsBeyondMaxPendingGet503WithRetryAfter) {
  explained_in("ch10-overload");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--max-pending", "2"});
  rdv::test::client first(hub.front()), second(hub.front()), third(hub.front());
  first.send(ch10::get("/1"));
  const std::string id = backend.next().id();
  second.send(ch10::get("/2"));
  backend.next();
  third.send(ch10::get("/3"));
  const auto r = third.read_response();
  EXPECT_EQ(r.status, 503) << third.transcript();
  EXPECT_EQ(r.field("Retry-After"), "1") << third.transcript();
  EXPECT_EQ(backend.received(), 2u) << "a rejected request is not forwarded";
  EXPECT_EQ(hub.stat("rejected"), 1);
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 204);
  EXPECT_EQ(first.read_response().status, 200);
  third.send(ch10::get("/3"));  // room again
  backend.next();
  EXPECT_EQ(hub.stat("pending"), 2);
}

TEST(Disconnect, AClientThatLeavesWhileHeldIsForgotten) {
  explained_in("ch10-disconnect");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  auto c = std::make_unique<rdv::test::client>(hub.front());
  c->send(ch10::get("/leaving"));
  const std::string id = backend.next().id();
  c.reset();  // closes the connection
  EXPECT_TRUE(hub.wait_for_stat("pending", 0))
      << "the hub should notice at once that the client left, not after 60 s";
  EXPECT_EQ(hub.stat("abandoned"), 1);
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 404)
      << "nobody waits for that reply any more";
}

TEST(Disconnect, AClientThatLeavesOnItsSecondHoldIsForgotten) {
  explained_in("ch10-disconnect");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  auto c = std::make_unique<rdv::test::client>(hub.front());
  c->send(ch10::get("/first"));
  EXPECT_EQ(ch10::post_reply(hub.replies(), backend.next().id(), reply).status, 204);
  EXPECT_EQ(c->read_response().status, 200) << c->transcript();  // the first hold is over
  c->send(ch10::get("/second"));  // a second hold on the same connection
  const std::string id = backend.next().id();
  c.reset();  // and the client leaves
  EXPECT_TRUE(hub.wait_for_stat("pending", 0))
      << "a client that leaves during the second hold of its connection should be noticed at "
         "once too, not after 60 s";
  EXPECT_EQ(hub.stat("abandoned"), 1);
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 404) << "nobody waits for it";
}

TEST(Stats, ReportsEveryCounterOfTheProtocol) {
  explained_in("ch10-stats");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  const auto stats = hub.stats();
  for (const char* counter : {"pending", "forwarded", "replied", "timed_out", "backend_errors",
                              "rejected", "late_replies"}) {
    ASSERT_TRUE(stats.contains(counter)) << boost::json::serialize(stats);
    EXPECT_EQ(stats.at(counter).as_int64(), 0) << counter;
  }
}

TEST(Backends, ABackendThatNeverAnswersLosesItsTurnAfterTheBackendTimeout) {
  explained_in("ch10-backends");
  ch10::silent_backend silent;  // takes the connection and the request, and says nothing
  ch10::test_backend backend;
  ch10::hub hub({"--backend", silent.address(), "--backend", backend.address(),
                 "--backend-timeout-ms", "200", "--timeout-ms", "10000"});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  for (int i = 0; i < 10; ++i) {  // half of them are forwarded to the silent one first
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(ch10::get("/" + std::to_string(i)));
  }
  const std::vector<ch10::forwarded> forwards = backend.next(10);
  for (const ch10::forwarded& f : forwards) {
    EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), reply).status, 204) << f.target;
  }
  for (auto& c : held) {
    EXPECT_EQ(c->read_response().status, 200)
        << "a backend that has not answered a forward within --backend-timeout-ms has failed: "
           "the next backend gets its turn, within the client's time\n"
        << c->transcript();
  }
  EXPECT_EQ(hub.stat("forwarded"), 10);
}

TEST(Backends, AForwardSentAfterTheHoldGaveItsBufferBackCarriesTheSameRequest) {
  explained_in("ch10-memory");
  ch10::silent_backend silent;  // the first backend asked: its turn ends after 300 ms
  ch10::test_backend backend;
  // The hold trims at 20 ms, before the second backend's turn: the forward
  // to it is written from the request as parsed again in its smaller buffer.
  ch10::hub hub({"--backend", silent.address(), "--backend", backend.address(),
                 "--backend-timeout-ms", "300", "--timeout-ms", "20000", "--trim-after-ms", "20"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/tagged?x=1", "X-Tag: kept\r\n"));
  const ch10::forwarded f = backend.next();
  EXPECT_EQ(hub.stat("trimmed"), 1) << "the hold should have trimmed before the second forward";
  EXPECT_EQ(f.method, "GET");
  EXPECT_EQ(f.target, "/tagged?x=1") << f.head();
  EXPECT_EQ(f.field("X-Tag"), "kept") << f.head();
  EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), reply).status, 204) << hub.output();
  EXPECT_EQ(c.read_response().status, 200) << c.transcript();
}

TEST(Backends, EveryBackendSilentMeans502WellBeforeTheClientsTimeout) {
  explained_in("ch10-backends");
  ch10::silent_backend a, b;
  ch10::hub hub({"--backend", a.address(), "--backend", b.address(), "--backend-timeout-ms", "200",
                 "--timeout-ms", "60000"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/nobody"));
  EXPECT_EQ(c.read_response().status, 502)
      << "two backends, each 200 ms to answer: 502 long before the client's 60 s\n"
      << c.transcript();
  EXPECT_EQ(hub.stat("backend_errors"), 1);
}

TEST(Disconnect, AClientThatPipelinesThenLeavesIsForgottenAtOnce) {
  explained_in("ch10-disconnect");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  auto c = std::make_unique<rdv::test::client>(hub.front());
  c->send(ch10::get("/first"));
  const std::string id = backend.next().id();  // held now
  c->send(ch10::get("/second"));  // its next request, which stays in the socket, unread
  // Later — long enough for the hub to have seen the request come, and to
  // know that it can no longer tell a leaving by the socket being readable —
  // the client leaves.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  c.reset();
  EXPECT_TRUE(hub.wait_for_stat("pending", 0))
      << "a held client that pipelined and then left should be forgotten at once, not after "
         "60 s: its socket stays readable, so only its hang-up can tell";
  EXPECT_EQ(hub.stat("abandoned"), 1);
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply).status, 404) << "nobody waits for it";
}

TEST(SlowReaders, AClientThatTakesNoneOfItsAnswerIsDropped) {
  explained_in("ch10-hostile");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--send-timeout-ms", "300"});
  const std::string get = ch10::get("/big");
  rdv::test::slow_reader reader(hub.front(), get, 16 * get.size());  // 16 requests, then silence
  const std::string big = ch10::http_message("HTTP/1.1 200 OK", std::string(900 * 1024, 'b'));
  // Answers far larger than the buffers between them, until the hub, stuck
  // writing one, forwards no further request.
  for (std::optional<ch10::forwarded> f = backend.next(); f;
       f = backend.next_within(std::chrono::seconds(2))) {
    if (ch10::post_reply(hub.replies(), f->id(), big).status != 204) break;
  }
  EXPECT_TRUE(reader.dropped_within(std::chrono::seconds(10)))
      << "a client that reads none of its answers should be dropped once the hub's writes have "
         "stalled for --send-timeout-ms\n"
      << hub.output();
  EXPECT_TRUE(hub.wait_for_stat("pending", 0)) << hub.output();
}

}  // namespace
