// Chapter 2: the echo program, its JSON, and the server over real connections.
#include "echo.hpp"
#include "echo_json.hpp"

#include "rdv/server.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/escape.hpp"
#include "rdv/test/program.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <random>
#include <sstream>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using rdv::test::explained_in;

// A member of a JSON object as text: a string's contents, anything else as JSON.
std::string at(const json::value& object, const char* key) {
  const json::value* member = object.as_object().if_contains(key);
  if (member == nullptr) return "(no \"" + std::string(key) + "\")";
  return member->is_string() ? std::string(member->as_string()) : json::serialize(*member);
}

TEST(EchoJson, EncodesBodiesAsUtf8TextOrBase64) {
  explained_in("ch02-echo");
  EXPECT_TRUE(rdv::echo::is_utf8("plain ascii"));
  EXPECT_TRUE(rdv::echo::is_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(rdv::echo::is_utf8("caf\xe9"));       // ISO-8859-1
  EXPECT_FALSE(rdv::echo::is_utf8("\xc0\xaf"));      // an overlong '/'
  EXPECT_FALSE(rdv::echo::is_utf8("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(rdv::echo::is_utf8("\xe2\x82"));      // cut short
  EXPECT_EQ(rdv::echo::base64(""), "");
  EXPECT_EQ(rdv::echo::base64("f"), "Zg==");
  EXPECT_EQ(rdv::echo::base64("fo"), "Zm8=");
  EXPECT_EQ(rdv::echo::base64("foo"), "Zm9v");
  EXPECT_EQ(rdv::echo::base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(rdv::echo::base64(std::string("\xff\x00\xfe", 3)), "/wD+");
}

TEST(EchoStdin, PrintsOneLineOfJsonPerRequest) {
  explained_in("ch02-echo");
  std::istringstream in("GET /one HTTP/1.1\nHost: a\n\nPOST /two HTTP/1.1\nHost: a\n"
                        "Content-Length: 3\n\nabc");
  std::ostringstream out;
  EXPECT_EQ(rdv::echo::describe_stream(in, out, true, {}), 0) << out.str();
  std::istringstream lines(out.str());
  std::string first, second;
  ASSERT_TRUE(std::getline(lines, first) && std::getline(lines, second)) << out.str();
  EXPECT_EQ(at(json::parse(first), "target"), "/one");
  EXPECT_EQ(at(json::parse(second), "body"), "abc");
}

TEST(EchoStdin, ReportsAMalformedOrIncompleteRequest) {
  explained_in("ch02-echo");
  std::istringstream bad("GET / HTTP/1.1\r\nHost : a\r\n\r\n");
  std::ostringstream out;
  EXPECT_EQ(rdv::echo::describe_stream(bad, out, false, {}), 1);
  const auto error = json::parse(out.str());
  EXPECT_EQ(at(error, "error"), "space_before_colon") << out.str();
  EXPECT_EQ(at(error, "status"), "400") << out.str();
  std::istringstream cut("GET / HTTP/1.1\r\nHost: a\r\n");
  std::ostringstream cut_out;
  EXPECT_EQ(rdv::echo::describe_stream(cut, cut_out, false, {}), 1);
  EXPECT_EQ(at(json::parse(cut_out.str()), "error"), "incomplete") << cut_out.str();
}

class Echo : public ::testing::Test {
protected:
  rdv::test::server_thread server{
      [](asio::io_context& context, asio::ip::tcp::acceptor& acceptor) {
        asio::spawn(
            context,
            [&acceptor](asio::yield_context yield) { rdv::echo::accept(acceptor, yield, {}); },
            rdv::rethrow);
      },
      {rdv::test::course_run("02"), 8082}};

  // Reads one answer and returns its JSON.
  static json::value read_json(rdv::test::client& c) {
    const auto r = c.read_response();
    EXPECT_EQ(r.status, 200) << c.transcript();
    EXPECT_EQ(r.field("Content-Type"), "application/json") << c.transcript();
    try {
      return json::parse(r.body);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "the answer is not a JSON object (" << e.what() << ")\n" << c.transcript();
      return json::object();
    }
  }

  // A path nobody can hard-code.
  static std::string random_path() {
    static std::mt19937 random(std::random_device{}());
    return "/r" + std::to_string(random()) + "?q=" + std::to_string(random() % 1000);
  }
};

TEST_F(Echo, AnswersWithWhatTheParserSaw) {
  explained_in("ch02-echo");
  rdv::test::client c(server);
  const std::string path = random_path();
  c.send("GET " + path + " HTTP/1.1\r\nHost: example.com\r\nAccept:  */* \r\nX-Two: 1\r\n\r\n");
  const auto got = read_json(c);
  EXPECT_EQ(at(got, "method"), "GET") << c.transcript();
  EXPECT_EQ(at(got, "target"), path) << c.transcript();
  EXPECT_EQ(at(got, "version"), "HTTP/1.1") << c.transcript();
  EXPECT_EQ(got.at("fields"), json::parse(R"([{"name":"Host","value":"example.com"},
      {"name":"Accept","value":"*/*"},{"name":"X-Two","value":"1"}])"))
      << c.transcript();
  EXPECT_EQ(at(got, "framing"), "none") << c.transcript();
}

TEST_F(Echo, EchoesBodiesOfEveryFraming) {
  explained_in("ch02-echo");
  rdv::test::client c(server);
  c.send("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world");
  auto got = read_json(c);
  EXPECT_EQ(at(got, "body"), "hello world") << c.transcript();
  EXPECT_EQ(at(got, "framing"), "content-length") << c.transcript();
  c.send("POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
         "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 11\r\n\r\n");
  got = read_json(c);
  EXPECT_EQ(at(got, "body"), "hello world") << c.transcript();
  EXPECT_EQ(got.at("trailers"), json::parse(R"([{"name":"X-Sum","value":"11"}])"))
      << c.transcript();
  c.send(std::string("PUT /c HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n\xff\x00\xfe", 50));
  got = read_json(c);
  EXPECT_EQ(at(got, "body_encoding"), "base64") << c.transcript();
  EXPECT_EQ(at(got, "body"), "/wD+") << c.transcript();
}

TEST_F(Echo, AnswersPipelinedRequestsInOrder) {
  explained_in("ch02-pipelining");
  rdv::test::client c(server);
  const std::string a = random_path(), b = random_path(), d = random_path();
  c.send("GET " + a + " HTTP/1.1\r\nHost: h\r\n\r\nPOST " + b +
         " HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbodyGET " + d +
         " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_EQ(at(read_json(c), "target"), a) << c.transcript();
  EXPECT_EQ(at(read_json(c), "body"), "body") << c.transcript();
  const auto last = read_json(c);
  EXPECT_EQ(at(last, "target"), d) << c.transcript();
  EXPECT_EQ(at(last, "keep_alive"), "false") << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << "nothing may follow the answer to \"Connection: close\"\n"
                               << c.transcript();
}

TEST_F(Echo, KeepsAliveAndReadsRequestsInSmallPieces) {
  explained_in("ch02-keep-alive");
  rdv::test::client c(server);
  for (int i = 0; i < 20; ++i) {
    const std::string path = random_path();
    c.send_in_pieces("POST " + path +
                         " HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "3\r\nabc\r\n0\r\n\r\n",
                     1 + i % 7);
    const auto got = read_json(c);
    EXPECT_EQ(at(got, "target"), path) << c.transcript();
    EXPECT_EQ(at(got, "body"), "abc") << c.transcript();
    if (HasFailure()) return;
  }
  c.send("HEAD /h HTTP/1.0\r\n\r\n");
  const auto head = c.read_response(true);
  EXPECT_EQ(head.body, "") << "an answer to HEAD has no body\n" << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << "HTTP/1.0 without keep-alive closes\n" << c.transcript();
}

TEST_F(Echo, AnswersAMalformedRequestWithItsStatusAndCloses) {
  explained_in("ch02-errors");
  const std::string post = "POST / HTTP/1.1\r\nHost: h\r\n";
  const struct {
    std::string request;
    int status;
  } cases[] = {
      {"GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400},
      {post + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
      {post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {post + "Content-Length: 99999999\r\n\r\n", 413},
      {"GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: h\r\n\r\n", 414},
      {"GET / HTTP/1.1\r\nHost: h\r\nX: " + std::string(17000, 'v') + "\r\n\r\n", 431},
      {post + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501},
      {"GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505},
  };
  for (const auto& [request, status] : cases) {
    rdv::test::client c(server);
    c.send(request);
    const auto r = c.read_response();
    EXPECT_EQ(r.status, status) << c.transcript();
    EXPECT_EQ(r.field("Connection"), "close") << c.transcript();
    EXPECT_FALSE(r.body.empty()) << "a short reason in the body\n" << c.transcript();
    EXPECT_TRUE(c.wait_closed()) << "after a malformed request the connection must close\n"
                                 << c.transcript();
  }
}

}  // namespace
