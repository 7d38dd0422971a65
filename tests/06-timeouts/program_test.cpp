// The idle_echo program itself, run as a child process: the conventions of
// the course's servers (the book's introduction), for a server that speaks
// TCP echo.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

const std::string idle_echo = rdv::test::built_program("idle_echo");

TEST(Program, IdleEchoListensWhereToldAndStopsCleanlyOnSigterm) {
  explained_in("ch06-echo");
  // An idle timeout well inside stop()'s 10 s: under ThreadSanitizer a
  // signal that lands just as the loop goes to sleep is handled only when
  // the thread next wakes, and with a client connected the next wake-up
  // is its idle timer. (With 60 s, one CI run in many was killed.)
  rdv::test::program server(idle_echo, {"--listen", "127.0.0.1:0", "--idle-ms", "2000"});
  rdv::test::client c(server.port("echo"));
  c.send("ping\n");
  EXPECT_EQ(c.read_exactly(5), "ping\n") << c.transcript();
  EXPECT_EQ(server.stop(), 0) << "SIGTERM should stop the server with status 0; it printed:\n"
                              << server.output();
}

TEST(Program, IdleEchoExplainsItselfAndRefusesBadFlags) {
  explained_in("ch06-echo");
  const auto help = rdv::test::run_to_end(idle_echo, {"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--idle-ms MS"), std::string::npos) << help.out;
  EXPECT_EQ(rdv::test::run_to_end(idle_echo, {"--listen", "nowhere"}).status, 2);
  EXPECT_EQ(rdv::test::run_to_end(idle_echo, {"--idle-ms", "0"}).status, 2);
}

}  // namespace
