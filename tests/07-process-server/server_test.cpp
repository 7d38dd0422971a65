// Chapter 7: everything chapter 1's server does, now with one process per
// connection, and the chapter 2 parser reading each request.
#include "connection.hpp"
#include "server_fixture.hpp"

#include "rdv/test/book.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace {

using ch07::expect_seven_bytes;
using rdv::test::explained_in;

constexpr std::string_view get = "GET /test HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
constexpr std::string_view get_close = "GET /test HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
constexpr std::string_view get_http10_keep_alive =
    "GET /test HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: 127.0.0.1\r\n"
    "User-Agent: ApacheBench/2.3\r\nAccept: */*\r\n\r\n";

TEST(ProcessServer, ServesManyRequestsOnOneConnection) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  for (int i = 0; i < 100 && !::testing::Test::HasFailure(); ++i) {
    c.send(get);
    expect_seven_bytes(c, "keep-alive");
  }
}

TEST(ProcessServer, AnswersHttp10AsChapter1Did) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client keep(s.thread);
  keep.send(get_http10_keep_alive);
  expect_seven_bytes(keep, "keep-alive");
  keep.send(get_http10_keep_alive);
  expect_seven_bytes(keep, "keep-alive");
  rdv::test::client once(s.thread);
  once.send("GET /test HTTP/1.0\r\n\r\n");
  expect_seven_bytes(once, "close");
  EXPECT_TRUE(once.wait_closed()) << once.transcript();
}

// How the server ended the connection, once it has (within 10 s): "in
// order" (the stream ended), "reset", or what came instead.
std::string how_it_ended(rdv::test::client& c) {
  pollfd ready{c.native_handle(), POLLIN, 0};
  if (::poll(&ready, 1, 10'000) != 1) return "neither closed nor reset within 10 s";
  char byte;
  const ssize_t n = ::recv(c.native_handle(), &byte, 1, 0);
  if (n == 0) return "in order";
  if (n < 0 && errno == ECONNRESET) return "reset";
  return n < 0 ? std::string("recv: ") + std::strerror(errno) : "more bytes";
}

// RFC 9112, section 6.1: a Transfer-Encoding in an HTTP/1.0 request may
// have come through a sender that did not read it; whatever the request
// says of keep-alive, the connection ends after the answer.
TEST(ProcessServer, ClosesAfterAnHttp10RequestWithTransferEncoding) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  c.send("POST /test HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n"
         "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
}

TEST(ProcessServer, HonoursConnectionClose) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  c.send(get_close);
  expect_seven_bytes(c, "close");
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
  // Connection is a list of options, and may come in several fields.
  for (const char* fields :
       {"Connection: TE, close\r\n", "Connection: TE\r\nConnection: close\r\n"}) {
    rdv::test::client d(s.thread);
    d.send(std::string("GET /test HTTP/1.1\r\nHost: x\r\n") + fields + "\r\n");
    expect_seven_bytes(d, "close");
    EXPECT_TRUE(d.wait_closed()) << d.transcript();
  }
}

TEST(ProcessServer, ClosesInOrderAfterAClientThatSentMoreThanItsLastRequest) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  // The last request, and in the same write more than the server's buffer
  // holds: whatever the server reads, most of it stays unread in its socket.
  c.send(std::string(get_close) + std::string(64 * 1024, 'x'));
  expect_seven_bytes(c, "close");
  // A server that closed with those bytes unread would send a reset, which
  // can destroy an answer still on its way; one that stops sending and
  // drains them ends the stream in order.
  EXPECT_EQ(how_it_ended(c), "in order") << c.transcript();
}

TEST(ProcessServer, HangsUpWithoutAWordWhenTheHandlerSaysSo) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& request) {
    if (request.head.target != "/gone") return ch07::seven_bytes(request);
    rdv::web::response gone;
    gone.hang_up = true;  // as chapter 10 answers for a held client that left
    return gone;
  });
  rdv::test::client c(s.thread);
  c.send(get);  // first an answer, so that a server that serves nothing cannot pass
  expect_seven_bytes(c, "keep-alive");
  const std::size_t answered = c.received().size();
  c.send("GET /gone HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(how_it_ended(c), "reset")
      << "a connection whose handler hangs up is dropped: nothing is left for the kernel to send\n"
      << c.transcript();
  EXPECT_EQ(c.received().size(), answered) << "a handler that hangs up sends nothing\n"
                                           << c.transcript();
  rdv::test::client closing(s.thread);  // whatever the request said of the connection
  closing.send("GET /gone HTTP/1.0\r\n\r\n");
  EXPECT_EQ(how_it_ended(closing), "reset") << closing.transcript();
}

