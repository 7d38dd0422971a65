// Chapter 10: the connection pool, in the test process — its lines batch the
// requests that come together into one write, pipelined on one connection;
// a request goes to the first line that is not full (ch10.7), and once more
// when a broken kept-alive connection left it unanswered (ch10.8). The
// backend is a socket the test scripts, on a thread.
#include "connection_pool.hpp"

#include "in_process.hpp"
#include "scripted_backend.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/tcp_segments.hpp"
#include "rdv/test/unsolved.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <poll.h>

#include <array>
#include <chrono>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using rdv::test::explained_in;
using namespace std::chrono_literals;
namespace proc = rdv::proc;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using rdv::hub::connection_pool;

constexpr std::string_view accepted = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";

std::string get(std::string_view target) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: backend\r\n\r\n";
}

using ch10::requests_in;
using ch10::scripted_backend;

// Runs `exchange(targets[i])` in one process each, all started in the same
// turn, on one pool, each with `patience[i]` (10 s if not given); returns
// each one's result, and how many connections the pool had open once all
// of them had ended.
struct pooled {
  std::vector<rdv::hub::exchange_result> results;
  std::size_t open = 0;
};
pooled exchange_together(const tcp::endpoint& server, const std::vector<std::string>& targets,
                         std::size_t max_per_server = 1024, std::size_t depth = 32,
                         const std::vector<std::chrono::milliseconds>& patience = {}) {
  pooled out;
  out.results.resize(targets.size());
  const std::string crash = ch10::run([&] {
    connection_pool pool(max_per_server, depth);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const auto deadline =
          connection_pool::clock::now() + (i < patience.size() ? patience[i] : 10s);
      proc::monitor(proc::spawn([&, i, deadline] {
        out.results[i] = pool.exchange(server, get(targets[i]), "GET", deadline);
      }));
    }
    for (std::size_t ended = 0; ended < targets.size(); ++ended) proc::receive<proc::down>();
    out.open = pool.open(server);
  });
  if (!crash.empty()) throw std::runtime_error("the test's process crashed: " + crash);
  return out;
}

TEST(Pool, RequestsThatComeTogetherShareOneWrite) {
  explained_in("ch10-pool");
  if (!rdv::test::segment_counts_available()) {
    GTEST_SKIP() << "this system does not count TCP segments (TCP_INFO), as under qemu-user";
  }
  std::string first_read;
  std::size_t connections = 0;
  std::uint32_t segments = 0;  // carrying data, as the backend's socket received them
  scripted_backend backend([&](scripted_backend& b) {
    tcp::socket s = b.accept();
    ++connections;
    first_read = b.read_some(s);
    const std::string rest =
        b.read_requests(s, 5 - std::min<std::size_t>(requests_in(first_read), 5));
    segments = rdv::test::data_segments_received(s.native_handle());
    std::string answers;
    for (std::size_t i = 0; i < requests_in(first_read + rest); ++i) answers += accepted;
    asio::write(s, asio::buffer(answers));
  });
  const pooled p = exchange_together(backend.endpoint(), {"/0", "/1", "/2", "/3", "/4"});
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(requests_in(first_read), 5u)
      << "five requests waiting in the line's mailbox should leave in one write, pipelined; "
         "the backend's first read got:\n"
      << first_read;
  EXPECT_EQ(segments, 1u) << "one write of ~200 bytes is one TCP segment on the loopback; five "
                             "writes (TCP_NODELAY) would be five";
  EXPECT_EQ(connections, 1u);
  EXPECT_EQ(p.open, 1u) << "one kept-alive connection carries all five";
  for (const auto& r : p.results) {
    EXPECT_FALSE(r.error) << r.error.message();
    EXPECT_EQ(r.status, 202);
  }
}

