// The pingpong program itself, run as a child process.
#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

const std::string pingpong = rdv::test::built_program("pingpong");

TEST(Program, PingpongPlaysThenWatchesACrash) {
  explained_in("ch03-first-look");
  const auto run = rdv::test::run_to_end(pingpong, {"--rounds", "10"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("<0.1.0> spawned <0.2.0> to play with"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("10 round trips"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("is down, reason: std::runtime_error: crashed on purpose"),
            std::string::npos)
      << run.out;
}

TEST(Program, PingpongExplainsItselfAndRefusesZeroRounds) {
  explained_in("ch03-first-look");
  const auto help = rdv::test::run_to_end(pingpong, {"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--rounds N"), std::string::npos) << help.out;
  const auto zero = rdv::test::run_to_end(pingpong, {"--rounds", "0"});
  EXPECT_EQ(zero.status, 2) << zero.err;
}

}  // namespace
