// Chapter 2, exercise 3: where a request's body ends.
#include "body_framing.hpp"
#include "parse_driver.hpp"
#include "request_cases.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::http::body_kind;
using rdv::http::parse_error;
using rdv::test::explained_in;

TEST(ContentLength, ReadsDigitsAndListsOfEqualValues) {
  explained_in("ch02-content-length");
  const struct {
    const char* value;
    parse_error error;
    std::uint64_t length;
  } cases[] = {
      {"0", parse_error::none, 0},
      {"42", parse_error::none, 42},
      {"007", parse_error::none, 7},
      {"18446744073709551615", parse_error::none, 18446744073709551615u},
      {"5, 5", parse_error::none, 5},
      {"5,5,,5", parse_error::none, 5},
      {"18446744073709551616", parse_error::bad_content_length, 0},
      {"", parse_error::bad_content_length, 0},
      {"-1", parse_error::bad_content_length, 0},
      {"+1", parse_error::bad_content_length, 0},
      {"1.0", parse_error::bad_content_length, 0},
      {"1 2", parse_error::bad_content_length, 0},
      {"5, 6", parse_error::conflicting_content_length, 0},
  };
  for (const auto& c : cases) {
    std::optional<std::uint64_t> length;
    const parse_error e = rdv::http::parse_content_length(c.value, length);
    EXPECT_EQ(e, c.error) << "parse_content_length(" << rdv::test::in_quotes(c.value) << ") gave "
                          << rdv::http::name_of(e);
    if (c.error == parse_error::none) {
      EXPECT_EQ(length, c.length) << "for " << rdv::test::in_quotes(c.value);
    }
  }
}

// request_framing() on the fields of `head` (a request head without its blank line).
parse_error framing_of(const std::string& head, rdv::http::framing& out) {
  rdv::http::request_parser parser;
  const std::string request = head + "\r\n\r\n";
  const auto s = parser.next(request);
  if (s.what == rdv::http::event::error) return parser.error();
  out = parser.body_framing();
  return parse_error::none;
}

TEST(Framing, ComesFromContentLengthOrTransferEncoding) {
  explained_in("ch02-framing");
  const std::string head = "POST / HTTP/1.1\r\nHost: x";
  rdv::http::framing how;
  ASSERT_EQ(framing_of(head, how), parse_error::none);
  EXPECT_EQ(how.kind, body_kind::none) << "no Content-Length, no Transfer-Encoding: no body";
  ASSERT_EQ(framing_of(head + "\r\nContent-Length: 12", how), parse_error::none);
  EXPECT_EQ(how.kind, body_kind::length);
  EXPECT_EQ(how.length, 12u);
  ASSERT_EQ(framing_of(head + "\r\ntransfer-encoding: CHUNKED", how), parse_error::none);
  EXPECT_EQ(how.kind, body_kind::chunked);
}

TEST(Framing, RefusesAmbiguousFraming) {
  explained_in("ch02-smuggling");
  const std::string head = "POST / HTTP/1.1\r\nHost: x\r\n";
  rdv::http::framing how;
  EXPECT_EQ(framing_of(head + "Content-Length: 3\r\nTransfer-Encoding: chunked", how),
            parse_error::length_and_transfer_encoding);
  EXPECT_EQ(framing_of(head + "Content-Length: 3\r\nTransfer-Encoding: gzip, chunked", how),
            parse_error::length_and_transfer_encoding)
      << "both fields: whatever the codings, that is the error (and its status, 400)";
  for (const char* codings : {"gzip", "identity", "xchunked", "chunked, gzip"}) {
    EXPECT_EQ(framing_of(head + "Content-Length: 3\r\nTransfer-Encoding: " + codings, how),
              parse_error::length_and_transfer_encoding)
        << "Content-Length and Transfer-Encoding: " << codings
        << ": both fields, and a body with no end either reader agrees on";
  }
  EXPECT_EQ(framing_of(head + "Content-Length: 3\r\nContent-Length: 4", how),
            parse_error::conflicting_content_length);
  EXPECT_EQ(framing_of(head + "Content-Length: 2000000\r\nContent-Length: 5", how),
            parse_error::conflicting_content_length)
      << "two lengths that differ are a conflict (400), whatever each says: not a body too "
         "large (413), which a smaller body would mend";
  EXPECT_EQ(framing_of(head + "Transfer-Encoding: chunked, identity", how),
            parse_error::bad_transfer_encoding);
  EXPECT_EQ(framing_of(head + "Transfer-Encoding: compress, chunked", how),
            parse_error::unknown_transfer_coding);
}

}  // namespace