TEST(Pool, ABatchTooBigForTheSocketsBuffersArrivesWholeAndInOrder) {
  explained_in("ch10-pool");
  // Four requests of 4 MiB each, to a backend that takes 64 KiB at a time:
  // more than the kernel's buffers hold (the hub's send buffer grows to 4
  // MiB at most, Linux's tcp_wmem), so the line's first write stops inside
  // one of them, and the rest must follow from that byte on.
  std::vector<std::string> targets;
  std::string expected;
  for (char c : std::string_view("wxyz")) {
    targets.push_back("/" + std::string(4 << 20, c));
    expected += get(targets.back());
  }
  std::string carried;
  scripted_backend backend(
      [&](scripted_backend& b) {
        tcp::socket s = b.accept();
        while (carried.size() < expected.size()) carried += b.read_some(s);
        std::string answers;
        for (std::size_t i = 0; i < targets.size(); ++i) answers += accepted;
        asio::write(s, asio::buffer(answers));
      },
      64 << 10);
  const pooled p = exchange_together(backend.endpoint(), targets);
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(p.open, 1u) << "one line carries the whole batch";
  EXPECT_TRUE(carried == expected)
      << "the backend must get the four requests byte for byte, in order; it got " << carried.size()
      << " bytes of the " << expected.size() << " expected";
  for (const auto& r : p.results) {
    EXPECT_FALSE(r.error) << r.error.message();
    EXPECT_EQ(r.status, 202);
  }
}

// A backend that accepts `connections` connections and answers `each`
// requests on every one of them; `got` holds what each connection carried.
void answer_on_each(scripted_backend& b, std::size_t connections, std::size_t each,
                    std::vector<std::string>& got) {
  std::vector<tcp::socket> open;
  for (std::size_t i = 0; i < connections; ++i) open.push_back(b.accept());
  for (tcp::socket& s : open) {
    got.push_back(b.read_requests(s, each));
    std::string answers;
    for (std::size_t i = 0; i < requests_in(got.back()); ++i) answers += accepted;
    asio::write(s, asio::buffer(answers));
  }
}

TEST(Pool, FillsALineToItsDepthBeforeOpeningAnother) {
  explained_in("ch10-pool");
  std::vector<std::string> got;
  scripted_backend backend([&](scripted_backend& b) { answer_on_each(b, 2, 2, got); });
  const pooled p = exchange_together(backend.endpoint(), {"/0", "/1", "/2", "/3"}, 4, 2);
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(p.open, 2u) << "four requests at once, two per line at most: two lines, not four "
                           "(filling lines in order keeps the batches large)";
  for (const std::string& carried : got) {
    EXPECT_EQ(requests_in(carried), 2u) << "each line carries two requests:\n" << carried;
  }
  for (const auto& r : p.results) EXPECT_EQ(r.status, 202) << r.error.message();
}

TEST(Pool, OpensNoMoreLinesThanAllowedAndGivesTheLeastBusyTheRest) {
  explained_in("ch10-pool");
  std::vector<std::string> got;
  scripted_backend backend([&](scripted_backend& b) { answer_on_each(b, 2, 3, got); });
  const pooled p =
      exchange_together(backend.endpoint(), {"/0", "/1", "/2", "/3", "/4", "/5"}, 2, 1);
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(p.open, 2u) << "at most two lines to a server";
  for (const std::string& carried : got) {
    EXPECT_EQ(requests_in(carried), 3u)
        << "with both lines full, each further request goes to the less busy one:\n"
        << carried;
  }
  for (const auto& r : p.results) EXPECT_EQ(r.status, 202) << r.error.message();
}