TEST(ProcessServer, AsksNothingMoreOfTheHandlerOnceItHangsUp) {
  explained_in("ch07-connection");
  std::atomic<int> after_hang_up{0};
  ch07::server s([&after_hang_up](rdv::web::request& request) {
    if (request.head.target == "/after") ++after_hang_up;
    if (request.head.target != "/gone") return ch07::seven_bytes(request);
    rdv::web::response gone;
    gone.hang_up = true;
    return gone;
  });
  rdv::test::client c(s.thread);
  c.send("GET /gone HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(how_it_ended(c), "reset") << c.transcript();
  rdv::test::client next(s.thread);  // served after the hung-up connection's process is done
  next.send(get);
  expect_seven_bytes(next, "keep-alive");
  EXPECT_EQ(after_hang_up.load(), 0)
      << "a request pipelined behind one whose handler hung up went to the handler: the "
         "connection was over, and its client gone";
}

TEST(ProcessServer, KeepsTheConnectionAfterAHandlersErrorStatus) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& request) {
    if (request.head.target == "/missing") return rdv::web::text_response(404);
    return ch07::seven_bytes(request);
  });
  rdv::test::client c(s.thread);
  c.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(get));
  const auto missing = c.read_response();
  EXPECT_EQ(missing.status, 404) << c.transcript();
  EXPECT_NE(missing.field("Connection"), "close")
      << "the handler's 404 is an answer like any other: the request's rules and the "
         "response's close decide whether the connection goes on\n"
      << c.transcript();
  expect_seven_bytes(c, "keep-alive");
}

TEST(ProcessServer, TellsTheHandlerWhoTheClientIs) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& request) {
    return rdv::web::text_response(200, std::to_string(request.peer.port()));
  });
  rdv::test::client c(s.thread);
  sockaddr_in local{};
  socklen_t size = sizeof local;
  ASSERT_EQ(::getsockname(c.native_handle(), reinterpret_cast<sockaddr*>(&local), &size), 0);
  c.send(get);
  EXPECT_EQ(c.read_response().body, std::to_string(ntohs(local.sin_port)))
      << "request::peer is the client's end of the connection\n"
      << c.transcript();
}

TEST(ProcessServer, ClosesWhenTheResponseAsks) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& request) {
    rdv::web::response r = ch07::seven_bytes(request);
    r.close = true;  // as a handler that is done with this client does
    return r;
  });
  rdv::test::client c(s.thread);
  c.send(std::string(get) + std::string(get));  // a second request, which must go unanswered
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << c.transcript();
  EXPECT_EQ(ch07::lowercase(r.field("Connection")), "close") << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << "the response asked to close the connection\n" << c.transcript();
  EXPECT_EQ(c.received().find("HTTP/1.1", 1), std::string::npos) << "one answer, then the close\n"
                                                                 << c.transcript();
}

TEST(ProcessServer, AnswersPipelinedRequestsInOrder) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::string(r.head.target);
    return answer;
  });
  rdv::test::client c(s.thread);
  c.send(
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /4 HTTP/1.1\r\nHost: x\r\n\r\n");
  for (const char* target : {"/1", "/2", "/3"}) {
    EXPECT_EQ(c.read_response().body, target) << c.transcript();
  }
  EXPECT_TRUE(c.wait_closed()) << "nothing may follow the answer to \"Connection: close\"\n"
                               << c.transcript();
}

