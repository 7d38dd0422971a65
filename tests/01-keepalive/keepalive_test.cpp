// Chapter 1's tests: the keep-alive server, driven over real TCP connections.
#include "keepalive.hpp"

#include "rdv/server.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/escape.hpp"
#include "rdv/test/loopback.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/slow_reader.hpp"

#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
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

// A request head of `size` bytes that a field of filler leaves unfinished.
std::string unfinished_head(std::size_t size) {
  std::string head = "GET /test HTTP/1.1\r\nX-Filler: ";
  head.resize(size, 'a');
  return head;
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
      {"POST / HTTP/1.1\r\ncontent-length: 5", false},           // names in any case
      {"GET / HTTP/1.1\r\nX-Original-Content-Length: 5", true},  // a name, not a substring
      {"GET / HTTP/1.1\r\nConnection:close", false},             // whitespace is optional,
      {"GET / HTTP/1.1\r\nConnection:\tclose", false},           // and may be a tab
      {"GET / HTTP/1.0\r\nConnection:Keep-Alive", true},
      {"GET / HTTP/1.1\r\nConnection: X-Close-Reason", true},  // options, not substrings
      {"GET / HTTP/1.0\r\nConnection: X-Keep-Alive-Hint", false},
      {"GET /HTTP/1.1 HTTP/1.0", false},  // the version ends the line
      {"GET /HTTP/1.0 HTTP/1.1", true},
      {"GET / HTTP/1.1\r\nConnection-Note: close", true},  // a name, not a prefix
      {"GET / HTTP/1.0\r\nConnection-Type: keep-alive", false},
      // Connection lists options, and may come in several fields; close wins.
      {"GET / HTTP/1.1\r\nConnection: TE, close", false},
      {"GET / HTTP/1.0\r\nConnection: keep-alive, close", false},
      {"GET / HTTP/1.0\r\nConnection: close, keep-alive", false},
      {"GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close", false},
      {"GET / HTTP/1.0\r\nConnection: close\r\nConnection: keep-alive", false},
      {"GET / HTTP/1.0\r\nConnection: TE\r\nConnection: Keep-Alive", true},
      // A body after a Connection field still cannot be skipped, in either version.
      {"POST / HTTP/1.1\r\nConnection: keep-alive\r\nContent-Length: 5", false},
      {"POST / HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: 5", false},
      {"POST / HTTP/1.0\r\nContent-Length: 5\r\nConnection: Keep-Alive", false},
      {"POST / HTTP/1.0\r\nConnection: Keep-Alive\r\nTransfer-Encoding: chunked", false},
      // A length this server cannot read is no reason to crash, nor to stay.
      {"POST / HTTP/1.1\r\nContent-Length: abc", false},
      {"POST / HTTP/1.1\r\nContent-Length:", false},
      {"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999", false},
      // Whitespace before the colon is not allowed, but some parsers skip it.
      {"POST / HTTP/1.1\r\nContent-Length : 5", false},
      {"POST / HTTP/1.1\r\nTransfer-Encoding\t: chunked", false},
      {"GET / HTTP/1.1\r\nConnection : close", false},
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

TEST(AnswerHeads, JudgesEachHeadByItsOwnFields) {
  explained_in("ch01-heads");
  std::string replies;
  bool open = true;
  // The second head says nothing of keep-alive: it is HTTP/1.0, so it closes,
  // whatever the head before it said.
  const std::string two = std::string(get_http10_keep_alive) + std::string(get_http10);
  EXPECT_EQ(rdv::keepalive::answer_heads(two, replies, open), two.size());
  EXPECT_FALSE(open) << "the second request (HTTP/1.0, no Connection field) closes";
  const auto second = replies.find("HTTP/1.1", 1);
  ASSERT_NE(second, std::string::npos) << rdv::test::in_quotes(replies);
  EXPECT_NE(lowercase(replies.substr(0, second)).find("keep-alive"), std::string::npos);
  EXPECT_NE(lowercase(replies.substr(second)).find("connection: close"), std::string::npos)
      << rdv::test::in_quotes(replies);
  // A head is its own bytes only: not those of the heads that follow it.
  const std::string three = "GET / HTTP/1.1\r\nHost: a-name-long-enough-to-matter.example\r\n\r\n"
                            "GET / HTTP/1.1\r\n\r\n" +
                            std::string(get_close);
  replies.clear();
  open = true;
  EXPECT_EQ(rdv::keepalive::answer_heads(three, replies, open), three.size());
  const auto second_of_three = replies.find("HTTP/1.1", 1),
             third_of_three = replies.find("HTTP/1.1", second_of_three + 1);
  ASSERT_NE(third_of_three, std::string::npos) << rdv::test::in_quotes(replies);
  EXPECT_NE(lowercase(replies.substr(second_of_three, third_of_three - second_of_three))
                .find("keep-alive"),
            std::string::npos)
      << "the second head says nothing of closing; the third does, but that is the third's\n"
      << rdv::test::in_quotes(replies);
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
        // The connections it accepts inherit a small send buffer: as over a
        // slow network, a write to a client that reads late takes part of
        // its bytes at a time.
        acceptor.set_option(asio::socket_base::send_buffer_size(4096));
        asio::spawn(
            context,
            [&acceptor](asio::yield_context yield) { rdv::keepalive::accept(acceptor, yield); },
            rdv::rethrow);
      },
      {rdv::test::course_run("01"), 8081}};

  // Expects the server to hang up on `c` (`why` if not), and to serve a new client after.
  void expect_hang_up_and_service_to_go_on(rdv::test::client& c, std::string_view why) {
    EXPECT_TRUE(c.wait_closed()) << why << "\n" << c.transcript();
    rdv::test::client next(server);
    next.send(get);
    expect_seven_bytes(next, "keep-alive");
  }

  // What one request gets: its whole answer, as received.
  std::string one_answer() const {
    rdv::test::client c(server);
    c.send(get);
    c.read_response();
    return c.received();
  }

  // A non-blocking socket connected to the server, with a 4 KiB receive
  // buffer: a client whose window the answers soon fill. -1 if it cannot.
  int connect_with_a_small_window() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    const int small = 4096;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    pollfd connecting{fd, POLLOUT, 0};
    if (rdv::test::connect_to_loopback(fd, server.port()) != 0 &&
        ::poll(&connecting, 1, 10000) != 1) {
      ::close(fd);
      return -1;
    }
    return fd;
  }

  // Appends what one recv() on `fd` gets to `in`; false at the end of the
  // stream, or on an error.
  static bool receive_into(int fd, std::string& in) {
    char buffer[65536];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    in.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  // Expects `in` to be `requests` times `answer`, and nothing else.
  static void expect_answers(std::string_view in, std::string_view answer, std::size_t requests,
                             std::string_view why) {
    EXPECT_EQ(in.size(), requests * answer.size()) << requests << " requests: " << why;
    std::size_t whole = 0;
    while (whole < requests && in.compare(whole * answer.size(), answer.size(), answer) == 0) {
      ++whole;
    }
    EXPECT_EQ(whole, requests) << "answer " << whole << " of " << requests
                               << " is not the one expected: " << why;
  }

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
  first.send("GET /abcd HTTP/1.1");  // connected, and slow to finish its request
  rdv::test::client second(server);
  second.send(get_http10);              // as long as the first's start, and HTTP/1.0
  expect_seven_bytes(second, "close");  // hangs if `first` holds the acceptor
  first.send("\r\n\r\n");
  expect_seven_bytes(first, "keep-alive");  // its own request, not the second's bytes
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

TEST_F(KeepAlive, KeepsTheStartOfTheNextHeadForTheNextRead) {
  explained_in("ch01-heads");
  rdv::test::client c(server);
  c.send(std::string(get) + "GET /next HTTP/1.0\r\n");  // a head and a half
  expect_seven_bytes(c, "keep-alive");
  c.send("Host: x\r\n\r\n");       // the rest of the second, in another read
  expect_seven_bytes(c, "close");  // HTTP/1.0: the second head's own start decides
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
}

// A client that pipelines many requests and reads only when it can send no
// more: every byte of every answer must still come, in order.
TEST_F(KeepAlive, AnswersEveryRequestOfAClientThatReadsLate) {
  explained_in("ch01-serve");
  const std::string answer = one_answer();
  const int fd = connect_with_a_small_window();
  ASSERT_GE(fd, 0) << "cannot connect";
  constexpr std::size_t requests = 20000;
  std::string out, in;
  for (std::size_t i = 0; i < requests; ++i) out += get;
  for (std::size_t sent = 0; in.size() < requests * answer.size();) {
    if (sent < out.size()) {  // send while the server takes requests
      const ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<std::size_t>(n);
        continue;
      }
      if (errno != EAGAIN) break;
    }
    pollfd ready{fd, static_cast<short>(POLLIN | (sent < out.size() ? POLLOUT : 0)), 0};
    if (::poll(&ready, 1, 5000) != 1) break;  // nothing moved for 5 s: no more will come
    if ((ready.revents & POLLIN) != 0 && !receive_into(fd, in)) break;
  }
  ::close(fd);
  expect_answers(in, answer, requests,
                 "a write may take only part of the answers, and the rest must follow; "
                 "and a buffer full of heads already answered is not a head over the limit");
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
    ::shutdown(leaving.native_handle(), SHUT_WR);  // it will send no more
    EXPECT_TRUE(leaving.wait_closed()) << "the end of the client's stream ends the connection: "
                                          "nothing more can come\n"
                                       << leaving.transcript();
    EXPECT_EQ(leaving.received(), "") << "half a head is no request: it gets no answer\n"
                                      << leaving.transcript();
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
  c.send(unfinished_head(rdv::keepalive::max_head_size + 100));
  expect_hang_up_and_service_to_go_on(c, "a head longer than max_head_size without its blank "
                                         "line should make the server hang up");
}

