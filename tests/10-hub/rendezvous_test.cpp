// Chapter 10: the rendezvous — a client held until a worker posts its answer
// to the reply port (the hub protocol, appendix A1).
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/unsolved.hpp"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <unordered_map>

namespace {

using rdv::test::explained_in;

const std::string ok = "HTTP/1.1 200 OK";

TEST(Rendezvous, TheWorkersReplyIsTheClientsAnswer) {
  explained_in("ch10-rendezvous");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/hello"));
  const ch10::forwarded f = backend.next();
  const auto posted =
      ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, "hello, client"));
  EXPECT_EQ(posted.status, 204) << "the reply went to the waiting client\n" << hub.output();
  EXPECT_FALSE(posted.has_field("Content-Length")) << "a 204 has no body, and says no length";
  const auto answer = c.read_response();
  EXPECT_EQ(answer.status, 200) << c.transcript();
  EXPECT_EQ(answer.body, "hello, client") << c.transcript();
  const auto stats = hub.stats();
  EXPECT_EQ(stats.at("forwarded").as_int64(), 1) << boost::json::serialize(stats);
  EXPECT_EQ(stats.at("replied").as_int64(), 1) << boost::json::serialize(stats);
  EXPECT_EQ(stats.at("pending").as_int64(), 0) << boost::json::serialize(stats);
}

TEST(Rendezvous, AClientHeldLongGivesBackItsStackPagesAndStillGetsItsReply) {
  explained_in("ch10-memory");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000", "--trim-after-ms", "50"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/patient"));
  const ch10::forwarded f = backend.next();
  EXPECT_TRUE(hub.wait_for_stat("trimmed", 1))
      << "a client held past --trim-after-ms should have given back its stack's unused pages\n"
      << boost::json::serialize(hub.stats());
  const auto posted =
      ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, "worth the wait"));
  EXPECT_EQ(posted.status, 204) << hub.output();
  const auto answer = c.read_response();
  EXPECT_EQ(answer.status, 200) << c.transcript();
  EXPECT_EQ(answer.body, "worth the wait") << c.transcript();
  c.send(ch10::get("/again"));  // the process goes on, deeper than its trimmed stack
  ASSERT_EQ(
      ch10::post_reply(hub.replies(), backend.next().id(), ch10::http_message(ok, "again")).status,
      204);
  EXPECT_EQ(c.read_response().body, "again") << c.transcript();
}

TEST(Rendezvous, AKeptAliveClientIsHeldForEachOfItsRequests) {
  explained_in("ch10-rendezvous");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  for (int i = 0; i < 3; ++i) {
    c.send(ch10::get("/turn/" + std::to_string(i)));
    const ch10::forwarded f = backend.next();
    EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, f.target)).status,
              204);
    EXPECT_EQ(c.read_response().body, "/turn/" + std::to_string(i)) << c.transcript();
  }
}

TEST(Rendezvous, PipelinedRequestsAreHeldOneAfterTheOther) {
  explained_in("ch10-rendezvous");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/first") + ch10::get("/second"));
  for (const char* target : {"/first", "/second"}) {  // answered in order, as HTTP/1.1 wants
    const ch10::forwarded f = backend.next();
    EXPECT_EQ(f.target, target);
    EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, f.target)).status,
              204);
    EXPECT_EQ(c.read_response().body, target) << c.transcript();
  }
}

TEST(Rendezvous, AReplyThatComesBeforeTheBackendsAnswerIsDelivered) {
  explained_in("ch10-rendezvous");
  // The backend hands the request to a worker that replies at once: the
  // reply is on its way before the backend says 202. The hub registered the
  // id before it forwarded, so the reply waits in the held process's mailbox.
  std::unique_ptr<rdv::test::client> worker;
  std::uint16_t reply_port = 0;
  ch10::test_backend backend(202, [&](const ch10::forwarded& f) {
    worker = std::make_unique<rdv::test::client>(reply_port);
    worker->send(ch10::reply_request(f.id(), ch10::http_message(ok, "early")));
  });
  ch10::hub hub({"--backend", backend.address()});
  reply_port = hub.replies();
  rdv::test::client c(hub.front());
  c.send(ch10::get("/early"));
  backend.next();
  EXPECT_EQ(c.read_response().body, "early") << c.transcript();
  EXPECT_EQ(worker->read_response().status, 204) << worker->transcript();
}

