// Chapter 2: the parser as a whole: pipelining, limits, keep-alive, responses.
#include "parse_driver.hpp"
#include "request_cases.hpp"
#include "request_parser.hpp"
#include "response_parser.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace {

using rdv::http::parse_error;
using rdv::test::explained_in;
using rdv::test::summary;

TEST(Pipelining, ParsesRequestsThatFollowEachOtherInAnySplit) {
  explained_in("ch02-pipelining");
  rdv::test::expect_cases(rdv::test::pipelined_cases());
}

TEST(Pipelining, GivesTheSameRequestsWhenEveryByteArrivesAlone) {
  explained_in("ch02-pipelining");
  for (const auto& c : rdv::test::all_request_cases()) {
    std::vector<std::size_t> every(c.input.size());
    std::iota(every.begin(), every.end(), 0);
    EXPECT_EQ(summary(rdv::test::parse_in_pieces(c.input, every)), c.expected)
        << "case: " << c.what << ", fed one byte at a time: " << rdv::test::in_quotes(c.input);
  }
}

rdv::http::limits small_limits() {
  rdv::http::limits l;
  l.max_start_line = 32;
  l.max_head = 128;
  l.max_fields = 4;
  l.max_body = 10;
  return l;
}

// A request whose request line is `line_size` bytes long, without CRLF.
std::string request_line_of(std::size_t line_size) {
  std::string line = "GET /";
  line.append(line_size - line.size() - 9, 'a');
  return line + " HTTP/1.1\r\nHost: h\r\n\r\n";
}

TEST(Limits, RefuseALongRequestLineWith414) {
  explained_in("ch02-limits");
  const auto limits = small_limits();
  EXPECT_EQ(summary(rdv::test::parse_whole(request_line_of(32), limits)),
            "GET /" + std::string(18, 'a') + " HTTP/1.1 [Host: h]");
  EXPECT_EQ(summary(rdv::test::parse_whole(request_line_of(33), limits)), "start_line_too_long");
  // ...without waiting for the end of a line that is already too long
  EXPECT_EQ(summary(rdv::test::parse_whole("GET /" + std::string(100, 'a'), limits)),
            "start_line_too_long");
  // ...and only the first bytes of a line decide, so any split gives the same
  // verdict (the fuzzer found this one: a NUL after the limit).
  const std::string past_limit = "GET /" + std::string(40, 'a') + '\0';
  std::vector<std::size_t> every(past_limit.size());
  std::iota(every.begin(), every.end(), 0);
  EXPECT_EQ(summary(rdv::test::parse_whole(past_limit, limits)), "start_line_too_long");
  EXPECT_EQ(summary(rdv::test::parse_in_pieces(past_limit, every, limits)), "start_line_too_long");
}

TEST(Limits, RefuseALargeHeadWith431) {
  explained_in("ch02-limits");
  const auto limits = small_limits();
  const std::string start = "GET / HTTP/1.1\r\nHost: h\r\n";  // 25 bytes
  const std::string filler = "X: " + std::string(128 - 25 - 2 - 5, 'v') + "\r\n";
  EXPECT_EQ(summary(rdv::test::parse_whole(start + filler + "\r\n", limits)),
            "GET / HTTP/1.1 [Host: h] [X: " + std::string(96, 'v') + "]")
      << "a head of exactly max_head bytes is accepted";
  EXPECT_EQ(summary(rdv::test::parse_whole(start + "Y" + filler + "\r\n", limits)),
            "head_too_large");
  EXPECT_EQ(summary(rdv::test::parse_whole(start + "X: " + std::string(200, 'v'), limits)),
            "head_too_large")
      << "a head that has grown past the limit is refused before it ends";
  const std::string four = "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n";
  EXPECT_EQ(summary(rdv::test::parse_whole(four + "\r\n", limits)),
            "GET / HTTP/1.1 [Host: h] [A: 1] [B: 2] [C: 3]");
  EXPECT_EQ(summary(rdv::test::parse_whole(four + "D: 4\r\n\r\n", limits)), "too_many_fields");
}

TEST(Limits, RefuseALargeBodyWith413) {
  explained_in("ch02-limits");
  const auto limits = small_limits();
  const std::string post = "POST / HTTP/1.1\r\nHost: h\r\n";
  EXPECT_EQ(summary(rdv::test::parse_whole(post + "Content-Length: 10\r\n\r\n0123456789", limits)),
            "POST / HTTP/1.1 [Host: h] [Content-Length: 10] body=<0123456789>");
  EXPECT_EQ(summary(rdv::test::parse_whole(post + "Content-Length: 11\r\n\r\n", limits)),
            "body_too_large");
  EXPECT_EQ(summary(rdv::test::parse_whole(
                post + "Transfer-Encoding: chunked\r\n\r\n9\r\n012345678\r\n2\r\n", limits)),
            "body_too_large");
}

