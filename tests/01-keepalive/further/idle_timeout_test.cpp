// Chapter 1, going further: keepalive --idle-ms, which hangs up on a client
// that completes no request in time, as chapter 2's echo does. Without it a
// client that connects and says nothing, or sends a byte now and then, holds
// a coroutine and a descriptor for ever. Run: ./course check 01 --further
#include "rdv/test/book.hpp"
#include "rdv/test/idle_clients.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;
using namespace std::chrono_literals;

const std::string keepalive = rdv::test::built_program("keepalive");

TEST(IdleTimeout, KeepaliveTakesTheIdleMsFlag) {
  explained_in("ch01-further");
  const auto help = rdv::test::run_to_end(keepalive, {"--help"});
  EXPECT_TRUE(help.out.find("--idle-ms") != std::string::npos)
      << "keepalive --help should list --idle-ms; it printed:\n"
      << help.out;
  const auto bad = rdv::test::run_to_end(keepalive, {"--idle-ms", "soon"});
  EXPECT_EQ(bad.status, 2) << "--idle-ms takes a number of milliseconds\n" << bad.err;
}

TEST(IdleTimeout, HangsUpOnAClientThatCompletesNoRequest) {
  explained_in("ch01-further");
  rdv::test::program server(keepalive, {"--listen", "127.0.0.1:0", "--idle-ms", "300"});
  rdv::test::expect_idle_clients_cut_off(server.port("http"), 300ms);
}

TEST(IdleTimeout, AWholeRequestGivesTheNextOneItsOwnTime) {
  explained_in("ch01-further");
  rdv::test::program server(keepalive, {"--listen", "127.0.0.1:0", "--idle-ms", "300"});
  rdv::test::expect_requests_restart_the_clock(server.port("http"), 300ms);
}

}  // namespace
