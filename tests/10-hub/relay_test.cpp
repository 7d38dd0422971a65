// Chapter 10: what a client gets from a worker's reply (the hub protocol's replies, appendix A1).
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"

namespace {

using rdv::test::explained_in;

// A hub, its backend, and one client held: the setting of every test here.
struct held_client {
  ch10::test_backend backend;
  ch10::hub hub{{"--backend", backend.address()}};
  rdv::test::client client{hub.front()};
  std::string id;

  explicit held_client(std::string_view request = ch10::get("/relay")) {
    client.send(request);
    id = backend.next().id();
  }
  rdv::test::response post(std::string_view body, std::string_view content_type = "message/http",
                           std::string_view extra = {}) {
    return ch10::post_reply(hub.replies(), id, body, content_type, extra);
  }
  // Posts a reply the hub should take (204 to the worker); what the client then gets.
  rdv::test::response relayed(std::string_view body, std::string_view content_type = "message/http",
                              std::string_view extra = {}) {
    EXPECT_EQ(post(body, content_type, extra).status, 204) << hub.output();
    return client.read_response();
  }
};

TEST(Relay, AMessageHttpReplyGivesTheClientItsStatusFieldsAndBody) {
  explained_in("ch10-relay");
  held_client held;
  const std::string reply = "HTTP/1.1 201 Created Here\r\nContent-Type: application/json\r\n"
                            "X-Request-Trace: 42\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
                            "Connection: close, X-Worker-Only\r\nX-Worker-Only: internal\r\n"
                            "Keep-Alive: timeout=1\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n";
  EXPECT_EQ(held.post(reply).status, 204) << held.hub.output();
  rdv::test::client& c = held.client;
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 201) << c.transcript();
  EXPECT_EQ(r.reason, "Created Here") << "the worker's reason phrase is relayed\n"
                                      << c.transcript();
  EXPECT_EQ(r.field("Content-Type"), "application/json") << c.transcript();
  EXPECT_EQ(r.field("X-Request-Trace"), "42") << c.transcript();
  int cookies = 0;
  for (const auto& [name, value] : r.fields) cookies += name == "Set-Cookie";
  EXPECT_EQ(cookies, 2) << "every line of a repeated field is relayed\n" << c.transcript();
  for (const char* hop : {"X-Worker-Only", "Keep-Alive", "Transfer-Encoding"}) {
    EXPECT_FALSE(r.has_field(hop)) << hop << " belongs to the worker's message, not the client's\n"
                                   << c.transcript();
  }
  EXPECT_EQ(r.field("Content-Length"), "12") << "the body is re-framed\n" << c.transcript();
  EXPECT_EQ(r.body, "hello, world") << c.transcript();
  EXPECT_EQ(r.field("Connection"), "keep-alive")
      << "the worker's `Connection: close` was about its own message; the client's connection "
         "goes on\n"
      << c.transcript();
}

TEST(Relay, APlainReplyIsTheBodyWithItsContentTypeAndXHubStatus) {
  explained_in("ch10-relay");
  held_client held;
  EXPECT_EQ(held.post("a,b\n1,2\n", "text/csv").status, 204);
  auto r = held.client.read_response();
  EXPECT_EQ(r.status, 200) << held.client.transcript();
  EXPECT_EQ(r.field("Content-Type"), "text/csv") << held.client.transcript();
  EXPECT_EQ(r.body, "a,b\n1,2\n") << held.client.transcript();

  held.client.send(ch10::get("/missing"));
  held.id = held.backend.next().id();
  EXPECT_EQ(held.post("no such thing", "text/plain", "X-Hub-Status: 404\r\n").status, 204);
  r = held.client.read_response();
  EXPECT_EQ(r.status, 404) << held.client.transcript();
  EXPECT_EQ(r.body, "no such thing") << held.client.transcript();

  // The first and the last final status; and no Content-Type, none made up.
  for (const int status : {200, 599}) {
    held.client.send(ch10::get("/edge"));
    held.id = held.backend.next().id();
    EXPECT_EQ(held.post("edge", "", "X-Hub-Status: " + std::to_string(status) + "\r\n").status, 204)
        << "X-Hub-Status " << status;
    r = held.client.read_response();
    EXPECT_EQ(r.status, status) << held.client.transcript();
    EXPECT_FALSE(r.has_field("Content-Type")) << held.client.transcript();
  }
}

