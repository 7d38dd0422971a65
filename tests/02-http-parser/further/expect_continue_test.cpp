// Chapter 2, going further: `Expect: 100-continue` in echo. A client about
// to send a large body may ask first whether the server wants it; the
// server says `100 Continue` before it reads the body, or refuses at once.
// RFC 9110 §10.1.1. Run: ./course check 02 --further
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

using rdv::test::explained_in;
using namespace std::chrono_literals;

const std::string echo = rdv::test::built_program("echo");

// Reads the next response; a server that sends nothing shows up as a
// failure that says what was expected rather than as a bare timeout.
rdv::test::response next_response(rdv::test::client& c, const std::string& expected) {
  try {
    return c.read_response();
  } catch (const rdv::test::network_error& error) {
    ADD_FAILURE() << "expected " << expected << ", got no response:\n" << error.what();
    return {};
  }
}

TEST(ExpectContinue, AnswersOneHundredContinueBeforeTheBodyIsSent) {
  explained_in("ch02-further");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"), 5s);
  c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  const auto interim = next_response(c, "HTTP/1.1 100 Continue before the body is sent");
  ASSERT_EQ(interim.status, 100)
      << "sent a head with Expect: 100-continue and Content-Length: 5, and no body yet; "
         "expected 100 Continue, so that the client knows to send the body; got:\n"
      << c.transcript();
  c.send("hello");
  const auto r = next_response(c, "the usual 200 once the body has come");
  ASSERT_EQ(r.status, 200) << "after the 100 Continue the client sent the body; expected the "
                              "usual 200; got:\n"
                           << c.transcript();
  EXPECT_EQ(boost::json::parse(r.body).at("body"), "hello")
      << "the 200's JSON should describe the body sent after the 100 Continue:\n"
      << c.transcript();
}

TEST(ExpectContinue, SendsNoOneHundredForARequestWithoutABody) {
  explained_in("ch02-further");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"), 5s);
  c.send("GET /nothing HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n");
  const auto r = next_response(c, "the 200 (there is no body to wait for)");
  EXPECT_EQ(r.status, 200) << "sent a GET without a body and with Expect: 100-continue; there is "
                              "nothing to continue with, so expected the 200 alone; got:\n"
                           << c.transcript();
  c.send("POST /empty HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n");
  const auto empty = next_response(c, "the 200 (an empty body is no body to wait for)");
  EXPECT_EQ(empty.status, 200) << "sent a POST with Content-Length: 0 and Expect: 100-continue; "
                                  "expected the 200 alone; got:\n"
                               << c.transcript();
}

TEST(ExpectContinue, SendsNoOneHundredToAnHttp10Client) {
  explained_in("ch02-further");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"), 5s);
  c.send("POST /old HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  c.send("hello");
  const auto r = next_response(c, "the 200");
  EXPECT_EQ(r.status, 200)
      << "sent an HTTP/1.0 request with Expect: 100-continue; HTTP/1.0 has no 1xx responses, and "
         "RFC 9110 §10.1.1 says to ignore the expectation, so expected the 200 alone; got:\n"
      << c.transcript();
  if (r.status == 200) {
    EXPECT_EQ(boost::json::parse(r.body).at("body"), "hello") << c.transcript();
  }
}

TEST(ExpectContinue, RefusesAnExpectationItCannotMeetWith417) {
  explained_in("ch02-further");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"), 5s);
  c.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 5\r\n\r\n");
  const auto r = next_response(c, "417 Expectation Failed");
  EXPECT_EQ(r.status, 417) << "sent Expect: 200-ok, which echo cannot meet; expected 417 "
                              "Expectation Failed before any body is sent; got:\n"
                           << c.transcript();
}

}  // namespace