TEST_F(KeepAlive, AnswersAHeadOfExactlyTheLimit) {
  explained_in("ch01-limits");
  rdv::test::client c(server);
  c.send(unfinished_head(rdv::keepalive::max_head_size - 4) + "\r\n\r\n");  // the blank line too
  expect_seven_bytes(c, "keep-alive");
}

TEST_F(KeepAlive, HangsUpOnAWholeHeadOneByteOverTheLimit) {
  explained_in("ch01-limits");
  rdv::test::client c(server);
  c.send(unfinished_head(rdv::keepalive::max_head_size - 3) + "\r\n\r\n");  // blank line too
  expect_hang_up_and_service_to_go_on(c, "a head of max_head_size + 1 bytes, blank line "
                                         "included, is over the limit: no answer, a hang-up");
  EXPECT_EQ(c.received(), "") << "the head over the limit was answered";
}

TEST_F(KeepAlive, HangsUpOnAHeadThatOutgrowsTheBufferAcrossReads) {
  explained_in("ch01-limits");
  rdv::test::client c(server);
  // Most of a head comes behind a whole request; once that request is
  // answered, the server has read the part too (one segment, one read).
  c.send(std::string(get) + unfinished_head(rdv::keepalive::max_head_size - 200));
  expect_seven_bytes(c, "keep-alive");
  c.send(std::string(rdv::keepalive::max_head_size, 'b'));  // far more than the room left
  expect_hang_up_and_service_to_go_on(c, "the head outgrew the buffer: the server should hang "
                                         "up, having read no more than the room left");
}

