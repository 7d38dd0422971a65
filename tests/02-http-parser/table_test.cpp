// Chapter 2: the whole parser on the table of requests (request_cases.cpp),
// each one whole and split in two at every byte boundary. These tests need
// every exercise up to their group's, so they run after the tests of the
// single functions: the first failure still points at the first exercise to do.
#include "parse_driver.hpp"
#include "request_cases.hpp"
#include "request_parser.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

TEST(Requests, ParseTheRequestLineTableInAnySplit) {
  explained_in("ch02-request-line");
  rdv::test::expect_cases(rdv::test::request_line_cases());
}

TEST(Fields, AreFoundByNameIgnoringCase) {
  explained_in("ch02-fields");
  rdv::http::request_parser parser;
  const std::string_view head = "GET / HTTP/1.1\r\nHost: a\r\nCONNECTION: Keep-Alive, Upgrade\r\n"
                                "Accept: text/html\r\naccept: */*\r\n\r\n";
  ASSERT_EQ(parser.next(head).what, rdv::http::event::head);
  const rdv::http::field_list& fields = parser.head().fields;
  EXPECT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields.find("host"), "a");
  EXPECT_EQ(fields.find("ACCEPT"), "text/html") << "find() gives the first field of that name";
  EXPECT_EQ(fields.count("Accept"), 2u);
  EXPECT_FALSE(fields.find("Cookie").has_value());
  EXPECT_TRUE(fields.has_token("connection", "upgrade"));
  EXPECT_TRUE(fields.has_token("Connection", "keep-alive"));
  EXPECT_FALSE(fields.has_token("Connection", "close"));
  EXPECT_EQ(fields[2].name, "Accept");
  EXPECT_EQ(fields[3].value, "*/*");
  EXPECT_TRUE(rdv::http::iequals("Content-Length", "content-LENGTH"));
  EXPECT_FALSE(rdv::http::iequals("Content-Length", "Content-Lengt"));
  EXPECT_FALSE(rdv::http::iequals("@[", "`{")) << "only letters have a case";
  EXPECT_FALSE(rdv::http::has_token("keep-alive-ish, x", "keep-alive"));
}

TEST(Requests, ParseTheFieldTableInAnySplit) {
  explained_in("ch02-fields");
  rdv::test::expect_cases(rdv::test::field_cases());
}

TEST(Requests, ParseTheFramingTableInAnySplit) {
  explained_in("ch02-framing");
  rdv::test::expect_cases(rdv::test::framing_cases());
}

TEST(Requests, ParseTheChunkedTableInAnySplit) {
  explained_in("ch02-chunked");
  rdv::test::expect_cases(rdv::test::chunked_cases());
}

}  // namespace