TEST(Relay, AMessageHttpReplyKeepsItsOwnStatus) {
  explained_in("ch10-relay");
  // X-Hub-Status is for a plain reply: a message/http reply names its own
  // status, against a status the field spells wrongly or rightly.
  for (const char* status : {"999", "404"}) {
    held_client held;
    const auto r = held.relayed(ch10::http_message("HTTP/1.1 200 OK", "mine"), "message/http",
                                "X-Hub-Status: " + std::string(status) + "\r\n");
    EXPECT_EQ(r.status, 200) << "X-Hub-Status: " << status << '\n' << held.client.transcript();
    EXPECT_EQ(r.reason, "OK") << held.client.transcript();
    EXPECT_EQ(r.body, "mine") << held.client.transcript();
  }
}

TEST(Relay, APlainReplyCarriesNoFieldOfTheWorkersPost) {
  explained_in("ch10-relay");
  held_client held;
  const auto r =
      held.relayed("body", "text/plain",
                   "Authorization: Bearer worker-secret\r\nCookie: w=1\r\nX-Worker: 1\r\n");
  EXPECT_EQ(r.status, 200) << held.client.transcript();
  for (const char* field : {"Authorization", "Cookie", "X-Worker"}) {
    EXPECT_FALSE(r.has_field(field))
        << field << " was a field of the worker's POST, not of the client's answer\n"
        << held.client.transcript();
  }
}

TEST(Relay, MessageHttpIsKnownInAnyCaseAndWithParameters) {
  explained_in("ch10-relay");
  held_client held;
  const auto r = held.relayed("HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok",
                              "Message/HTTP; msgtype=response");
  EXPECT_EQ(r.status, 202) << "a media type's name has no case, and its parameters are not part "
                              "of it: this body is a response to relay\n"
                           << held.client.transcript();
  EXPECT_EQ(r.body, "ok") << held.client.transcript();
  // A type that only begins like it is another type: its body is the answer.
  held_client near_miss;
  const auto plain = near_miss.relayed("plain words", "message/httpx");
  EXPECT_EQ(plain.status, 200) << near_miss.client.transcript();
  EXPECT_EQ(plain.body, "plain words") << near_miss.client.transcript();
}

