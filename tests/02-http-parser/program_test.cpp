// The echo program itself, run as a child process: the server conventions
// of the course, and --stdin, which parses a file of requests.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/descriptor_limit.hpp"
#include "rdv/test/idle_clients.hpp"
#include "rdv/test/program.hpp"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <chrono>

namespace {

using rdv::test::explained_in;

const std::string echo = rdv::test::built_program("echo");

TEST(Program, ListensWhereToldAndStopsCleanlyOnSigterm) {
  explained_in("ch02-echo");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"));
  c.send("GET /program HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto r = c.read_response();
  EXPECT_NE(r.body.find("\"target\":\"/program\""), std::string::npos) << c.transcript();
  EXPECT_EQ(server.stop(), 0) << "SIGTERM should stop the server with status 0; it printed:\n"
                              << server.output();
}

TEST(Program, ExplainsItselfWithHelp) {
  explained_in("ch02-echo");
  const auto help = rdv::test::run_to_end(echo, {"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--listen HOST:PORT"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--stdin"), std::string::npos) << help.out;
}

TEST(Program, ParsesRequestsFromStandardInput) {
  explained_in("ch02-echo");
  const auto ok = rdv::test::run_to_end(echo, {"--stdin", "--crlf"},
                                        "POST /file HTTP/1.1\nHost: x\nContent-Length: 2\n\nhi");
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  EXPECT_EQ(boost::json::parse(ok.out).at("body"), "hi") << ok.out;
  const auto bad = rdv::test::run_to_end(echo, {"--stdin"}, "GET / HTTP/1.1\nHost: x\n\n");
  EXPECT_EQ(bad.status, 1) << "a malformed request makes --stdin exit with status 1";
  EXPECT_EQ(boost::json::parse(bad.out).at("error"), "bare_lf") << bad.out;
}

TEST(Program, HangsUpOnAClientThatCompletesNoRequest) {
  explained_in("ch02-echo");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0", "--idle-ms", "300"});
  rdv::test::expect_idle_clients_cut_off(server.port("http"), std::chrono::milliseconds(300));
}

TEST(Program, AWholeRequestGivesTheNextOneItsOwnTime) {
  explained_in("ch02-echo");
  rdv::test::program server(echo, {"--listen", "127.0.0.1:0", "--idle-ms", "300"});
  rdv::test::expect_requests_restart_the_clock(server.port("http"), std::chrono::milliseconds(300));
}

TEST(Program, PausesAcceptingWhenOutOfFileDescriptors) {
  explained_in("ch02-echo");
  rdv::test::descriptor_limit limit(echo, {}, "GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
  limit.expect_pause_then_recovery();
}

}  // namespace