TEST(Rendezvous, FiveHundredClientsEachGetTheirOwnReplyInRandomOrder) {
  explained_in("ch10-rendezvous");
  constexpr int clients = 500;
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  for (int i = 0; i < clients; ++i) {
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(ch10::get("/client/" + std::to_string(i)));
  }
  std::vector<ch10::forwarded> forwards = backend.next(clients);
  std::shuffle(forwards.begin(), forwards.end(), std::mt19937(std::random_device{}()));
  rdv::test::client worker(hub.replies());  // one kept-alive connection for all replies
  for (const ch10::forwarded& f : forwards) {
    worker.send(ch10::reply_request(f.id(), ch10::http_message(ok, "answer for " + f.target)));
    ASSERT_EQ(worker.read_response().status, 204) << worker.transcript();
  }
  for (int i = 0; i < clients; ++i) {
    const auto answer = held[i]->read_response();
    ASSERT_EQ(answer.body, "answer for /client/" + std::to_string(i))
        << "each client must get the reply to its own request\n"
        << held[i]->transcript();
  }
  EXPECT_EQ(hub.stat("replied"), clients);
}

TEST(Rendezvous, OnlyTheFirstReplyForAnIdIsDelivered) {
  explained_in("ch10-replies");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/once"));
  const ch10::forwarded f = backend.next();
  EXPECT_EQ(ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, "first")).status, 204);
  const auto again = ch10::post_reply(hub.replies(), f.id(), ch10::http_message(ok, "second"));
  EXPECT_EQ(again.status, 404) << "the id was answered: nobody waits under it any more";
  EXPECT_EQ(c.read_response().body, "first") << c.transcript();
  EXPECT_EQ(hub.stat("late_replies"), 1);
}

TEST(Rendezvous, RepliesForUnknownOrMalformedIdsAreRefused) {
  explained_in("ch10-replies");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  const std::string body = ch10::http_message(ok, "x");
  EXPECT_EQ(ch10::post_reply(hub.replies(), "0123456789abcdef0123456789abcdef", body).status, 404)
      << "a well-formed id that nobody holds";
  for (const char* bad :
       {"0123456789ABCDEF0123456789ABCDEF", "42", "0123456789abcdef0123456789abcdef0",
        "0123456789abcdef0123456789abcdeg"}) {
    EXPECT_EQ(ch10::post_reply(hub.replies(), bad, body).status, 400) << "malformed id " << bad;
  }
  rdv::test::client c(hub.replies());
  c.send("GET /reply/0123456789abcdef0123456789abcdef HTTP/1.1\r\nHost: hub\r\n\r\n");
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 405) << c.transcript();
  EXPECT_EQ(r.field("Allow"), "POST") << c.transcript();
}

TEST(Rendezvous, RepliesForDifferentIdsDoNotWaitForEachOther) {
  explained_in("ch10-rendezvous");
  // The backend holds its 202 back until the test lets it go: the forward is
  // still pending when the worker posts the reply, and a reply for another
  // id pipelined behind it. The held client takes its reply at once, so the
  // worker hears 204, then 404 for the other, without waiting for the 202.
  std::mutex mutex;
  std::condition_variable changed;
  std::string id;  // the forward's, as the backend holds it
  bool go = false;
  ch10::test_backend backend(202, [&](const ch10::forwarded& f) {
    std::unique_lock lock(mutex);
    id = f.id();
    changed.notify_all();
    changed.wait_for(lock, std::chrono::seconds(20), [&] { return go; });
  });
  const auto release = [&] {
    {
      const std::lock_guard lock(mutex);
      go = true;
    }
    changed.notify_all();
  };
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "30000"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/a"));
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(rdv::test::wait_until_done(changed, lock, std::chrono::seconds(10), [&] {
      return !id.empty();
    })) << "the forward did not reach the backend";
  }
  rdv::test::client worker(hub.replies(), std::chrono::seconds(5));
  worker.send(ch10::reply_request(id, ch10::http_message(ok, "the answer")) +
              ch10::reply_request(std::string(32, 'f'), ch10::http_message(ok, "nobody's")));
  int verdicts[2] = {};
  try {
    for (int& v : verdicts) v = worker.read_response().status;
  } catch (...) {
    release();
    throw;
  }
  release();
  EXPECT_EQ(verdicts[0], 204) << "the held client takes its reply before the backend's 202\n"
                              << worker.transcript();
  EXPECT_EQ(verdicts[1], 404) << worker.transcript();
  EXPECT_EQ(c.read_response().body, "the answer") << c.transcript();
}

}  // namespace
