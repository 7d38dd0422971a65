// Chapter 5's tests: one process of the ring (exercise ch05.1), the ring
// built behind its first process (ch05.2), and whole rings: exactly N×M
// messages, every process ended; and the measuring (ch05.3), by
// instruments that tell the time by what happened. Real timing is the
// benchmark's business.
#include "ring.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/proc_status.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
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

TEST_F(Ring, SendsOnceAndSwitchesOnceAHop) {
  explained_in("ch05-measure");
  // A hop is one message sent and one switch (the page's ns/hop divides by
  // N×M). The switches: one into each process, to start it; one a hop,
  // except the first, whose receiver starts with the token waiting; and
  // one back to run()'s caller: N×M + N in all. A ring of one sends to
  // itself, and finds the token waiting every time: it switches in and out.
  for (auto [n, m] : {std::pair{1L, 4L}, {2L, 3L}, {2L, 40L}, {50L, 20L}, {400L, 2L}}) {
    const std::uint64_t sent_before = node.sends(), before = node.switches();
    rdv::ring::run(node, n, m);
    EXPECT_EQ(node.sends() - sent_before, static_cast<std::uint64_t>(n * m))
        << "ring N=" << n << " M=" << m
        << ": a hop is one message sent, and the token makes N×M hops, no more (none after the "
           "last lap) and no fewer (a ring of one sends the token to its first process too)";
    const auto made = node.switches() - before;
    const auto expected = static_cast<std::uint64_t>(n == 1 ? 2 : n * m + n);
    EXPECT_EQ(made, expected)
        << "ring N=" << n << " M=" << m << " made " << made << " switches, where " << expected
        << " do: one to start each process, one a hop but the first, and one back to run()'s "
           "caller. Does a process give the CPU up (yield()) where nothing waits for it, while "
           "the ring is built or the token goes round? Each such switch is counted in the "
           "spawns' or the hops' time.";
  }
}

// Instruments that tell the time by what has happened, not by a clock:
// every process spawned costs 1,234 ns (not a whole number of
// microseconds, so that a rounding shows); the laps, from the moment all N
// processes are alive to the moment the leader is alone again, cost 10 ns a
// hop and 3 ns more; a reading of the memory costs a millisecond; every live
// process holds 4,096 bytes. Read at the right moments, they give exactly
// those figures back; read at the wrong ones, or divided by the wrong count,
// they give others.
class scripted_instruments {
public:
  static constexpr std::chrono::nanoseconds memory_read{1'000'000};

  scripted_instruments(scheduler& node, long n, long m) : node_(node), n_(n), m_(m) {}

  rdv::ring::instruments tools() {
    return {.now = [this] { return clock(); },
            .resident =
                [this] {
                  now();  // what happened until this reading
                  time_ += memory_read;
                  return 4096.0 * static_cast<double>(node_.process_count());
                }};
  }
  // How often the clock was read while the whole ring was alive.
  int reads_during_laps() const { return reads_during_laps_; }
  // How often the memory or the clock was read while a message waited in
  // the reader's mailbox (a token sent too early, or once too often).
  int reads_with_mail_waiting() const { return reads_with_mail_waiting_; }

private:
  std::chrono::nanoseconds now() {
    if (node_.in_process() && !node_.own_mailbox().empty()) ++reads_with_mail_waiting_;
    const auto alive = static_cast<long>(node_.process_count());
    if (alive > alive_) time_ += std::chrono::nanoseconds(1234 * (alive - alive_));       // spawns
    if (alive_ == n_ && alive < n_) time_ += std::chrono::nanoseconds(10 * n_ * m_ + 3);  // laps
    alive_ = alive;
    return time_;
  }
  std::chrono::nanoseconds clock() {
    if (static_cast<long>(node_.process_count()) == n_ && n_ > 1) ++reads_during_laps_;
    return now();
  }