TEST_F(KeepAlive, AClientThatResetsWhileItsAnswersWaitDisturbsNoOther) {
  explained_in("ch01-serve");
  {
    // Requests, and no reading, until the answers fill every buffer and the
    // server's write waits; then a reset under that write.
    rdv::test::slow_reader reader(server.port(), get);
    reader.reset();
  }
  rdv::test::client next(server);
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

TEST_F(KeepAlive, AClientThatReadsNothingHoldsUpNoOther) {
  explained_in("ch01-serve");
  // Requests, and no reading, until the answers fill every buffer: the
  // server's write to this client waits, and the thread must go on serving.
  const rdv::test::slow_reader reader(server.port(), get);
  rdv::test::client next(server);
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
}

TEST_F(KeepAlive, AnswersWaitingForOneClientAreNotChangedByAnother) {
  explained_in("ch01-serve");
  const std::string answer = one_answer();
  // A pipelines long requests without reading until nothing has moved for
  // 200 ms: the server's write of A's few answers waits for room.
  const std::string long_get = unfinished_head(1000) + "\r\n\r\n";
  const int fd = connect_with_a_small_window();
  ASSERT_GE(fd, 0) << "cannot connect";
  std::size_t requests = 0;
  for (pollfd room{fd, POLLOUT, 0}; ::poll(&room, 1, 200) == 1; ++requests) {
    if (::send(fd, long_get.data(), long_get.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(long_get.size())) {
      break;
    }
  }
  // B, meanwhile, pipelines short requests, whose many answers need more
  // room than A's waiting ones; then another client asks with HTTP/1.0.
  {
    constexpr std::size_t many = 400;
    std::string burst, answers;
    for (std::size_t i = 0; i < many; ++i) {
      burst += "GET / HTTP/1.1\r\n\r\n";
      answers += answer;
    }
    rdv::test::client b(server);
    b.send(burst);
    EXPECT_EQ(b.read_exactly(answers.size()), answers) << b.transcript();
    rdv::test::client c(server);
    c.send(get_http10);
    expect_seven_bytes(c, "close");
  }
  // A's answers must be its own, all of them, every one a keep-alive.
  std::string in;
  for (pollfd ready{fd, POLLIN, 0}; in.size() < requests * answer.size();) {
    if (::poll(&ready, 1, 5000) != 1 || !receive_into(fd, in)) break;  // 5 s: no more will come
  }
  ::close(fd);
  expect_answers(in, answer, requests,
                 "A's answers are A's: is one string of answers shared by connections?");
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
