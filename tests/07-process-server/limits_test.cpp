// Chapter 7: what a server meets in the wild — bad requests, slow clients,
// idle ones, handlers that crash, too many clients at once.
#include "server_fixture.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/idle_clients.hpp"
#include "rdv/test/slow_reader.hpp"

#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using ch07::expect_seven_bytes;
using rdv::test::explained_in;
using namespace std::chrono_literals;

constexpr std::string_view get = "GET /test HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

// Sends `request`, expects `status` and then the connection closed.
void expect_refused(ch07::server& s, std::string_view request, int status) {
  rdv::test::client c(s.thread);
  c.send(request);
  const auto r = c.read_response();
  EXPECT_EQ(r.status, status) << c.transcript();
  EXPECT_EQ(ch07::lowercase(r.field("Connection")), "close") << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << "the connection should close after " << status << "\n"
                               << c.transcript();
}

// Whether a new client is served (200) within 100 tries. A place freed
// under the cap is heard of by the acceptor only when its down arrives,
// which may be after it has accepted (and refused) the next client.
bool a_new_client_is_served(ch07::server& s) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    rdv::test::client next(s.thread);
    next.send(get);
    if (next.read_response().status == 200) return true;
  }
  return false;
}

TEST(BadInput, GetsTheParsersStatusAndTheConnectionCloses) {
  explained_in("ch07-connection");
  rdv::web::server_options options;
  options.limits.max_body = 16;
  ch07::server s(ch07::seven_bytes, options);
  expect_refused(s, "GARBAGE\r\n\r\n", 400);
  expect_refused(s, "GET / HTTP/1.1\r\n\r\n", 400);  // no Host
  expect_refused(s, "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505);
  expect_refused(s, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: x-zip, chunked\r\n\r\n", 501);
  expect_refused(s, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n", 413);
  expect_refused(s, "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", 414);
  expect_refused(s, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n",
                 431);
  rdv::test::client next(s.thread);  // and the server goes on
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

TEST(BadInput, ARefusedUploadThatGoesOnAfterItsAnswerIsReadNotReset) {
  explained_in("ch07-connection");
  rdv::web::server_options options;
  options.limits.max_body = 16;
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client c(s.thread);
  c.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 413) << c.transcript();
  // Its body comes only now: nothing was unread when the server answered.
  try {
    c.send(std::string(1'000'000, 'x'));
  } catch (const rdv::test::network_error& e) {
    ADD_FAILURE() << "the client's upload, sent on after its 413 came, met a reset (" << e.what()
                  << "): a refused request always takes the long way out, reading what still "
                     "comes for its second, even when nothing waited unread at the answer";
  }
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
}

TEST(BadInput, ARefusedClientThatGoesOnSendingIsClosedSoon) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  c.send("GARBAGE\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 400) << c.transcript();
  // The server reads what still comes for a second in all, to let its answer
  // arrive, and then closes; a byte every 200 ms must not keep it reading.
  const auto refused = std::chrono::steady_clock::now();
  bool closed = false;
  for (int i = 0; i < 40 && !closed; ++i) {  // 8 s at most
    try {
      c.send("x");
      std::this_thread::sleep_for(200ms);  // the pace of the trickle
    } catch (const rdv::test::network_error&) {
      closed = true;
    }
  }
  EXPECT_TRUE(closed) << "the connection was still open after 8 s of a trickle";
  EXPECT_LT(std::chrono::steady_clock::now() - refused, 4s)
      << "a refused client's trickle kept the server reading: the second it gets is in all";
}

TEST(Timeouts, AnswersASlowRequestWith408) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.request_timeout = 200ms;               // the timeout under test; the client waits 10 s
  options.idle_timeout = std::chrono::hours(1);  // not a read's limit once a request has begun
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client c(s.thread);
  c.send("GET /test HTTP/1.1\r\nHost: x\r\n");  // ... and never the blank line: slow-loris
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 408) << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
}

// A client that trickles a request in, each piece well within the idle
// timeout, is answered 408 once the request's own time has run out: the
// slow-loris attack proper. The head trickled in, and a body after a head
// that came whole (whose bytes the parser takes as they come).
TEST(Timeouts, ARequestTricklingInIsCutOffAtItsDeadline) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.request_timeout = 300ms;               // the timeout under test
  options.idle_timeout = std::chrono::hours(1);  // each piece comes in time, by far
  ch07::server s(ch07::seven_bytes, options);
  const std::string head = "GET /test HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(100, 'x');
  const std::string body = std::string(100, 'y');
  for (const auto& [before, trickled] :
       {std::pair{std::string(), head},
        std::pair{std::string("POST /test HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n"),
                  body}}) {
    rdv::test::client c(s.thread, 100ms);  // a piece every 100 ms, at most
    c.send(before);
    EXPECT_TRUE(rdv::test::trickle_until_closed(c, trickled))
        << "a request trickling in a byte every 100 ms should be cut off once "
           "its 300 ms have passed\n"
        << c.transcript();
    EXPECT_TRUE(c.received().starts_with("HTTP/1.1 408 ")) << c.transcript();
  }
}

