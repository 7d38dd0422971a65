// Chapter 5's tests: one process of the ring (exercise ch05.1), the ring
// built behind its first process (ch05.2), and whole rings: exactly N×M
// messages, every process ended. Timing is the benchmark's business.
#include "ring.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::ring::token;
using rdv::test::explained_in;

class Ring : public rdv::test::scheduler_test {};

TEST_F(Ring, ForwardPassesTheTokenOnOncePerLapThenEnds) {
  explained_in("ch05-ring");
  std::vector<std::uint64_t> seen;
  node.spawn([&seen] {
    const pid me = self();
    const pid forwarder = spawn([me] { rdv::ring::forward(me, 3); });
    for (std::uint64_t start : {10u, 20u, 30u}) {
      send(forwarder, token{start});
      seen.push_back(receive<token>().hops);
    }
  });
  node.run();
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{11, 21, 31})) << "each pass counts one more hop";
  EXPECT_EQ(node.process_count(), 0u) << "the forwarder ends after its three laps";
}

TEST_F(Ring, BuildSpawnsTheRestOfTheRingBehindTheCaller) {
  explained_in("ch05-ring");
  std::uint64_t hops = 0;
  std::size_t processes = 0;
  node.spawn([&] {
    const pid first = rdv::ring::build(4, 1);
    processes = scheduler::current().process_count();
    send(first, token{});
    hops = receive<token>().hops;
  });
  node.run();
  EXPECT_EQ(processes, 4u) << "the caller and three more";
  EXPECT_EQ(hops, 3u) << "the token passes through the three, and comes back to the caller";
  EXPECT_EQ(node.process_count(), 0u);
}

TEST_F(Ring, DeliversExactlyNTimesMMessages) {
  explained_in("ch05-ring");
  for (auto [n, m] : {std::pair{1L, 5L}, {2L, 1L}, {10L, 7L}, {1000L, 3L}}) {
    const rdv::ring::result r = rdv::ring::run(node, n, m);
    EXPECT_EQ(r.hops, static_cast<std::uint64_t>(n * m)) << "ring N=" << n << " M=" << m;
    EXPECT_EQ(node.process_count(), 0u) << "every process ends after its M laps";
    EXPECT_EQ(node.stacks().in_use(), 0u);
  }
}

TEST_F(Ring, RunsWithAHundredThousandProcesses) {
  explained_in("ch05-measure");
#if defined(__SANITIZE_THREAD__)
  constexpr long n = 8'000;  // ThreadSanitizer stops at 8,128 fibers
#else
  constexpr long n = 100'000;
#endif
  const rdv::ring::result r = rdv::ring::run(node, n, 2);
  EXPECT_EQ(r.hops, static_cast<std::uint64_t>(2 * n));
  EXPECT_GT(r.spawn_ns, 0);
  EXPECT_GT(r.hop_ns, 0);
  EXPECT_GT(rdv::ring::resident_bytes(), 0);
}

TEST_F(Ring, RejectsARingWithoutProcessesOrLaps) {
  explained_in("ch05-ring");
  EXPECT_THROW(rdv::ring::run(node, 0, 1), std::invalid_argument);
  EXPECT_THROW(rdv::ring::run(node, 3, 0), std::invalid_argument);
}

}  // namespace