TEST(ProcessServer, AnswersPipelinedRequestsTogetherWhenAsked) {
  explained_in("ch07-together");
  ch07::server s(
      [](rdv::web::request& r) {
        rdv::web::response answer;
        answer.body = std::string(r.head.target);
        return answer;
      },
      {.answers_at_once = true});
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket c(io);
  c.connect({boost::asio::ip::make_address("127.0.0.1"), s.thread.port()});
  boost::asio::write(c, boost::asio::buffer(std::string_view(
                            "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"
                            "GET /3 HTTP/1.1\r\nHost: x\r\n\r\n")));
  pollfd ready{c.native_handle(), POLLIN, 0};
  ASSERT_EQ(::poll(&ready, 1, 10'000), 1) << "no answer in 10 s";
  std::array<char, 65536> bytes;
  const std::string first(bytes.data(), c.read_some(boost::asio::buffer(bytes)));
  std::vector<std::string> bodies;
  for (std::size_t at = first.find("\r\n\r\n"); at != std::string::npos;
       at = first.find("\r\n\r\n", at + 4)) {
    bodies.push_back(first.substr(at + 4, 2));
  }
  EXPECT_EQ(bodies, (std::vector<std::string>{"/1", "/2", "/3"}))
      << "three pipelined requests that came together should get their answers in one write, "
         "in order; the first read got:\n"
      << first;
}

// Answers that wait for the ones behind them still leave: with a request
// that closes, and ahead of a request that has only begun to come.
TEST(ProcessServer, AnswersThatWaitToGoTogetherAreNeverHeldBack) {
  explained_in("ch07-together");
  const auto target = [](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::string(r.head.target);
    return answer;
  };
  ch07::server s(target, {.request_timeout = std::chrono::seconds(30), .answers_at_once = true});
  {
    rdv::test::client c(s.thread);
    c.send("GET /1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
           "GET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().body, "/1") << "the answer to a request that closes goes out\n"
                                            << c.transcript();
    EXPECT_TRUE(c.wait_closed()) << c.transcript();
  }
  rdv::test::client c(s.thread, std::chrono::seconds(5));  // far less than the request timeout
  c.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\n");  // and half a request
  EXPECT_EQ(c.read_response().body, "/1")
      << "an answer must not wait for a request that has only begun: its client may be waiting "
         "for the answer before it sends the rest\n"
      << c.transcript();
  c.send("Host: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "/2") << c.transcript();
  // An answer to HEAD waits its turn like any other.
  c.send("GET /3 HTTP/1.1\r\nHost: x\r\n\r\nHEAD /4 HTTP/1.1\r\nHost: x\r\n\r\n"
         "GET /5 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "/3") << "the answers go in the order of the requests\n"
                                          << c.transcript();
  EXPECT_EQ(c.read_response(true).field("Content-Length"), "2") << c.transcript();
  EXPECT_EQ(c.read_response().body, "/5") << c.transcript();
}

TEST(ProcessServer, AnswersARequestSplitAcrossManySmallWrites) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  c.send_in_pieces(get_http10_keep_alive, 1);
  expect_seven_bytes(c, "keep-alive");
}

TEST(ProcessServer, ServesTwoClientsConnectedAtOnce) {
  explained_in("ch07-acceptor");
  ch07::server s;
  rdv::test::client first(s.thread);
  first.send(get.substr(0, 10));
  rdv::test::client second(s.thread);
  second.send(get);
  expect_seven_bytes(second, "keep-alive");
  first.send(get.substr(10));
  expect_seven_bytes(first, "keep-alive");
}

TEST(ProcessServer, ReadsBodiesAndKeepsTheConnection) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = "got " + std::string(r.body);
    return answer;
  });
  rdv::test::client c(s.thread);
  c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
  EXPECT_EQ(c.read_response().body, "got hello") << c.transcript();
  c.send("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
         "chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "got abcde") << c.transcript();
}

TEST(ProcessServer, ReadsABatchOfPipelinedPostsWhoseBodiesCameWithTheirHeads) {
  explained_in("ch07-buffer");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::string(r.head.target) + " " + std::string(r.body);
    return answer;
  });
  rdv::test::client c(s.thread);
  // Many times the first buffer's 2 KiB in one write: heads and bodies fall
  // wherever the reads cut them, and the buffer grows as the reads fill it.
  constexpr int requests = 300;
  const auto body = [](int i) {  // bodies of 6 to 45 bytes
    return "body-" + std::to_string(i) + std::string(static_cast<std::size_t>(i % 37), '.');
  };
  std::string batch;
  for (int i = 0; i < requests; ++i) {
    batch += "POST /" + std::to_string(i) +
             " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body(i).size()) +
             "\r\n\r\n" + body(i);
  }
  c.send(batch);
  for (int i = 0; i < requests; ++i) {
    ASSERT_EQ(c.read_response().body, "/" + std::to_string(i) + " " + body(i)) << c.transcript();
  }
}

TEST(ProcessServer, ReadsHeadsLongerThanItsFirstBuffer) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::to_string(r.head.fields.find("X-Long").value_or("").size()) + " " +
                  std::string(r.head.target);
    return answer;
  });
  rdv::test::client c(s.thread);
  const std::string big(12000, 'a');  // the buffer starts at 2 KiB and grows to fit the head
  c.send("GET /1 HTTP/1.1\r\nHost: x\r\nX-Long: " + big +
         "\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "12000 /1") << c.transcript();
  EXPECT_EQ(c.read_response().body, "0 /2") << c.transcript();
}

