// Chapter 10: what a backend gets from the hub (the hub protocol's forward, appendix A1).
#include "hub_fixture.hpp"
#include "ids.hpp"

#include "request_id.hpp"

#include "rdv/test/book.hpp"

#include <memory>
#include <string>
#include <vector>

namespace {

using rdv::test::explained_in;

TEST(Forward, CarriesTheRequestWithTheHubsFieldsInsteadOfHopByHopOnes) {
  explained_in("ch10-forward");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  rdv::test::client c(hub.front());
  c.send("POST /orders?id=7 HTTP/1.1\r\nHost: shop.example\r\nContent-Type: text/plain\r\n"
         "Connection: keep-alive, X-Conn-Only\r\nX-Conn-Only: secret\r\nKeep-Alive: timeout=5\r\n"
         "TE: trailers\r\nUpgrade: websocket\r\nProxy-Authorization: Basic Zm9vOmJhcg==\r\n"
         "Proxy-Connection: keep-alive\r\nX-Hub-Request-Id: 00000000000000000000000000000000\r\n"
         "X-Hub-Timeout-Ms: 30000\r\nX-Trace: abc\r\nX-Trace: def\r\nForwarded: for=6.6.6.6\r\n"
         "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
  const ch10::forwarded f = backend.next();
  const std::string seen = "the backend got:\n" + f.head() + "hub output:\n" + hub.output();
  EXPECT_EQ(f.method, "POST") << seen;
  EXPECT_EQ(f.target, "/orders?id=7") << seen;
  EXPECT_EQ(f.field("Host"), "shop.example") << seen;
  EXPECT_EQ(f.field("Content-Type"), "text/plain") << seen;
  EXPECT_EQ(f.count("X-Trace"), 2u) << "end-to-end fields pass, every line of them\n" << seen;
  EXPECT_EQ(f.body, "hello world") << "the body arrives decoded\n" << seen;
  EXPECT_EQ(f.field("Content-Length"), "11") << "a chunked body is re-framed with Content-Length\n"
                                             << seen;
  for (const char* hop : {"Connection", "X-Conn-Only", "Keep-Alive", "TE", "Upgrade",
                          "Proxy-Authorization", "Proxy-Connection", "Transfer-Encoding"}) {
    EXPECT_EQ(f.count(hop), 0u) << hop << " is hop-by-hop: it must not be forwarded\n" << seen;
  }
  EXPECT_EQ(f.count("X-Hub-Request-Id"), 1u) << seen;
  EXPECT_TRUE(ch10::is_lone_hub_id(f.id())) << seen;
  EXPECT_NE(f.id(), "00000000000000000000000000000000")
      << "the hub makes the id: a client must not choose it\n"
      << seen;
  EXPECT_EQ(f.count("X-Hub-Timeout-Ms"), 0u) << "X-Hub-Timeout-Ms is for the hub\n" << seen;
  EXPECT_EQ(f.field("X-Hub-Reply-To"),
            "http://127.0.0.1:" + std::to_string(hub.replies()) + "/reply/" + f.id())
      << seen;
  const long long left = std::atoll(f.field("X-Hub-Deadline-Ms").c_str());
  EXPECT_TRUE(left > 0 && left <= 30000)
      << "X-Hub-Deadline-Ms: the milliseconds left of the 30 s the client asked for\n"
      << seen;
  EXPECT_EQ(f.field("Forwarded"), "for=127.0.0.1") << seen;
  EXPECT_EQ(f.count("Forwarded"), 1u)
      << "the client's own Forwarded would let it pass for any address: the hub says who it is\n"
      << seen;
}

TEST(Forward, TellsTheBackendTheMillisecondsLeftNotTheSeconds) {
  explained_in("ch10-forward");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  // Whatever the hub took to forward them, three requests that asked for
  // these times are not all left with a whole number of tenths of a second.
  std::vector<std::unique_ptr<rdv::test::client>> clients;
  std::string values;
  bool all_rounded = true;
  for (const long long asked : {1234LL, 2345LL, 3456LL}) {
    clients.push_back(std::make_unique<rdv::test::client>(hub.front()));
    clients.back()->send(ch10::get("/left", "X-Hub-Timeout-Ms: " + std::to_string(asked) + "\r\n"));
    const long long left = std::atoll(backend.next().field("X-Hub-Deadline-Ms").c_str());
    EXPECT_TRUE(left > 0 && left <= asked) << left << " ms left of the " << asked << " asked for";
    values += std::to_string(left) + " of " + std::to_string(asked) + "; ";
    all_rounded = all_rounded && left % 100 == 0;
  }
  EXPECT_FALSE(all_rounded) << "X-Hub-Deadline-Ms is the milliseconds left, not a rounding of "
                               "them: "
                            << values;
}

TEST(Forward, FramesABodyExactlyWhenTheClientFramedOne) {
  explained_in("ch10-forward");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  const struct {
    const char* request;
    const char* length;  // the forward's Content-Length, or null for none
  } cases[] = {
      {"GET /none HTTP/1.1\r\nHost: x\r\n\r\n", nullptr},
      {"POST /empty HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "0"},
      {"POST /no-chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "0"},
      {"PUT /three HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "3"},
  };
  std::vector<std::unique_ptr<rdv::test::client>> held;  // each held until the test ends
  for (const auto& c : cases) {
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(c.request);
    const ch10::forwarded f = backend.next();
    const std::string seen = std::string("the client sent:\n") + c.request +
                             "\nthe backend got:\n" + f.head() + "hub output:\n" + hub.output();
    if (c.length == nullptr) {
      EXPECT_EQ(f.count("Content-Length"), 0u)
          << "a request without a body is forwarded without one: no Content-Length\n"
          << seen;
    } else {
      EXPECT_EQ(f.field("Content-Length"), c.length)
          << "a body the client framed, empty or not, goes with its length\n"
          << seen;
    }
    EXPECT_EQ(f.count("Transfer-Encoding"), 0u) << seen;
  }
}

TEST(Forward, GivesAnHttp10RequestWithoutHostAHostField) {
  explained_in("ch10-forward");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send("GET /old HTTP/1.0\r\n\r\n");
  const ch10::forwarded f = backend.next();
  EXPECT_EQ(f.field("Host"), "127.0.0.1:" + std::to_string(hub.front()))
      << "HTTP/1.1 requires Host; the hub names itself, the server the client asked\n"
      << f.head();
}

TEST(Forward, ReusesAKeptAliveConnectionToTheBackend) {
  explained_in("ch10-pool");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  std::vector<std::uint16_t> from;
  for (int i = 0; i < 5; ++i) {  // one after the other: each forward finds the connection idle
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(ch10::get("/" + std::to_string(i)));
    from.push_back(backend.next().from_port);
    // The hub counts a forward once it has read the backend's answer and put
    // the connection back: only then is it idle for the next one.
    ASSERT_TRUE(hub.wait_for_stat("forwarded", i + 1)) << hub.output();
  }
  for (const std::uint16_t port : from) {
    EXPECT_EQ(port, from.front()) << "five forwards in turn should share one kept-alive "
                                     "connection to the backend";
  }
}

TEST(Forward, TakesTheBackendsInTurn) {
  explained_in("ch10-forward");
  ch10::test_backend one, two;
  ch10::hub hub({"--backend", one.address(), "--backend", two.address()});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<rdv::test::client>(hub.front()));
    held.back()->send(ch10::get("/" + std::to_string(i)));
    (i % 2 == 0 ? one : two).next();  // round robin: one, two, one, two
  }
  EXPECT_EQ(one.received(), 2u);
  EXPECT_EQ(two.received(), 2u);
}

TEST(Forward, AHostThatConnectionNamesIsForwardedAllTheSame) {
  explained_in("ch10-forward");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client c(hub.front());
  c.send("GET /h HTTP/1.1\r\nHost: shop.example\r\nConnection: Host, keep-alive\r\n\r\n");
  const ch10::forwarded f = backend.next();
  EXPECT_EQ(f.count("Host"), 1u) << "a forward always carries one Host\n" << f.head();
  EXPECT_EQ(f.field("Host"), "shop.example") << f.head();
  rdv::test::client other(hub.front());  // (the first is held until its reply)
  other.send("GET /h HTTP/1.1\r\nhost: lower.example\r\n\r\n");  // a name in any case
  const ch10::forwarded lower = backend.next();
  EXPECT_EQ(lower.count("Host"), 1u) << "a forward always carries one Host\n" << lower.head();
  EXPECT_EQ(lower.field("Host"), "lower.example") << lower.head();
}

}  // namespace