TEST(Timeouts, ARequestThatFallsSilentLateIsCutOffAtItsDeadlineNotAfter) {
  explained_in("ch07-timeouts");
  // The request's timeout under test; each piece comes within the idle one.
  ch07::server s(ch07::seven_bytes,
                 {.idle_timeout = std::chrono::hours(1), .request_timeout = 1000ms});
  rdv::test::client c(s.thread);
  const auto started = std::chrono::steady_clock::now();
  c.send("GET /test HTTP/1.1\r\nHo");
  std::this_thread::sleep_for(900ms);  // a late byte, still well inside the request's time
  c.send("s");
  const auto r = c.read_response();
  const auto cut_after = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.status, 408) << c.transcript();
  EXPECT_GE(cut_after, 1000ms) << "not before the request's time is up";
  EXPECT_LT(cut_after, 1600ms)
      << "the request has one deadline, from its first byte: the read after a late byte waits "
         "for what is left of it, not for a whole request_timeout more\n"
      << c.transcript();
}

// A request whose first bytes came behind an earlier request's, in the same
// read, has begun: its time runs from then, whether the parser stopped in
// its head (the bytes wait, unparsed) or after it (a body still to come).
TEST(Timeouts, ARequestThatCameBehindAnotherHasBegun) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.request_timeout = 300ms;               // the timeout under test
  options.idle_timeout = std::chrono::hours(1);  // what a request that has not begun may take
  ch07::server s(ch07::seven_bytes, options);
  for (const std::string_view behind :
       {"GET /test HTTP/1.1\r\nHo",
        "POST /test HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"}) {
    rdv::test::client c(s.thread);  // waits up to 10 s for each answer
    c.send(std::string(get) + std::string(behind));
    expect_seven_bytes(c, "keep-alive");
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 408) << "the second request began with the first one's read, and then "
                                "nothing more came: 408 once its 300 ms have passed, not a quiet "
                                "close after the idle timeout\n"
                             << c.transcript();
    EXPECT_TRUE(c.wait_closed()) << c.transcript();
  }
}

// The request's time starts at its first byte, not when the server began
// waiting for it: a client may think between requests for as long as the
// idle timeout allows, and then take the request's own time to send one.
TEST(Timeouts, ARequestsTimeStartsAtItsFirstByte) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.request_timeout = 1s;
  options.idle_timeout = std::chrono::hours(1);
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client c(s.thread);
  c.send(get);
  expect_seven_bytes(c, "keep-alive");
  std::this_thread::sleep_for(1500ms);  // the client thinks, longer than a request may take
  for (const std::string_view piece : {"GET /test ", "HTTP/1.1\r\n", "Host: x\r\n", "\r\n"}) {
    c.send(piece);
    std::this_thread::sleep_for(100ms);  // a request in pieces, well within its second
  }
  expect_seven_bytes(c, "keep-alive");
}