TEST(KeepAlive, FollowsTheVersionAndTheConnectionField) {
  explained_in("ch02-keep-alive");
  const struct {
    const char* request;
    bool keeps_alive;
  } cases[] = {
      {"GET / HTTP/1.1\r\nHost: h\r\n\r\n", true},
      {"GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false},
      {"GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, CLOSE\r\n\r\n", false},
      {"GET / HTTP/1.0\r\n\r\n", false},
      {"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true},
      {"GET / HTTP/1.0\r\nConnection: Keep-Alive, close\r\n\r\n", false},
      {"POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
       false},
  };
  for (const auto& [request, keeps] : cases) {
    const auto outcome = rdv::test::parse_whole(request);
    ASSERT_EQ(outcome.requests.size(), 1u) << summary(outcome);
    EXPECT_EQ(outcome.requests[0].keep_alive, keeps) << rdv::test::in_quotes(request);
  }
}

// Parses one response to a `method` request; returns "status reason [fields] body=<...>".
std::string parse_response(std::string_view input, const char* method = "GET",
                           bool closes = false) {
  rdv::http::response_parser parser;
  parser.answering(method);
  std::string out;
  for (;;) {
    const auto s = parser.next(input);
    input.remove_prefix(s.used);
    switch (s.what) {
    case rdv::http::event::head:
      out = std::to_string(parser.head().status) + ' ' + std::string(parser.head().reason);
      for (const auto f : parser.head().fields) {
        out += " [" + std::string(f.name) + ": " + std::string(f.value) + ']';
      }
      break;
    case rdv::http::event::body: out += " body=<" + std::string(s.data) + '>'; break;
    case rdv::http::event::end:
      return out + (input.empty() ? "" : " rest=" + rdv::test::in_quotes(input));
    case rdv::http::event::error: return std::string(rdv::http::name_of(parser.error()));
    case rdv::http::event::need_more:
      if (closes && parser.finish_at_close()) return out + " (closed)";
      return out + " incomplete";
    }
  }
}

TEST(Responses, ShareTheFieldAndBodyMachinery) {
  explained_in("ch02-responses");
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"),
            "200 OK [Content-Length: 2] body=<hi>");
  EXPECT_EQ(parse_response("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "1\r\nx\r\n0\r\n\r\nHTTP/1.1"),
            "404 Not Found [Transfer-Encoding: chunked] body=<x> rest=\"HTTP/1.1\"");
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", "HEAD"),
            "200 OK [Content-Length: 2]")
      << "a response to HEAD has no body, whatever its fields say";
  EXPECT_EQ(parse_response("HTTP/1.1 204 No Content\r\n\r\n"), "204 No Content");
  EXPECT_EQ(parse_response("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"),
            "304 Not Modified [Content-Length: 9]");
  EXPECT_EQ(parse_response("HTTP/1.0 200\r\n\r\nuntil the end", "GET", true),
            "200  body=<until the end> (closed)");
  EXPECT_EQ(parse_response("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            "conflicting_content_length");
  EXPECT_EQ(parse_response("HTTP/1.1 20 OK\r\n\r\n"), "bad_status_line");
  EXPECT_EQ(parse_response("HTTP/2 200 OK\r\n\r\n"), "bad_status_line");
  EXPECT_EQ(parse_response("HTTP/2.0 200 OK\r\n\r\n"), "version_not_supported");
}

TEST(Responses, TellWhetherTheConnectionStaysOpen) {
  explained_in("ch02-responses");
  const struct {
    const char* response;
    bool keeps_alive;
  } cases[] = {
      {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true},
      {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false},
      {"HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", true},
      {"HTTP/1.1 200 OK\r\n\r\n", false},  // the body runs until the connection closes
  };
  for (const auto& [response, keeps] : cases) {
    rdv::http::response_parser parser;
    ASSERT_EQ(parser.next(response).what, rdv::http::event::head) << rdv::test::in_quotes(response);
    EXPECT_EQ(rdv::http::keeps_alive(parser.head(), parser.body_framing()), keeps)
        << rdv::test::in_quotes(response);
  }
  EXPECT_EQ(rdv::http::reason_phrase(431), "Request Header Fields Too Large");
  EXPECT_EQ(rdv::http::reason_phrase(408), "Request Timeout");
  EXPECT_EQ(rdv::http::reason_phrase(405), "Method Not Allowed");
  EXPECT_EQ(rdv::http::reason_phrase(504), "Gateway Timeout");
  EXPECT_EQ(rdv::http::reason_phrase(299), "");
}

}  // namespace
