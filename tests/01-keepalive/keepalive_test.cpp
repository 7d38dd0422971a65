// Chapter 1's tests: the keep-alive server, driven over real TCP connections.
#include "keepalive.hpp"

#include "rdv/server.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/escape.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace {

namespace asio = boost::asio;
using rdv::test::explained_in;

constexpr std::string_view get = "GET /test HTTP/1.1\r\nHost: 127.0.0.1:8081\r\n\r\n";
constexpr std::string_view get_http10 = "GET /test HTTP/1.0\r\n\r\n";
constexpr std::string_view get_http10_keep_alive =  // what `ab -k` sends
    "GET /test HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: 127.0.0.1:8081\r\n"
    "User-Agent: ApacheBench/2.3\r\nAccept: */*\r\n\r\n";
constexpr std::string_view get_close = "GET /test HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// keeps_alive() and answer_heads() on their own (exercises 1 and 2).
TEST(KeepsAlive, FollowsTheVersionAndTheConnectionField) {
  explained_in("ch01-keep-alive");
  const struct {
    const char* head;
    bool keeps_alive;
  } cases[] = {
      {"GET / HTTP/1.1", true},
      {"GET / HTTP/1.0", false},
      {"GET / HTTP/1.1\r\nHost: x", true},
      {"GET / HTTP/1.1\r\nConnection: close", false},
      {"GET / HTTP/1.1\r\nCONNECTION: CLOSE", false},
      {"GET / HTTP/1.1\r\nConnection: TE", true},  // names no close: the version decides
      {"GET / HTTP/1.0\r\nConnection: TE", false},
      {"GET / HTTP/1.0\r\nConnection: Keep-Alive", true},
      {"GET / HTTP/1.0\r\nconnection: keep-alive\r\nHost: x", true},
      {"GET / HTTP/1.0\r\nHost: x\r\nConnection: Keep-Alive", true},
      {"GET / HTTP/1.1\r\nProxy-Connection: close", true},
      {"GET / HTTP/1.1\r\nX-Note: Connection: close", true},
      {"POST / HTTP/1.1\r\nContent-Length: 3", false},
      {"POST / HTTP/1.1\r\ntransfer-encoding: chunked", false},
  };
  for (const auto& [head, expected] : cases) {
    EXPECT_EQ(rdv::keepalive::keeps_alive(head), expected)
        << "keeps_alive(" << rdv::test::in_quotes(head) << ") should be " << std::boolalpha
        << expected;
  }
}

TEST(AnswerHeads, AnswersOnlyCompleteHeads) {
  explained_in("ch01-heads");
  std::string replies;
  bool open = true;
  const std::string two_and_a_half =
      std::string(get) + std::string(get_http10_keep_alive) + "GET /te";
  const auto used = rdv::keepalive::answer_heads(two_and_a_half, replies, open);
  EXPECT_EQ(used, get.size() + get_http10_keep_alive.size())
      << "answer_heads should use exactly the two complete heads";
  EXPECT_EQ(replies.size(), 2 * (replies.size() / 2));
  EXPECT_NE(replies.find("1234567"), std::string::npos);
  EXPECT_NE(replies.find("1234567", replies.find("1234567") + 7), std::string::npos)
      << "two complete heads need two replies, got " << rdv::test::in_quotes(replies);
  EXPECT_TRUE(open);
}

TEST(AnswerHeads, StopsAfterARequestThatCloses) {
  explained_in("ch01-heads");
  std::string replies;
  bool open = true;
  const std::string input = std::string(get_close) + std::string(get);
  const auto used = rdv::keepalive::answer_heads(input, replies, open);
  EXPECT_EQ(used, get_close.size());
  EXPECT_FALSE(open);
  EXPECT_EQ(replies.find("1234567"), replies.rfind("1234567")) << "exactly one reply expected";
}

TEST(AnswerHeads, UsesNothingOfAPartialHead) {
  explained_in("ch01-heads");
  std::string replies;
  bool open = true;
  EXPECT_EQ(rdv::keepalive::answer_heads("GET / HTTP/1.1\r\nHost: x\r\n", replies, open), 0u);
  EXPECT_TRUE(replies.empty());
  EXPECT_TRUE(open);
}

// The whole server, over real TCP connections (exercises 3 and 4).
class KeepAlive : public ::testing::Test {
protected:
  rdv::test::server_thread server{
      [](asio::io_context& context, asio::ip::tcp::acceptor& acceptor) {
        asio::spawn(
            context,
            [&acceptor](asio::yield_context yield) { rdv::keepalive::accept(acceptor, yield); },
            rdv::rethrow);
      },
      {rdv::test::course_run("01"), 8081}};

  // Reads one response and checks it is the seven-byte answer.
  static void expect_seven_bytes(rdv::test::client& c, std::string_view connection) {
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 200) << c.transcript();
    EXPECT_EQ(r.field("Content-Length"), "7") << c.transcript();
    EXPECT_EQ(r.body, "1234567") << c.transcript();
    EXPECT_EQ(lowercase(r.field("Connection")), connection)
        << "the Connection field tells the client whether the connection stays open\n"
        << c.transcript();
  }
};

