// The keepalive program itself, run as a child process: the conventions every
// server program of the course follows (the book's introduction, "How the
// course works").
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/descriptor_limit.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

const std::string keepalive = rdv::test::built_program("keepalive");

TEST(Program, ListensWhereToldAndStopsCleanlyOnSigterm) {
  explained_in("ch01-main");
  rdv::test::program server(keepalive, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(server.port("http"));
  c.send("GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "1234567") << c.transcript();
  EXPECT_EQ(server.stop(), 0) << "SIGTERM should stop the server with status 0; it printed:\n"
                              << server.output();
}

TEST(Program, ExplainsItselfWithHelp) {
  explained_in("ch01-main");
  const auto help = rdv::test::run_to_end(keepalive, {"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--listen HOST:PORT"), std::string::npos) << help.out;
}

TEST(Program, RejectsABadListenAddressWithStatus2) {
  explained_in("ch01-main");
  const auto bad = rdv::test::run_to_end(keepalive, {"--listen", "nowhere"});
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_NE(bad.err.find("HOST:PORT"), std::string::npos) << bad.err;
}

TEST(Program, PausesAcceptingWhenOutOfFileDescriptors) {
  explained_in("ch01-limits");
  rdv::test::descriptor_limit limit(keepalive, {}, "GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
  limit.expect_pause_then_recovery();
}

}  // namespace
