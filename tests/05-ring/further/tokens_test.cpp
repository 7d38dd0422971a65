// Chapter 5, going further: several tokens in the ring at once.
// `ring N M --tokens K` sends K tokens round, each M laps: N×M×K hops, with
// K messages in flight, so that a process may find several waiting in its
// mailbox. Run: ./course check 05 --further
#include "ring.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;

const std::string ring = rdv::test::built_program("ring");

class Tokens : public rdv::test::scheduler_test {};

TEST_F(Tokens, EveryTokenMakesExactlyMLaps) {
  explained_in("ch05-further");
  const rdv::ring::result r = rdv::ring::run(node, 10, 7, 5);
  EXPECT_EQ(r.hops, 10u * 7u * 5u) << "run(node, 10, 7, 5): 5 tokens, each 7 laps of 10 processes";
  EXPECT_EQ(r.hops_per_token, std::vector<std::uint64_t>(5, 70))
      << "each of the 5 tokens should make 7 laps of 10 hops, no more and no fewer";
  EXPECT_EQ(node.process_count(), 0u) << "every process of the ring should have ended";
}

TEST_F(Tokens, OneTokenIsTheRingAsBefore) {
  explained_in("ch05-further");
  const rdv::ring::result r = rdv::ring::run(node, 10, 7, 1);
  EXPECT_EQ(r.hops, 70u);
  EXPECT_EQ(r.hops_per_token, std::vector<std::uint64_t>{70});
  const rdv::ring::result before = rdv::ring::run(node, 10, 7);
  EXPECT_EQ(before.hops_per_token, std::vector<std::uint64_t>{70})
      << "run(node, N, M) without a number of tokens sends one, as before";
}

TEST_F(Tokens, MoreTokensThanProcessesStillEachMakeMLaps) {
  explained_in("ch05-further");
  const rdv::ring::result r = rdv::ring::run(node, 3, 4, 10);
  EXPECT_EQ(r.hops_per_token, std::vector<std::uint64_t>(10, 12))
      << "10 tokens in a ring of 3 processes, 4 laps each: a process often has several tokens "
         "waiting in its mailbox, and each should still make exactly 4 laps of 3 hops";
  const rdv::ring::result alone = rdv::ring::run(node, 1, 3, 2);
  EXPECT_EQ(alone.hops_per_token, std::vector<std::uint64_t>(2, 3))
      << "a ring of one process sends its 2 tokens to itself, 3 laps each";
}

TEST(TokensProgram, RingTakesTheTokensFlag) {
  explained_in("ch05-further");
  const auto help = rdv::test::run_to_end(ring, {"--help"});
  EXPECT_NE(help.out.find("--tokens"), std::string::npos)
      << "ring --help should list --tokens; it printed:\n"
      << help.out;
  const auto none = rdv::test::run_to_end(ring, {"10", "1", "--tokens", "0"});
  EXPECT_EQ(none.status, 2) << "a ring needs at least one token: --tokens 0 is a usage error\n"
                            << none.err;
}

TEST(TokensProgram, ThePrintedCountsAccountForEveryToken) {
  explained_in("ch05-further");
  const auto run = rdv::test::run_to_end(ring, {"100", "3", "--tokens", "4"});
  EXPECT_EQ(run.status, 0) << "ring 100 3 --tokens 4 should succeed\n" << run.err;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("(^|\n)hops 1200\n")))
      << "ring 100 3 --tokens 4: 4 tokens, 3 laps of 100 hops each, so expected \"hops 1200\"; "
         "it printed:\n"
      << run.out;
  for (const char* key : {"spawn_us_per_process", "ns_per_hop", "rss_bytes_per_process"}) {
    EXPECT_TRUE(std::regex_search(run.out, std::regex(std::string("\n") + key + " [0-9.]+\n")))
        << key << " missing from:\n"
        << run.out;
  }
}

}  // namespace