TEST(ProcessServer, AHandlerMayGiveTheBufferBackAndKeepItsRequest) {
  explained_in("ch07-give-back");
  // The handler gives the buffer back, then answers from the head: views
  // into the old buffer would be gone (and ASan would say so).
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    if (!r.release_buffer) {
      answer.body = "no release_buffer offered";
      return answer;
    }
    const char* before = r.head.target.data();
    r.release_buffer();
    const bool moved = r.head.target.data() != before;
    answer.body = std::string(r.head.target) + " " +
                  std::string(r.head.fields.find("X-Tag").value_or("-")) + " " +
                  std::string(r.body) + (moved ? " moved" : " stayed");
    return answer;
  });
  rdv::test::client c(s.thread);
  // Two requests in one write: the second waits in the buffer, and must
  // come through the move.
  c.send("GET /1 HTTP/1.1\r\nHost: x\r\nX-Tag: one\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "/1 one  moved") << c.transcript();
  EXPECT_EQ(c.read_response().body, "/2 -  moved") << c.transcript();
  // A head larger than what is left: the buffer grows back.
  c.send("GET /3 HTTP/1.1\r\nHost: x\r\nX-Tag: " + std::string(3000, 't') + "\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "/3 " + std::string(3000, 't') + "  moved") << c.transcript();
  // A request with a body keeps its buffer: its bytes are no longer all there.
  c.send("POST /4 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
  EXPECT_EQ(c.read_response().body, "/4 - hello stayed") << c.transcript();
  // HEAD, whose answer has no body: the method is read after the handler
  // gave the buffer back, from the request, not from a view taken before.
  c.send("HEAD /5 HTTP/1.1\r\nHost: x\r\n\r\nGET /6 HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto head = c.read_response(true);
  EXPECT_EQ(head.status, 200) << c.transcript();
  EXPECT_EQ(head.field("Content-Length"), std::to_string(std::string_view("/5 -  moved").size()))
      << c.transcript();
  EXPECT_EQ(c.read_response().body, "/6 -  moved") << "the answer to HEAD carried no body\n"
                                                   << c.transcript();
}

TEST(ProcessServer, ReadsABodyAfterAHeadThatFillsItsFirstBuffer) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::string(r.head.target) + " got " + std::string(r.body);
    return answer;
  });
  rdv::test::client c(s.thread);
  // A head of exactly 2048 bytes fills the first buffer: the body needs a
  // bigger one, and the head's views must point into that.
  std::string head = "POST /full HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nX-Pad: ";
  head += std::string(2048 - head.size() - 4, 'p') + "\r\n\r\n";
  ASSERT_EQ(head.size(), 2048u);
  c.send(head);
  c.send("hello");
  EXPECT_EQ(c.read_response().body, "/full got hello") << c.transcript();
}

// A chunked request whose trailer section does not fit in what the first
// buffer (2 KiB) has left after its 600-byte head: `bad_line` goes in the
// middle of the trailer section, where the buffer runs out.
std::string chunked_with_trailers(std::string_view bad_line = {}) {
  std::string request = "POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-Pad: ";
  request += std::string(600 - request.size() - 4, 'p') + "\r\n\r\n";
  request += "5\r\nhello\r\n0\r\n";
  for (int i = 0; i < 36; ++i) {  // 1.6 KiB of trailers, the 31st line across byte 2048
    if (i == 30) request += bad_line;
    request += "X-Trailer-" + std::to_string(100 + i) + ": " + std::string(30, 't') + "\r\n";
  }
  return request + "\r\n";
}

TEST(ProcessServer, ReadsATrailerSectionTooBigForWhatIsLeftOfTheBuffer) {
  explained_in("ch07-buffer");
  ch07::server s([](rdv::web::request& r) {
    rdv::web::response answer;
    answer.body = std::string(r.body);
    return answer;
  });
  const std::string request = chunked_with_trailers();
  ASSERT_GT(request.size(), 2048u + 100u);
  rdv::test::client c(s.thread);
  for (std::size_t split = 1; split < request.size() && !::testing::Test::HasFailure(); ++split) {
    c.send(request.substr(0, split));  // two writes, two segments: the reads may split anywhere
    c.send(request.substr(split));
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 200) << "split at byte " << split << "\n" << c.transcript();
    EXPECT_EQ(r.body, "hello") << "split at byte " << split << "\n" << c.transcript();
  }
}

