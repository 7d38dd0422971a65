// Chapter 2, exercise 1: the request line.
#include "parse_driver.hpp"
#include "request_cases.hpp"
#include "request_parser.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::http::parse_error;
using rdv::test::explained_in;

TEST(RequestLine, SplitsMethodTargetAndVersion) {
  explained_in("ch02-request-line");
  const struct {
    const char* line;
    const char *method, *target;
    int version;
  } cases[] = {
      {"GET / HTTP/1.1", "GET", "/", 11},
      {"POST /a/b?c=d HTTP/1.0", "POST", "/a/b?c=d", 10},
      {"OPTIONS * HTTP/1.1", "OPTIONS", "*", 11},
      {"CONNECT example.com:443 HTTP/1.1", "CONNECT", "example.com:443", 11},
      {"X-CUSTOM_1 http://h/p HTTP/1.9", "X-CUSTOM_1", "http://h/p", 19},
  };
  for (const auto& c : cases) {
    rdv::http::request_head head;
    const parse_error e = rdv::http::parse_request_line(c.line, head);
    EXPECT_EQ(e, parse_error::none)
        << "for " << rdv::test::in_quotes(c.line) << ": " << rdv::http::name_of(e);
    EXPECT_EQ(head.method, c.method) << "the method of " << rdv::test::in_quotes(c.line);
    EXPECT_EQ(head.target, c.target) << "the target of " << rdv::test::in_quotes(c.line);
    EXPECT_EQ(head.version, c.version) << "the version of " << rdv::test::in_quotes(c.line);
  }
}

TEST(RequestLine, NamesWhatIsWrongWithAMalformedLine) {
  explained_in("ch02-request-line");
  const struct {
    const char* line;
    parse_error error;
  } cases[] = {
      {"GET", parse_error::bad_request_line},
      {"GET /", parse_error::bad_request_line},
      {" / HTTP/1.1", parse_error::bad_request_line},
      {"GET\"/ HTTP/1.1", parse_error::bad_method},
      {"(GET / HTTP/1.1", parse_error::bad_method},  // the method runs into "(" at once
      {"GET  / HTTP/1.1", parse_error::bad_target},
      {"GET  HTTP/1.1", parse_error::bad_target},  // no target: the version is not one
      {"GET /a b HTTP/1.1", parse_error::bad_target},
      {"GET / HTTP/1.1 ", parse_error::bad_target},
      {"GET / ", parse_error::bad_version},  // both spaces, and an empty version
      {"GET / HTTP/1.", parse_error::bad_version},
      {"GET / HTTPS/1.1", parse_error::bad_version},
      {"GET / HTTP/1.x", parse_error::bad_version},
      {"GET / HTTP/11", parse_error::bad_version},
      {"GET / HTTP/3.0", parse_error::version_not_supported},
      {"GET / HTTP/0.9", parse_error::version_not_supported},
  };
  for (const auto& c : cases) {
    rdv::http::request_head head;
    const parse_error e = rdv::http::parse_request_line(c.line, head);
    EXPECT_EQ(e, c.error) << "parse_request_line(" << rdv::test::in_quotes(c.line)
                          << ") should fail with " << rdv::http::name_of(c.error) << ", not "
                          << rdv::http::name_of(e);
  }
}

TEST(RequestLine, MapsErrorsToTheirStatus) {
  explained_in("ch02-errors");
  EXPECT_EQ(rdv::http::status_for(parse_error::bad_method), 400);
  EXPECT_EQ(rdv::http::status_for(parse_error::version_not_supported), 505);
  EXPECT_EQ(rdv::http::status_for(parse_error::start_line_too_long), 414);
  EXPECT_EQ(rdv::http::status_for(parse_error::head_too_large), 431);
  EXPECT_EQ(rdv::http::status_for(parse_error::too_many_fields), 431);
  EXPECT_EQ(rdv::http::status_for(parse_error::body_too_large), 413);
  EXPECT_EQ(rdv::http::status_for(parse_error::unknown_transfer_coding), 501);
  EXPECT_EQ(rdv::http::status_for(parse_error::length_and_transfer_encoding), 400);
}

}  // namespace