TEST(Pool, ARequestGoesToTheFirstLineWithRoomNotToTheEmptiest) {
  explained_in("ch10-pool");
  // Two lines of depth 2: the first carries /0 and /1, the second /2. Once
  // /0 and /2 are answered, the first line carries one request and the
  // second none; /3 must go to the first, which has room, and not to the
  // emptier second one (spreading requests keeps the batches small). A line
  // writes what came meanwhile after its next answer: the backend answers /1
  // once /3 has been given to a line, and looks where /3 comes.
  std::promise<void> given;
  bool on_first = false;
  scripted_backend backend([&, third = given.get_future().share()](scripted_backend& b) {
    std::array<tcp::socket, 2> s{b.accept(), b.accept()};
    std::array<std::string, 2> carried;
    for (std::size_t i = 0; i < 2; ++i) {  // /0 and /1 on one of them, /2 on the other
      carried[i] = b.read_requests(s[i], 1);
      while (carried[i].find("GET /2 ") == std::string::npos && requests_in(carried[i]) < 2) {
        carried[i] += b.read_some(s[i]);
      }
    }
    const std::size_t first = carried[0].find("GET /0 ") != std::string::npos ? 0 : 1;
    tcp::socket& filled = s[first];
    tcp::socket& emptied = s[1 - first];
    asio::write(filled, asio::buffer(accepted));   // /0
    asio::write(emptied, asio::buffer(accepted));  // /2
    if (third.wait_for(10s) != std::future_status::ready) {
      throw std::runtime_error("/3 was not sent within 10 s");
    }
    asio::write(filled, asio::buffer(accepted));  // /1
    std::array<pollfd, 2> either{
        {{filled.native_handle(), POLLIN, 0}, {emptied.native_handle(), POLLIN, 0}}};
    if (::poll(either.data(), either.size(), 10'000) <= 0) {
      throw std::runtime_error("/3 came on neither connection in 10 s");
    }
    on_first = (either[0].revents & POLLIN) != 0;
    tcp::socket& third_came = on_first ? filled : emptied;
    b.read_requests(third_came, 1);
    asio::write(third_came, asio::buffer(accepted));  // /3
  });
  std::array<rdv::hub::exchange_result, 4> results;
  const std::string crash = ch10::run([&] {
    connection_pool pool(4, 2);
    const auto deadline = connection_pool::clock::now() + 10s;
    for (std::size_t i = 0; i < 4; ++i) {
      if (i == 3) {  // once /0 and /2 are answered (/1 is answered after /3 is sent)
        for (int ended = 0; ended < 2; ++ended) proc::receive<proc::down>();
      }
      proc::monitor(proc::spawn([&, i] {
        const proc::ref call =
            pool.send(backend.endpoint(), get("/" + std::to_string(i)), "GET", deadline);
        if (i == 3) given.set_value();
        results[i] = proc::await_reply<rdv::hub::exchange_result>(call, deadline)
                         .value_or(rdv::hub::exchange_result{asio::error::timed_out});
      }));
    }
    for (int ended = 0; ended < 2; ++ended) proc::receive<proc::down>();  // /1 and /3
  });
  backend.join();
  ASSERT_EQ(crash, "");
  ASSERT_EQ(backend.failure(), "");
  EXPECT_TRUE(on_first) << "with the first line carrying one request of two and the second none, "
                           "/3 went to the second: fill the lines in order, the first with room "
                           "first";
  for (const auto& r : results) EXPECT_EQ(r.status, 202) << r.error.message();
}

// Three requests pipelined on one connection, which the backend closes
// after writing `first_answer`; what then comes on the second connection
// (two requests, the first alone, each answered 202).
struct retried {
  std::string on_first, probe, rest;
  pooled p;
};
retried broken_after(std::string_view first_answer) {
  retried out;
  scripted_backend backend([&](scripted_backend& b) {
    {
      tcp::socket s = b.accept();
      out.on_first = b.read_requests(s, 3);
      asio::write(s, asio::buffer(first_answer));  // and closes
    }
    tcp::socket s = b.accept();
    out.probe = b.read_requests(s, 1);
    asio::write(s, asio::buffer(accepted));
    out.rest = b.read_requests(s, 1);
    asio::write(s, asio::buffer(accepted));
  });
  out.p = exchange_together(backend.endpoint(), {"/a", "/b", "/c"});
  backend.join();
  if (!backend.failure().empty()) throw std::runtime_error("the backend: " + backend.failure());
  return out;
}

TEST(Pool, RequestsABrokenConnectionLeftUnansweredAreSentOnceMore) {
  explained_in("ch10-pool");
  const retried r = broken_after(accepted);  // answers /a only
  EXPECT_EQ(r.on_first, get("/a") + get("/b") + get("/c"))
      << "the three requests pipelined on the first connection";
  EXPECT_EQ(r.probe, get("/b"))
      << "the requests the closed connection left unanswered go once more, on a new one; the "
         "first of them alone until it is answered (RFC 9112, section 9.3.2)";
  EXPECT_EQ(r.rest, get("/c"));
  for (const auto& result : r.p.results) {
    EXPECT_FALSE(result.error) << result.error.message();
    EXPECT_EQ(result.status, 202);
  }
}

TEST(Pool, TheFirstOfRequestsPipelinedOnANewConnectionIsNotSentTwice) {
  explained_in("ch10-pool");
  const retried r = broken_after("");  // the new connection closes before any answer
  EXPECT_TRUE(r.p.results[0].error)
      << "the server closed a new connection with /a its first request: /a was answered, with an "
         "error, however many requests came behind it";
  EXPECT_EQ(r.probe, get("/b")) << "only the requests behind the first go once more";
  EXPECT_EQ(r.rest, get("/c"));
  EXPECT_EQ(r.p.results[1].status, 202) << r.p.results[1].error.message();
  EXPECT_EQ(r.p.results[2].status, 202) << r.p.results[2].error.message();
}

TEST(Pool, AnAnswerCutShortFailsItsRequestAloneAndTheRestGoOnceMore) {
  explained_in("ch10-pool");
  const retried r = broken_after(accepted.substr(0, 16));  // /a's answer begins, and stops
  EXPECT_TRUE(r.p.results[0].error)
      << "the server began to answer /a and closed: /a failed, whatever the server did with it";
  EXPECT_EQ(r.probe, get("/b")) << "the requests behind it were never answered: they go once more";
  EXPECT_EQ(r.rest, get("/c"));
  EXPECT_EQ(r.p.results[1].status, 202) << r.p.results[1].error.message();
  EXPECT_EQ(r.p.results[2].status, 202) << r.p.results[2].error.message();
}

TEST(Pool, ARequestGoesOnceMoreAtMost) {
  explained_in("ch10-pool");
  std::string on_third;
  scripted_backend backend([&](scripted_backend& b) {
    {
      tcp::socket s = b.accept();
      b.read_requests(s, 4);
      asio::write(s, asio::buffer(accepted));  // answers /a only, and closes
    }
    {
      tcp::socket s = b.accept();
      b.read_requests(s, 1);  // /b once more, alone
      asio::write(s, asio::buffer(accepted));
      b.read_requests(s, 2);  // /c and /d once more, and closes without an answer
    }
    // Only the test's own connection should come now; whatever comes first
    // is answered, so that a pool that sends /c or /d a third time gets its
    // 202 at once instead of waiting for its deadline.
    tcp::socket s = b.accept();
    on_third = b.read_requests(s, 1);
    asio::write(s, asio::buffer(accepted));
  });
  const pooled p = exchange_together(backend.endpoint(), {"/a", "/b", "/c", "/d"});
  asio::io_context io;
  tcp::socket own(io);
  own.connect(backend.endpoint());
  asio::write(own, asio::buffer(get("/done")));
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(p.results[0].status, 202);
  EXPECT_EQ(p.results[1].status, 202);
  for (const std::size_t again : {2U, 3U}) {
    EXPECT_TRUE(p.results[again].error)
        << "request " << again + 1 << " went once more, and its second connection broke before "
        << "an answer too: that is an error, not a third try, whether it was the oldest or not "
        << "(got status " << p.results[again].status << ")";
  }
  EXPECT_EQ(on_third, get("/done")) << "a request went a third time";
}

TEST(Pool, ARequestWhoseTimeRanOutWithTheBackendIsNotSentAgain) {
  explained_in("ch10-pool");
  std::string next;
  scripted_backend backend([&](scripted_backend& b) {
    tcp::socket s = b.accept();
    b.read_requests(s, 1);  // /a
    asio::write(s, asio::buffer(accepted));
    b.read_requests(s, 1);  // /slow: the backend keeps it, says nothing, and keeps the connection
    tcp::socket again = b.accept();
    next = b.read_requests(again, 1);
    asio::write(again, asio::buffer(accepted));
  });
  rdv::hub::exchange_result a, slow, after;
  const std::string crash = ch10::run([&] {
    connection_pool pool;
    const auto now = connection_pool::clock::now;
    a = pool.exchange(backend.endpoint(), get("/a"), "GET", now() + 10s);
    slow = pool.exchange(backend.endpoint(), get("/slow"), "GET", now() + 1s);
    after = pool.exchange(backend.endpoint(), get("/after"), "GET", now() + 10s);
  });
  backend.join();
  ASSERT_EQ(crash, "");
  ASSERT_EQ(backend.failure(), "");
  EXPECT_EQ(a.status, 202) << a.error.message();
  EXPECT_EQ(slow.error, asio::error::timed_out) << "status " << slow.status;
  EXPECT_EQ(next, get("/after"))
      << "/slow's time ran out while the backend had it: it failed on its own account, and must "
         "not go once more on a new connection (the backend is slow, not gone)";
  EXPECT_EQ(after.status, 202) << after.error.message();
}

TEST(Pool, WhenTheOldestRequestsTimeRunsOutOnlyItFails) {
  explained_in("ch10-pool");
  // /slow and /long go out together on one line, and the backend answers
  // neither. /slow's time runs out: it fails on its own account, the line
  // can carry nothing more, and /long, whose time has not run out, goes
  // once more on a new connection.
  std::string resent;
  scripted_backend backend([&](scripted_backend& b) {
    tcp::socket s = b.accept();
    b.read_requests(s, 2);  // both, and no answer
    tcp::socket again = b.accept();
    resent = b.read_requests(again, 1);
    asio::write(again, asio::buffer(accepted));
  });
  const pooled p = exchange_together(backend.endpoint(), {"/slow", "/long"}, 1024, 32, {500ms});
  const rdv::hub::exchange_result &slow = p.results[0], &patient = p.results[1];
  backend.join();
  EXPECT_EQ(slow.error, asio::error::timed_out) << "status " << slow.status;
  EXPECT_EQ(backend.failure(), "") << "/long should have come again on a new connection";
  EXPECT_EQ(resent, get("/long"));
  EXPECT_EQ(patient.status, 202) << "the oldest request's time ran out, not /long's: "
                                 << patient.error.message();
}

TEST(Pool, TheFirstRequestOnANewConnectionIsNotSentTwice) {
  explained_in("ch10-pool");
  std::string on_second;
  scripted_backend backend([&](scripted_backend& b) {
    {
      tcp::socket s = b.accept();
      b.read_requests(s, 1);  // and closes without an answer
    }
    tcp::socket s = b.accept();
    on_second = b.read_requests(s, 1);
    asio::write(s, asio::buffer(accepted));
  });
  const pooled first = exchange_together(backend.endpoint(), {"/refused"});
  const pooled second = exchange_together(backend.endpoint(), {"/next"});
  backend.join();
  ASSERT_EQ(backend.failure(), "");
  EXPECT_TRUE(first.results[0].error)
      << "a server that closes a new connection on the first request has answered it: an error";
  EXPECT_EQ(on_second, get("/next")) << "the failed request must not be sent again";
  EXPECT_EQ(second.results[0].status, 202);
}

}  // namespace