TEST(BadInput, ABadTrailerLineIsRefusedWhereverTheReadsSplitIt) {
  explained_in("ch07-buffer");
  ch07::server s;
  const std::string request = chunked_with_trailers("A trailer line without a colon\r\n");
  for (std::size_t split = 1; split < request.size() && !::testing::Test::HasFailure(); ++split) {
    rdv::test::client c(s.thread);
    c.send(request.substr(0, split));
    c.send(request.substr(split));
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 400) << "split at byte " << split << "\n" << c.transcript();
  }
}

TEST(ProcessServer, Answers204WithoutContentLength) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request& request) {
    if (request.head.target == "/text") return rdv::web::text_response(204);  // a body to leave out
    rdv::web::response answer;
    answer.status = 204;
    return answer;
  });
  rdv::test::client c(s.thread);
  c.send(get);
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 204) << c.transcript();
  EXPECT_EQ(r.reason, "No Content") << c.transcript();
  EXPECT_FALSE(r.has_field("Content-Length"))
      << "a 204 response has no body and must not say Content-Length (RFC 9110 §8.6)\n"
      << c.transcript();
  c.send(get);  // and the connection goes on
  EXPECT_EQ(c.read_response().status, 204) << c.transcript();
  c.send("GET /text HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(get));
  EXPECT_EQ(c.read_response().status, 204) << c.transcript();
  EXPECT_EQ(c.read_response().status, 204)
      << "a 204 whose response held a body must leave it out: its bytes would be read as the "
         "next answer\n"
      << c.transcript();
}

TEST(ProcessServer, Answers304WithTheLengthItsWriterAnnouncesAndNoBody) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request&) {
    rdv::web::response answer;
    answer.status = 304;
    answer.writer = rdv::web::announced_length(1234);
    return answer;
  });
  rdv::test::client c(s.thread);
  c.send(get);
  const auto r = c.read_response(true);  // a 304 has no body, whatever its length says
  EXPECT_EQ(r.status, 304) << c.transcript();
  EXPECT_EQ(r.field("Content-Length"), "1234")
      << "a 304's Content-Length is the one its 200 would have had\n"
      << c.transcript();
  c.send(get);  // no body bytes in between
  EXPECT_EQ(c.read_response(true).status, 304) << c.transcript();
}

TEST(ProcessServer, AnswersHeadWithoutABody) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client c(s.thread);
  c.send("HEAD /test HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto r = c.read_response(true);
  EXPECT_EQ(r.field("Content-Length"), "7") << c.transcript();
  c.send(get);  // no stray body bytes in between
  expect_seven_bytes(c, "keep-alive");
  // A method's name is case-sensitive: "head" is another method, whose
  // answer has its body. Sent without it, the client would take the next
  // answer's first bytes for it.
  c.send("head /test HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(get));
  expect_seven_bytes(c, "keep-alive");
  expect_seven_bytes(c, "keep-alive");
}

// Chapter 8's files leave through a body writer: HEAD sends none of it.
TEST(ProcessServer, AnswersHeadWithoutTheBodyItsWriterWouldSend) {
  explained_in("ch07-connection");
  ch07::server s([](rdv::web::request&) {
    rdv::web::response answer;
    answer.writer = rdv::web::body_writer{
        7, [](boost::asio::ip::tcp::socket& socket, std::string_view head,
              std::chrono::milliseconds patience) {
          return rdv::web::send_all(socket, {head, std::string_view("1234567")}, patience);
        }};
    return answer;
  });
  rdv::test::client c(s.thread);
  c.send("HEAD /test HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(get));
  const auto r = c.read_response(true);
  EXPECT_EQ(r.field("Content-Length"), "7") << c.transcript();
  expect_seven_bytes(c, "keep-alive");  // the GET's answer, with no body of the HEAD before it
}

TEST(ProcessServer, ClientLeavingMidRequestDoesNotDisturbOthers) {
  explained_in("ch07-connection");
  ch07::server s;
  rdv::test::client staying(s.thread);
  {
    rdv::test::client leaving(s.thread);
    leaving.send(get.substr(0, 12));
  }
  staying.send(get);
  expect_seven_bytes(staying, "keep-alive");
}

}  // namespace
