// Chapter 2, exercises 4 and 5: chunked bodies.
#include "body_decoder.hpp"
#include "parse_driver.hpp"
#include "request_cases.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::http::body_decoder;
using rdv::http::parse_error;
using rdv::test::explained_in;

TEST(ChunkSize, ReadsHexDigitsAndChecksTheExtensionsItSkips) {
  explained_in("ch02-chunked");
  const struct {
    const char* line;
    parse_error error;
    std::uint64_t size;
  } cases[] = {
      {"0", parse_error::none, 0},
      {"1a", parse_error::none, 26},
      {"1A", parse_error::none, 26},
      {"000000000000000000ff", parse_error::none, 255},
      {"ffffffffffffffff", parse_error::none, 0xffffffffffffffff},
      {"5;name=value", parse_error::none, 5},
      {"5 ;name", parse_error::none, 5},
      {"5\t; a=\"b;c\"", parse_error::none, 5},
      {"5;a;b=c", parse_error::none, 5},
      {"5 ; a = b", parse_error::none, 5},
      {"5;a=\"\"", parse_error::none, 5},
      {"5;a=\"x\\\"y\\\\\";b", parse_error::none, 5},
      {"5;a ;b", parse_error::none, 5},  // BWS before the next ";" too
      {"5;a=b ;c", parse_error::none, 5},
      {"5;a=\"x\"\t;b", parse_error::none, 5},
      {"5;foo-bar=baz_1.2", parse_error::none, 5},  // tokens, not just letters and digits
      {"5;!#$%&'*+-.^_`|~=!#$%&'*+-.^_`|~", parse_error::none, 5},
      {"10000000000000000", parse_error::chunk_size_overflow, 0},
      {"fffffffffffffffff", parse_error::chunk_size_overflow, 0},  // wraps to no less
      {"1ffffffffffffffff", parse_error::chunk_size_overflow, 0},
      {"123456789abcdef01", parse_error::chunk_size_overflow, 0},  // not the last 16 digits
      {"", parse_error::bad_chunk_size, 0},
      {";ext", parse_error::bad_chunk_size, 0},
      {"-1", parse_error::bad_chunk_size, 0},
      {"0x5", parse_error::bad_chunk_size, 0},
      {"5 ", parse_error::bad_chunk_size, 0},
      {"5 5", parse_error::bad_chunk_size, 0},
      {"5;", parse_error::bad_chunk_size, 0},
      {"5; ", parse_error::bad_chunk_size, 0},
      {"5;a ", parse_error::bad_chunk_size, 0},
      {"5;a=", parse_error::bad_chunk_size, 0},
      {"5;a=;b", parse_error::bad_chunk_size, 0},
      {"5;a= ;b", parse_error::bad_chunk_size, 0},
      {"5;\"a\"=b", parse_error::bad_chunk_size, 0},  // a name is a token, never quoted
      {"5;\"x;y\"", parse_error::bad_chunk_size, 0},
      {"5;=b", parse_error::bad_chunk_size, 0},
      {"5;a b", parse_error::bad_chunk_size, 0},
      {"5;a=b c", parse_error::bad_chunk_size, 0},
      {"5;a=b;", parse_error::bad_chunk_size, 0},
      {"5;a=\"b", parse_error::bad_chunk_size, 0},
      {"5;a=\"b\\\"", parse_error::bad_chunk_size, 0},
      {"5;a=\"b\"c", parse_error::bad_chunk_size, 0},
      {"5;a=(b)", parse_error::bad_chunk_size, 0},
      {"5;a=b ", parse_error::bad_chunk_size, 0},
      {"5;a=\"x\" ", parse_error::bad_chunk_size, 0},
      {" 5", parse_error::bad_chunk_size, 0},
      {"\t5", parse_error::bad_chunk_size, 0},
      {"g", parse_error::bad_chunk_size, 0},
  };
  for (const auto& c : cases) {
    std::uint64_t size = 12345;
    const parse_error e = rdv::http::parse_chunk_size(c.line, size);
    EXPECT_EQ(e, c.error) << "parse_chunk_size(" << rdv::test::in_quotes(c.line) << ") gave "
                          << rdv::http::name_of(e);
    if (c.error == parse_error::none) {
      EXPECT_EQ(size, c.size) << "for " << rdv::test::in_quotes(c.line);
    }
  }
}

// Decodes `body` fed one byte more at a time, the way a slow client sends it.
std::string decode_byte_by_byte(std::string_view body, body_decoder& decoder) {
  std::string decoded, unused;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size()) unused += body[i];
    for (;;) {
      const std::string fresh = unused;  // views must not outlive a call
      const body_decoder::result r = decoder.decode(fresh);
      unused.erase(0, r.used);
      if (r.what == body_decoder::status::piece) {
        decoded += r.data;
        continue;
      }
      if (r.what == body_decoder::status::done)
        return decoded + " (done, rest " + rdv::test::in_quotes(unused) + ")";
      if (r.what == body_decoder::status::failed)
        return std::string(rdv::http::name_of(decoder.error()));
      break;  // need_more
    }
  }
  return decoded + " (not done)";
}