  scheduler& node_;
  long n_, m_;
  long alive_ = 0;
  int reads_during_laps_ = 0;
  int reads_with_mail_waiting_ = 0;
  std::chrono::nanoseconds time_{1'000'000};
};

TEST_F(Ring, MeasuresASpawnAndAHopApartAndAProcessWhileAllAreAlive) {
  explained_in("ch05-measure");
  for (auto [n, m] : {std::pair{5L, 1L}, {4L, 3L}, {7L, 2L}}) {
    scripted_instruments script(node, n, m);
    const rdv::ring::result r = rdv::ring::run(node, n, m, script.tools());
    const auto ring = "ring N=" + std::to_string(n) + " M=" + std::to_string(m);
    const auto processes = static_cast<double>(n), hops = static_cast<double>(n * m);
    EXPECT_EQ(r.hops, static_cast<std::uint64_t>(n * m)) << ring;
    const double per_spawn = 1234.0 * (processes - 1) / processes;
    EXPECT_DOUBLE_EQ(r.spawn_ns, per_spawn)
        << ring
        << ": the n-1 spawns took 1,234 ns each, and a spawn's cost is their time over "
           "N; did a reading of the memory (1 ms here), or a rounding, get into it?";
    const double per_hop = (10.0 * hops + 3) / hops;
    const double with_the_memory_read =  // the reading after the spawns, as the peers place it
        (10.0 * hops + 3 + static_cast<double>(scripted_instruments::memory_read.count())) / hops;
    EXPECT_TRUE(std::abs(r.hop_ns - per_hop) < 1e-9 ||
                std::abs(r.hop_ns - with_the_memory_read) < 1e-9)
        << ring << ": the laps alone took " << per_hop << " ns a hop over N×M hops (or "
        << with_the_memory_read << " with the one reading of the memory after the spawns), "
        << "but the result says " << r.hop_ns << "; did the spawns, a count, or a rounding get "
        << "into it?";
    EXPECT_DOUBLE_EQ(r.resident_bytes, 4096.0 * (processes - 1) / processes)
        << ring << ": the ring adds 4,096 bytes a process while all of them are alive";
  }
}

TEST_F(Ring, ReadsTheClockAtTheEdgesOfTheLapsOnly) {
  explained_in("ch05-measure");
  scripted_instruments script(node, 4, 50);
  rdv::ring::run(node, 4, 50, script.tools());
  EXPECT_LE(script.reads_during_laps(), 2)
      << "the clock was read while the ring was busy: each reading costs time that no hop took";
}

TEST_F(Ring, SendsTheTokenOnlyBetweenTheReadingsAndOncePerLap) {
  explained_in("ch05-measure");
  // A ring of one: the first process sends the token to itself, so a token
  // sent before the laps begin, or once more after the last, waits in its
  // mailbox when it reads the clock.
  scripted_instruments script(node, 1, 3);
  const rdv::ring::result r = rdv::ring::run(node, 1, 3, script.tools());
  EXPECT_EQ(r.hops, 3u);
  EXPECT_EQ(script.reads_with_mail_waiting(), 0)
      << "a reading found the token waiting: was it sent before the clock was read at the start "
         "of the laps, or once more after the last lap?";
}

TEST_F(Ring, WeighsTheProcessByItsResidentMemory) {
  explained_in("ch05-measure");
  // Resident, not virtual: the stacks' reservations are address space, and
  // would make every process seem to cost its whole 64 KiB.
  const double before = rdv::test::status_bytes("VmRSS"), measured = rdv::ring::resident_bytes(),
               after = rdv::test::status_bytes("VmRSS");
  EXPECT_GE(measured, std::min(before, after) - 256 * 1024);
  EXPECT_LE(measured, std::max(before, after) + 256 * 1024)
      << "resident_bytes() says " << measured << " bytes where VmRSS says " << before
      << ": is it reading /proc/self/statm's second field (resident pages), times the page size?";
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
