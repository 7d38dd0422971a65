// Chapter 10: the demo worker, alone (the test plays the hub) and with the hub.
#include "hub_fixture.hpp"
#include "ids.hpp"

#include "request_id.hpp"

#include "rdv/test/book.hpp"

#include <set>

namespace {

using rdv::test::explained_in;

const std::string id = "0123456789abcdef0123456789abcdef";

// A string member of a JSON object, or "" if it is missing or not a string.
std::string text(const boost::json::value& json, std::string_view name) {
  const auto* member = json.as_object().if_contains(name);
  return member && member->is_string() ? std::string(member->as_string()) : std::string();
}

// A forwarded request as the hub would send it, replies going to `port`.
std::string forward(std::uint16_t port, std::string_view target, std::string_view body = {}) {
  return "POST " + std::string(target) + " HTTP/1.1\r\nHost: hub\r\nX-Hub-Request-Id: " + id +
         "\r\nX-Hub-Reply-To: http://127.0.0.1:" + std::to_string(port) + "/reply/" + id +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

TEST(Worker, Answers202AndAfterItsDelayPostsADescriptionOfTheRequest) {
  explained_in("ch10-worker");
  ch10::test_backend replies(204);  // plays the hub's reply port
  rdv::test::program worker(rdv::test::built_program("worker"),
                            {"--listen", "127.0.0.1:0", "--delay-ms", "200"});
  const ch10::watching crashes(worker);
  rdv::test::client c(worker.port("backend"));
  const auto sent = std::chrono::steady_clock::now();
  c.send(forward(replies.port(), "/jobs/7?x=y", "abc"));
  EXPECT_EQ(c.read_response().status, 202) << c.transcript();
  const ch10::forwarded reply = replies.next();
  EXPECT_GE(std::chrono::steady_clock::now() - sent, std::chrono::milliseconds(200))
      << "the reply came before --delay-ms had passed";
  const std::string seen = reply.head() + reply.body;
  EXPECT_EQ(reply.method, "POST") << seen;
  EXPECT_EQ(reply.target, "/reply/" + id) << seen;
  EXPECT_EQ(reply.field("Content-Type"), "message/http") << seen;
  EXPECT_EQ(reply.field("Host"), "127.0.0.1:" + std::to_string(replies.port())) << seen;
  ASSERT_TRUE(reply.body.starts_with("HTTP/1.1 200 OK\r\n")) << "a whole HTTP response\n" << seen;
  const auto json = boost::json::parse(reply.body.substr(reply.body.find("\r\n\r\n") + 4));
  EXPECT_EQ(text(json, "method"), "POST") << seen;
  EXPECT_EQ(text(json, "target"), "/jobs/7?x=y") << seen;
  EXPECT_EQ(text(json, "request_id"), id) << seen;
  EXPECT_EQ(json.at("body_bytes").to_number<int>(), 3) << seen;
}

TEST(Worker, PostsItsRepliesOnKeptAliveConnections) {
  explained_in("ch10-worker");
  ch10::test_backend replies(204);
  rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
  const ch10::watching crashes(worker);
  rdv::test::client c(worker.port("backend"));
  std::set<std::uint16_t> connections;
  for (int i = 0; i < 10; ++i) {  // one after the other
    c.send(forward(replies.port(), "/" + std::to_string(i)));
    EXPECT_EQ(c.read_response().status, 202) << c.transcript();
    connections.insert(replies.next().from_port);
  }
  // A reply's process may still be putting its connection back when the
  // next reply starts (its last read completed at once, and its completion
  // waits in the io_context's queue): then the next opens a second one. Never
  // a third: the queue runs that completion long before a third reply.
  EXPECT_LE(connections.size(), 2u) << "ten replies in turn should share kept-alive connections";
  EXPECT_EQ(worker.output().find("worker: reply to"), std::string::npos)
      << "a reply the hub took (204) is no news; the log is for the ones that failed:\n"
      << worker.output();
}

TEST(Worker, LogsAReplyTheHubDidNotTake) {
  explained_in("ch10-worker");
  // A hub that no longer waits for this id (404), that wants a token the
  // worker lacks (401), that finds the reply too large (413): anything but 204.
  for (const int status : {404, 401, 413}) {
    ch10::test_backend replies(status);
    rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
    const ch10::watching crashes(worker);
    rdv::test::client c(worker.port("backend"));
    c.send(forward(replies.port(), "/late"));
    EXPECT_EQ(c.read_response().status, 202) << c.transcript();
    (void)replies.next();
    EXPECT_TRUE(
        worker.wait_for_output("worker: reply to /reply/" + id + ": " + std::to_string(status)))
        << "a reply answered " << status << " should be logged, with its status:\n"
        << worker.output();
  }
}

TEST(Worker, LogsAReplyThatFoundNoHub) {
  explained_in("ch10-worker");
  // A hub that has gone: its reply port refuses connections.
  const std::uint16_t closed = ch10::refused_port();
  rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
  const ch10::watching crashes(worker);
  rdv::test::client c(worker.port("backend"));
  c.send(forward(closed, "/lost"));
  EXPECT_EQ(c.read_response().status, 202) << c.transcript();
  EXPECT_TRUE(worker.wait_for_output("worker: reply to /reply/" + id + ": "))
      << "a reply that reached no hub is lost: the log should say so, with the error:\n"
      << worker.output();
}

TEST(Worker, RefusesARequestWithoutAReplyAddress) {
  explained_in("ch10-worker");
  rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
  rdv::test::client c(worker.port("backend"));
  c.send("GET /direct HTTP/1.1\r\nHost: worker\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 400) << c.transcript();
  c.send("GET /direct HTTP/1.1\r\nHost: worker\r\nX-Hub-Reply-To: ftp://x/y\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 400) << c.transcript();
}

TEST(HubAndWorker, AClientGetsTheWorkersAnswer) {
  explained_in("ch10-main");
  rdv::test::program worker(rdv::test::built_program("worker"),
                            {"--listen", "127.0.0.1:0", "--delay-ms", "50"});
  ch10::hub hub({"--backend", "127.0.0.1:" + std::to_string(worker.port("backend"))});
  rdv::test::client c(hub.front());
  for (const char* target : {"/hello", "/again?n=2"}) {
    c.send(ch10::get(target));
    const auto r = c.read_response();
    ASSERT_EQ(r.status, 200) << c.transcript() << hub.output() << worker.output();
    EXPECT_EQ(r.field("Content-Type"), "application/json") << c.transcript();
    const auto json = boost::json::parse(r.body);
    EXPECT_EQ(text(json, "method"), "GET") << r.body;
    EXPECT_EQ(text(json, "target"), target) << r.body;
    EXPECT_TRUE(ch10::is_lone_hub_id(text(json, "request_id"))) << r.body;
  }
  EXPECT_EQ(hub.stat("replied"), 2);
}

// A forward whose X-Hub-Reply-To is `reply_to`, for the id `id`.
std::string forward_with(std::string_view reply_to) {
  return "POST /x HTTP/1.1\r\nHost: hub\r\nX-Hub-Request-Id: " + id +
         "\r\nX-Hub-Reply-To: " + std::string(reply_to) + "\r\nContent-Length: 0\r\n\r\n";
}

TEST(Worker, PostsRepliesOnlyToTheForwardsOwnReplyAddress) {
  explained_in("ch10-worker");
  ch10::test_backend replies(204);  // plays the hub's reply port, and counts what it gets
  rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
  const ch10::watching crashes(worker);
  rdv::test::client c(worker.port("backend"));
  const std::string port = std::to_string(replies.port());
  for (const std::string& bad :
       {"http://127.0.0.1:" + port + "/internal/admin?do=it",  // not a reply at all
        "http://127.0.0.1:" + port + "/reply/ffffffffffffffffffffffffffffffff",  // another id
        "http://127.0.0.2:" + port + "/reply/" + id}) {  // a host the forward did not come from
    c.send(forward_with(bad));
    EXPECT_EQ(c.read_response().status, 400) << bad << "\n" << c.transcript();
  }
  c.send(forward(replies.port(), "/fine"));
  EXPECT_EQ(c.read_response().status, 202) << c.transcript();
  EXPECT_EQ(replies.next().target, "/reply/" + id);
  EXPECT_EQ(replies.received(), 1u) << "the refused forwards must have posted nothing";
}

TEST(Worker, RepliesToAHostGivenWithReplyHost) {
  explained_in("ch10-worker");
  rdv::test::program worker(rdv::test::built_program("worker"),
                            {"--listen", "127.0.0.1:0", "--reply-host", "127.0.0.2"});
  rdv::test::client c(worker.port("backend"));
  c.send(forward_with("http://127.0.0.2:9/reply/" + id));
  EXPECT_EQ(c.read_response().status, 202) << "--reply-host 127.0.0.2 allows it\n"
                                           << c.transcript();
}

}  // namespace