TEST(ChunkedBody, DecodesAsTheBytesTrickleIn) {
  explained_in("ch02-chunked");
  body_decoder decoder;
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("4\r\nWiki\r\n6;x=y\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\n"
                                "Expires: never\r\n\r\n",
                                decoder),
            "Wikipedia in \r\n\r\nchunks. (done, rest \"\")");
  EXPECT_EQ(decoder.trailers().size(), 1u);  // its views died with their input: do not look
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("3\r\nabc\r\n0\r\n\r\n", decoder), "abc (done, rest \"\")");
  EXPECT_EQ(decoder.decoded(), 3u);
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("5\r\nab", decoder), "ab (not done)");
  EXPECT_EQ(decoder.decoded(), 2u) << "decoded() counts the bytes handed out, not the chunks begun";
}

TEST(ChunkedBody, AFinishedBodyStaysFinished) {
  explained_in("ch02-chunked");
  body_decoder decoder;
  decoder.start({rdv::http::body_kind::chunked, 0});
  const std::string_view body = "3\r\nabc\r\n0\r\n\r\n";
  ASSERT_EQ(decode_byte_by_byte(body, decoder), "abc (done, rest \"\")");
  const body_decoder::result again = decoder.decode("GET / HTTP/1.1\r\n");
  EXPECT_EQ(again.what, body_decoder::status::done)
      << "after the last chunk and the trailers, the body is done: what follows is the next "
         "message's";
  EXPECT_EQ(again.used, 0u);
  EXPECT_TRUE(decoder.finish_at_close()) << "the body was complete when the connection closed";
}

TEST(ChunkedBody, KeepsTrailerFieldsAsViews) {
  explained_in("ch02-chunked");
  body_decoder decoder;
  decoder.start({rdv::http::body_kind::chunked, 0});
  const std::string_view body = "1\r\nx\r\n0\r\nX-Sum: 7\r\nX-Note: ok\r\n\r\n";
  auto r = decoder.decode(body);
  ASSERT_EQ(r.what, body_decoder::status::piece);
  r = decoder.decode(body.substr(r.used));
  ASSERT_EQ(r.what, body_decoder::status::done) << rdv::http::name_of(decoder.error());
  const auto trailers = decoder.trailers();
  ASSERT_EQ(trailers.size(), 2u);
  EXPECT_EQ(trailers.find("x-sum"), "7");
  EXPECT_EQ(trailers[1].value, "ok");
}

// Decodes the chunked `body` fed one byte more at a time, by a new decoder
// with the limits `held_to`.
std::string decode_chunked(std::string_view body, const rdv::http::limits& held_to = {}) {
  body_decoder decoder(held_to);
  decoder.start({rdv::http::body_kind::chunked, 0});
  return decode_byte_by_byte(body, decoder);
}

TEST(ChunkedBody, RefusesWhatCanNoLongerBeRightWithoutWaitingForMore) {
  explained_in("ch02-chunked");
  EXPECT_EQ(decode_chunked("5\r\nhelloX"), "bad_chunk_end")
      << "a chunk's data must be followed by CRLF: an X there is wrong already, with nothing "
         "more to come";
  EXPECT_EQ(decode_chunked("5\r\nhello\rX"), "bad_chunk_end");
  EXPECT_EQ(decode_chunked("5;a=" + std::string(rdv::http::max_chunk_line + 1, 'b')),
            "bad_chunk_size")
      << "a chunk-size line past " << rdv::http::max_chunk_line
      << " bytes is refused as soon as it is that long, before its end arrives";
}

TEST(ChunkedBody, HoldsTheTrailersToTheParsersLimits) {
  explained_in("ch02-limits");
  const rdv::http::limits two_fields{.max_fields = 2};
  EXPECT_EQ(decode_chunked("1\r\nx\r\n0\r\nA: 1\r\nB: 2\r\n\r\n", two_fields),
            "x (done, rest \"\")");
  EXPECT_EQ(decode_chunked("1\r\nx\r\n0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", two_fields),
            "too_many_fields")
      << "three trailer fields, with limits allowing two";
  EXPECT_EQ(
      decode_chunked("1\r\nx\r\n0\r\nA: " + std::string(100, 'a') + "\r\n\r\n", {.max_head = 64}),
      "head_too_large")
      << "a trailer section of over 100 bytes, with limits allowing a head of 64";
  // A trailer section of exactly max_head bytes, its blank line included, and one byte more.
  EXPECT_EQ(
      decode_chunked("1\r\nx\r\n0\r\nA: " + std::string(57, 'a') + "\r\n\r\n", {.max_head = 64}),
      "x (done, rest \"\")")
      << "a trailer section of 64 bytes, its blank line included, with limits allowing 64";
  EXPECT_EQ(
      decode_chunked("1\r\nx\r\n0\r\nA: " + std::string(58, 'a') + "\r\n\r\n", {.max_head = 64}),
      "head_too_large")
      << "a trailer section of 65 bytes, its blank line included, with limits allowing 64: the "
         "limit counts the section as it counts a head, blank line and all";
}

TEST(ChunkedBody, StopsAtTheBodyLimit) {
  explained_in("ch02-limits");
  rdv::http::limits small;
  small.max_body = 5;
  body_decoder decoder(small);
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", decoder),
            "abcde (done, rest \"\")");
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n", decoder), "body_too_large");
  decoder.start({rdv::http::body_kind::chunked, 0});
  EXPECT_EQ(decode_byte_by_byte("3\r\nabc\r\nfffffffffffffffe\r\nde", decoder), "body_too_large")
      << "3 bytes so far and 2^64 - 2 more add up to 1 in 64 bits, which is under the limit: "
         "compare the chunk's size with what is left of the limit";
}

}  // namespace
