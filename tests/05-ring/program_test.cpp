// The ring program itself, run as a child process: the four lines the
// benchmark reads, and its usage errors.
#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace {

using rdv::test::explained_in;

const std::string ring = rdv::test::built_program("ring");

TEST(Program, RingPrintsTheFourLinesTheBenchmarkReads) {
  explained_in("ch05-ring");
  const auto run = rdv::test::run_to_end(ring, {"100", "3"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(std::regex_search(run.out, std::regex("(^|\n)hops 300\n"))) << run.out;
  for (const char* key : {"spawn_us_per_process", "ns_per_hop", "rss_bytes_per_process"}) {
    EXPECT_TRUE(std::regex_search(run.out, std::regex(std::string("\n") + key + " [0-9.]+\n")))
        << key << " missing from:\n"
        << run.out;
  }
}

TEST(Program, RingRefusesAnEmptyRingWithStatus2) {
  explained_in("ch05-ring");
  const auto empty = rdv::test::run_to_end(ring, {"0", "1"});
  EXPECT_EQ(empty.status, 2) << empty.err;
  const auto missing = rdv::test::run_to_end(ring, {"10"});
  EXPECT_EQ(missing.status, 2) << missing.err;
}

}  // namespace