TEST_F(KeepAlive, AnswersWithSevenBytes) {
  explained_in("ch01-replies");
  rdv::test::client c(server);
  c.send(get);
  expect_seven_bytes(c, "keep-alive");
}

TEST_F(KeepAlive, ServesManyRequestsOnOneConnection) {
  explained_in("ch01-serve");
  rdv::test::client c(server);
  for (int i = 0; i < 100; ++i) {
    c.send(get);
    expect_seven_bytes(c, "keep-alive");
    if (HasFailure()) return;
  }
}

TEST_F(KeepAlive, AnswersEachRequestExactlyOnce) {
  explained_in("ch01-serve");
  rdv::test::client c(server);
  for (int i = 0; i < 3; ++i) {
    c.send(get);
    expect_seven_bytes(c, "keep-alive");
  }
  c.send(get_close);
  expect_seven_bytes(c, "close");  // an answer sent twice would stand here instead
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
}

TEST_F(KeepAlive, ServesTwoClientsConnectedAtOnce) {
  explained_in("ch01-spawn-bug");
  rdv::test::client first(server);
  first.send(get.substr(0, 10));  // connected, and slow to finish its request
  rdv::test::client second(server);
  second.send(get);
  expect_seven_bytes(second, "keep-alive");  // hangs if `first` holds the acceptor
  first.send(get.substr(10));
  expect_seven_bytes(first, "keep-alive");
}

TEST_F(KeepAlive, ClosesAnHttp10ConnectionAfterTheAnswer) {
  explained_in("ch01-keep-alive");
  rdv::test::client c(server);
  c.send(get_http10);
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << "an HTTP/1.0 request without \"Connection: Keep-Alive\" "
                                  "should be answered, then the connection closed\n"
                               << c.transcript();
}

TEST_F(KeepAlive, KeepsAnHttp10ConnectionThatAsksForKeepAlive) {
  explained_in("ch01-keep-alive");
  rdv::test::client c(server);
  c.send(get_http10_keep_alive);
  expect_seven_bytes(c, "keep-alive");
  c.send(get_http10_keep_alive);  // still open: a second answer proves it
  expect_seven_bytes(c, "keep-alive");
}

TEST_F(KeepAlive, HonoursConnectionClose) {
  explained_in("ch01-keep-alive");
  rdv::test::client c(server);
  c.send(get_close);
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << "\"Connection: close\" should close the connection after "
                                  "the answer\n"
                               << c.transcript();
}

TEST_F(KeepAlive, AnswersPipelinedRequestsInOrder) {
  explained_in("ch01-heads");
  rdv::test::client c(server);
  // Three requests in one write; the third asks to close, so its answer comes
  // last, and the fourth is never answered.
  c.send(std::string(get) + std::string(get) + std::string(get_close) + std::string(get));
  expect_seven_bytes(c, "keep-alive");
  expect_seven_bytes(c, "keep-alive");
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << "nothing may follow the answer to \"Connection: close\"\n"
                               << c.transcript();
}

TEST_F(KeepAlive, AnswersARequestSplitAcrossManySmallWrites) {
  explained_in("ch01-heads");
  rdv::test::client c(server);
  c.send_in_pieces(get_http10_keep_alive, 1);
  expect_seven_bytes(c, "keep-alive");
  c.send_in_pieces(get, 3);
  expect_seven_bytes(c, "keep-alive");
}

TEST_F(KeepAlive, ClosesAfterARequestWithABody) {
  explained_in("ch01-keep-alive");
  rdv::test::client c(server);
  c.send("POST /test HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << "this server cannot skip a body, so it must hang up\n"
                               << c.transcript();
}

TEST_F(KeepAlive, ClientLeavingMidRequestDoesNotDisturbOthers) {
  explained_in("ch01-limits");
  rdv::test::client staying(server);
  {
    rdv::test::client leaving(server);
    leaving.send(get.substr(0, 12));
    staying.send(get);
    expect_seven_bytes(staying, "keep-alive");
  }  // `leaving` closes its socket here, half-way through its request
  staying.send(get);
  expect_seven_bytes(staying, "keep-alive");
  rdv::test::client newcomer(server);
  newcomer.send(get);
  expect_seven_bytes(newcomer, "keep-alive");
}

TEST_F(KeepAlive, HangsUpOnAHeadOverTheLimit) {
  explained_in("ch01-limits");
  rdv::test::client c(server);
  std::string huge = "GET /test HTTP/1.1\r\nX-Filler: ";
  huge.resize(rdv::keepalive::max_head_size + 100, 'a');
  c.send(huge);
  EXPECT_TRUE(c.wait_closed()) << "a head longer than max_head_size without its blank line "
                                  "should make the server hang up\n"
                               << c.transcript();
  rdv::test::client next(server);  // and the server goes on serving
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

TEST_F(KeepAlive, SurvivesGarbage) {
  explained_in("ch01-limits");
  {
    rdv::test::client c(server);
    c.send(std::string("\x00\xff\r\n\r\n\x7f garbage \r\n\r\n", 18));
    c.close();
  }
  rdv::test::client next(server);
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

}  // namespace