TEST(Relay, AnInvalidReplyGets400AndTheClientWaitsOn) {
  explained_in("ch10-relay");
  held_client held;
  const std::pair<const char*, std::string> bad[] = {
      {"not HTTP at all", "hello"},
      {"a body shorter than its Content-Length",
       "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"},
      {"an interim response", "HTTP/1.1 100 Continue\r\n\r\n"},
      {"two responses", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n"},
      {"no end of the head", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"},
  };
  for (const auto& [what, body] : bad) EXPECT_EQ(held.post(body).status, 400) << what;
  EXPECT_EQ(held.post("x", "text/plain", "X-Hub-Status: 2OO\r\n").status, 400)
      << "X-Hub-Status 2OO";
  EXPECT_EQ(held.post("x", "text/plain", "X-Hub-Status: 101\r\n").status, 400)
      << "X-Hub-Status 101";
  for (const char* status : {"0200", "200 OK", "20"}) {
    EXPECT_EQ(held.post("x", "text/plain", "X-Hub-Status: " + std::string(status) + "\r\n").status,
              400)
        << "X-Hub-Status " << status << ": a status is exactly three digits";
  }
  EXPECT_EQ(held.post("HTTP/1.1 200 OK\r\n\r\nran to the end").status, 204)
      << "a body without Content-Length runs to the end of the message/http body";
  EXPECT_EQ(held.client.read_response().body, "ran to the end") << held.client.transcript();
}

TEST(Relay, AReplyOverTheSizeLimitGets413) {
  explained_in("ch10-relay");
  held_client held;
  const std::size_t limit = 1024 * 1024;  // the reply port's limit: 1 MiB
  rdv::test::client worker(held.hub.replies());
  worker.send(ch10::reply_request(held.id, std::string(limit + 1, 'x'), "text/plain"));
  EXPECT_EQ(worker.read_response().status, 413) << "a reply of 1 MiB + 1 byte is too large";
  const std::string head = "HTTP/1.1 200 OK\r\n\r\n";
  EXPECT_EQ(held.post(head + std::string(limit - head.size(), 'y')).status, 204)
      << "a reply of exactly 1 MiB is not";
  EXPECT_EQ(held.client.read_response().body.size(), limit - head.size());
}

TEST(Relay, RepliesNeedTheBearerTokenWhenOneIsSet) {
  explained_in("ch10-token");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--reply-token", "s3cret"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/guarded"));
  const std::string id = backend.next().id();
  const std::string reply = ch10::http_message("HTTP/1.1 200 OK", "guarded");
  const auto none = ch10::post_reply(hub.replies(), id, reply);
  EXPECT_EQ(none.status, 401) << "no Authorization field";
  EXPECT_EQ(none.field("WWW-Authenticate"), "Bearer");
  EXPECT_EQ(
      ch10::post_reply(hub.replies(), id, reply, "message/http", "Authorization: Bearer s3cre7\r\n")
          .status,
      401)
      << "a wrong token";
  EXPECT_EQ(ch10::post_reply(hub.replies(), id, reply, "message/http",
                             "Authorization: Basic czNjcmV0\r\n")
                .status,
            401)
      << "another scheme";
  EXPECT_EQ(
      ch10::post_reply(hub.replies(), id, reply, "message/http", "Authorization: Bearer s3cret\r\n")
          .status,
      204)
      << "the token";
  EXPECT_EQ(c.read_response().body, "guarded") << c.transcript();
}

TEST(Relay, AReplyThatWouldSplitTheClientsResponseGets400AndTheClientWaitsOn) {
  explained_in("ch10-relay");
  held_client held;
  const std::pair<const char*, int> bad_plain[] = {{"204 with a body", 204},
                                                   {"304 with a body", 304}};
  for (const auto& [what, status] : bad_plain) {
    EXPECT_EQ(held.post("HTTP/1.1 200 OK\r\nSet-Cookie: forged=1\r\nContent-Length: 0\r\n\r\n",
                        "text/plain", "X-Hub-Status: " + std::to_string(status) + "\r\n")
                  .status,
              400)
        << what << ": the client would read the body as a second response";
  }
  EXPECT_EQ(held.post("x", "text/plain", "X-Hub-Status: 999\r\n").status, 400) << "status 999";
  EXPECT_EQ(held.post("x", "text/plain", "X-Hub-Status: 600\r\n").status, 400) << "status 600";
  EXPECT_EQ(held.post("HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\nhello").status, 400)
      << "a message/http 304 with a body";
  EXPECT_EQ(held.post("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello").status, 400)
      << "a message/http 204 with a body";
  EXPECT_EQ(held.post("HTTP/1.1 999 Nine\r\nContent-Length: 0\r\n\r\n").status, 400)
      << "a message/http status beyond 599";
  EXPECT_EQ(held.post("HTTP/1.1 204 No Content\r\n\r\n").status, 204) << "a 204 as it should be";
  const auto r = held.client.read_response();
  EXPECT_EQ(r.status, 204) << held.client.transcript();
  held.client.send(ch10::get("/next"));  // one response only: the next request is answered in turn
  EXPECT_EQ(ch10::post_reply(held.hub.replies(), held.backend.next().id(),
                             ch10::http_message("HTTP/1.1 200 OK", "next"))
                .status,
            204);
  EXPECT_EQ(held.client.read_response().body, "next") << held.client.transcript();
}

}  // namespace