// Once a request has begun, only its own deadline limits its reads: a pause
// longer than the idle timeout inside a request is no idleness.
TEST(Timeouts, APauseInsideARequestIsNotIdleness) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.idle_timeout = 200ms;  // what a client may take between requests
  options.request_timeout = 5s;  // what a request may take, pauses included
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client c(s.thread);
  c.send("GET /test HTTP/1.1\r\n");
  std::this_thread::sleep_for(600ms);  // three idle timeouts, inside the request
  c.send("Host: x\r\n\r\n");
  expect_seven_bytes(c, "keep-alive");
}

TEST(Timeouts, ClosesAnIdleConnectionQuietly) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.idle_timeout = 200ms;
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client c(s.thread);
  c.send(get);
  expect_seven_bytes(c, "keep-alive");
  EXPECT_TRUE(c.wait_closed()) << "an idle kept-alive connection should be closed\n"
                               << c.transcript();
  rdv::test::client silent(s.thread);  // never sends a byte
  EXPECT_TRUE(silent.wait_closed()) << silent.transcript();
}

TEST(LetItCrash, ACrashingHandlerEndsOnlyItsConnection) {
  explained_in("ch07-crash");
  ch07::server s([](rdv::web::request& r) {
    if (r.head.target == "/crash") throw std::runtime_error("the handler fell over");
    return ch07::seven_bytes(r);
  });
  rdv::test::client bystander(s.thread);
  bystander.send(get);
  expect_seven_bytes(bystander, "keep-alive");
  rdv::test::client victim(s.thread);
  victim.send("GET /crash HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(victim.wait_closed()) << "the crashed connection's socket should close\n"
                                    << victim.transcript();
  EXPECT_EQ(victim.received(), "") << "the handler crashed, and its process with it: nothing "
                                      "catches the exception to answer in its place\n"
                                   << victim.transcript();
  rdv::test::client next(s.thread);
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
  bystander.send(get);  // the other connection never noticed
  expect_seven_bytes(bystander, "keep-alive");
  const std::string log = s.log.text();
  EXPECT_NE(log.find("crashed"), std::string::npos) << "log:\n" << log;
  EXPECT_NE(log.find("the handler fell over"), std::string::npos)
      << "the log should carry the exit reason; log:\n"
      << log;
}

TEST(ConnectionCap, AnswersConnectionsBeyondTheCapWith503) {
  explained_in("ch07-cap");
  rdv::web::server_options options;
  options.max_connections = 2;
  ch07::server s(ch07::seven_bytes, options);
  rdv::test::client one(s.thread), two(s.thread);
  one.send(get);
  expect_seven_bytes(one, "keep-alive");
  two.send(get);
  expect_seven_bytes(two, "keep-alive");
  rdv::test::client three(s.thread);
  three.send(get);
  const auto refused = three.read_response();
  EXPECT_EQ(refused.status, 503) << three.transcript();
  EXPECT_EQ(refused.field("Retry-After"), "1") << three.transcript();
  EXPECT_TRUE(three.wait_closed()) << three.transcript();
  one.send("GET /test HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  expect_seven_bytes(one, "close");
  EXPECT_TRUE(one.wait_closed());
  one.close();
  EXPECT_TRUE(a_new_client_is_served(s))
      << "a place freed by a closed connection should be given to a new one";
}

TEST(ConnectionCap, ACrashedConnectionGivesItsPlaceUp) {
  explained_in("ch07-cap");
  ch07::server s(
      [](rdv::web::request& r) {
        if (r.head.target == "/crash") throw std::runtime_error("the handler fell over");
        return ch07::seven_bytes(r);
      },
      {.max_connections = 1});
  {
    rdv::test::client victim(s.thread);  // takes the one place, and crashes
    victim.send("GET /crash HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_TRUE(victim.wait_closed()) << victim.transcript();
  }
  EXPECT_TRUE(a_new_client_is_served(s))
      << "a connection that crashed still holds its place: however a connection process ends, "
         "its down gives the place back";
}

TEST(ConnectionCap, RefusedClientsNeverFreeAPlace) {
  explained_in("ch07-cap");
  ch07::server s(ch07::seven_bytes, {.max_connections = 1});
  rdv::test::client holder(s.thread);
  holder.send(get);
  expect_seven_bytes(holder, "keep-alive");  // the one place is taken, for good
  // Each refused client is answered by a process of its own, which ends
  // once its client has gone: no place was ever theirs to free.
  for (int i = 0; i < 20; ++i) {
    rdv::test::client refused(s.thread);
    refused.send(get);
    EXPECT_EQ(refused.read_response().status, 503)
        << "client " << i + 2 << " came while the only place was held\n"
        << refused.transcript();
    ::shutdown(refused.native_handle(), SHUT_WR);  // it leaves; the server sees it, and closes
    EXPECT_TRUE(refused.wait_closed()) << refused.transcript();
  }
}

TEST(ConnectionCap, ACapOfNoneRefusesEveryone) {
  explained_in("ch07-cap");
  ch07::server s(ch07::seven_bytes, {.max_connections = 0});
  rdv::test::client c(s.thread);
  c.send(get);
  EXPECT_EQ(c.read_response().status, 503) << c.transcript();
}

TEST(ConnectionCap, RefusedClientsThatLingerHoldUpNoOther) {
  explained_in("ch07-cap");
  // After its 503, a refusal waits up to a second for its client to close
  // (drain_and_close()). Twenty clients that linger would keep an acceptor
  // that waited itself busy for twenty seconds; the next client waits ten.
  ch07::server s(ch07::seven_bytes, {.max_connections = 1});
  rdv::test::client holder(s.thread);
  holder.send(get);
  expect_seven_bytes(holder, "keep-alive");                   // the one place is taken
  std::vector<std::unique_ptr<rdv::test::client>> lingering;  // refused; never read nor close
  for (int i = 0; i < 20; ++i) lingering.push_back(std::make_unique<rdv::test::client>(s.thread));
  rdv::test::client next(s.thread);  // accepted after them
  const auto r = next.read_response();
  EXPECT_EQ(r.status, 503) << "refused clients that linger kept the acceptor from refusing the "
                              "next one: answer each 503 in a process of its own (refuse())\n"
                           << next.transcript();
}

TEST(ConnectionCap, AClientThatLeavesBetweenRequestsGivesItsPlaceUpAtOnce) {
  explained_in("ch07-timeouts");
  rdv::web::server_options options;
  options.max_connections = 1;
  options.idle_timeout = std::chrono::hours(1);  // only its leaving can free the place
  options.request_timeout = std::chrono::hours(1);
  for (const bool reset : {false, true}) {
    ch07::server s(ch07::seven_bytes, options);
    {
      rdv::test::client first(s.thread);
      first.send(get);
      expect_seven_bytes(first, "keep-alive");
      if (reset) {  // the server's read fails with ECONNRESET, not at the end of a stream
        const linger at_once{.l_onoff = 1, .l_linger = 0};
        ::setsockopt(first.native_handle(), SOL_SOCKET, SO_LINGER, &at_once, sizeof at_once);
      }
    }  // and leaves
    EXPECT_EQ(rdv::test::status_once_served(s.thread.port(), get), 200)
        << "the only connection's client left" << (reset ? ", with a reset" : "")
        << ": its place should be free for the next one, not held until a timeout of an hour";
  }
}

TEST(SlowReaders, AreDroppedWhenTheyTakeNothingForTheSendTimeout) {
  explained_in("ch07-slow-readers");
  ch07::server s(ch07::seven_bytes, {.send_timeout = 300ms});
  const rdv::test::slow_reader reader(s.thread.port(), get);
  EXPECT_TRUE(reader.dropped_within(10s))
      << "a client that sent " << reader.sent() << " bytes of requests and read none of the "
      << "answers should be dropped 300 ms after the server's writes stall";
  rdv::test::client next(s.thread);  // and the server goes on
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

// A handler that answers every request with `body`, which outlives the server.
rdv::web::handler answering(const std::string& body) {
  return [&body](rdv::web::request&) {
    rdv::web::response r;
    r.body = body;
    return r;
  };
}

TEST(SlowReaders, AreDroppedEvenWhenTheySentNothingMore) {
  explained_in("ch07-slow-readers");
  // One request, and an answer of 16 MiB that the client does not read: no
  // request waits unread in the server's socket, so only a reset (drop())
  // ends the connection; a plain close would queue its FIN behind the
  // unsent answer, and the kernel would go on trying to deliver both.
  // So with a request that closes the connection after its answer.
  const std::string big(16 << 20, 'x');
  ch07::server s(answering(big), {.send_timeout = 300ms});
  for (const std::string_view request :
       {get,
        std::string_view("GET /test HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")}) {
    const rdv::test::slow_reader reader(s.thread.port(), request, request.size());
    EXPECT_EQ(reader.sent(), request.size());
    EXPECT_TRUE(reader.dropped_within(10s))
        << "a client that read none of a 16 MiB answer should be reset 300 ms after the server's "
           "writes stall, though it sent nothing after its request, whatever the request said "
           "of the connection:\n"
        << request;
  }
}

TEST(SlowReaders, AClientThatReadsSlowlyButReadsGetsItAll) {
  explained_in("ch07-slow-readers");
  // 32 MiB, read 256 KiB at a time with a pause of 25 ms: more than three
  // seconds in all, far over the send timeout, but never a stall of one
  // second, even on a loaded machine.
  const std::string big(32 << 20, 'x');
  ch07::server s(answering(big), {.send_timeout = 1s});
  rdv::test::client c(s.thread);
  c.send(get);
  std::size_t got = 0;
  try {
    for (; got < big.size(); got += 256 << 10) {
      c.read_exactly(256 << 10);
      std::this_thread::sleep_for(25ms);  // the pace of a slow client, not a synchronisation
    }
  } catch (const rdv::test::network_error& e) {
    ADD_FAILURE() << "the server gave up on a client that was reading, after " << got
                  << " bytes: the send timeout is for a stall, each wait's own: " << e.what();
  }
}

TEST(SlowReaders, CannotHoldEveryConnectionForEver) {
  explained_in("ch07-slow-readers");
  ch07::server s(ch07::seven_bytes, {.send_timeout = 300ms, .max_connections = 2});
  const rdv::test::slow_reader first(s.thread.port(), get), second(s.thread.port(), get);
  EXPECT_EQ(rdv::test::status_once_served(s.thread.port(), get), 200)
      << "two clients that never read should not keep the server's two connections once "
         "their writes have stalled for the send timeout";
}

TEST(Scale, ServesAThousandConcurrentKeepAliveClients) {
  explained_in("ch07-acceptor");
  // Not the idle timeout under test: under a sanitizer on a busy machine, reading
  // a thousand answers can take longer than its 5 s between a client's rounds.
  ch07::server s(ch07::seven_bytes, {.idle_timeout = 10min, .request_timeout = 10min});
  std::vector<std::unique_ptr<rdv::test::client>> clients;
  for (int i = 0; i < 1000; ++i) clients.push_back(std::make_unique<rdv::test::client>(s.thread));
  for (int round = 0; round < 2 && !::testing::Test::HasFailure(); ++round) {
    for (auto& c : clients) c->send(get);  // all 1000 requests are in flight at once
    for (auto& c : clients) expect_seven_bytes(*c, "keep-alive");
  }
}

}  // namespace
