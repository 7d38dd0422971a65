#pragma once
/// \file
/// Chapter 5: the ring benchmark of Programming Erlang. N processes in a
/// ring pass a token round M times: N×M messages, each one hop.

#include "processes.hpp"

#include <chrono>
#include <cstdint>
#include <functional>

/// Chapter 5's ring benchmark.
namespace rdv::ring {

/// The message that goes round the ring.
struct token {
  std::uint64_t hops = 0;  ///< how many processes have received it so far
};

/// What one run of the ring measured.
struct result {
  std::uint64_t hops = 0;     ///< messages received in all: N×M if all went well
  double spawn_ns = 0;        ///< nanoseconds per process to build the ring (N-1 spawns, over N)
  double hop_ns = 0;          ///< nanoseconds per hop (the token's laps / N×M)
  double resident_bytes = 0;  ///< resident memory added per process while all are alive
};

/// One process of the ring: receives the token `laps` times, passing it on
/// to `next` each time.
void forward(proc::pid next, long laps);

/// Spawns the other `n` - 1 processes of a ring behind the calling process:
/// each forwards the token `laps` times to the next, and the last one's next
/// is the caller. Returns the first of them, to which the caller sends.
proc::pid build(long n, long laps);

/// Resident memory of this process now, in bytes (from /proc/self/statm).
double resident_bytes();

/// What run() reads the time and the memory from: by default the steady
/// clock and /proc; the tests give it instruments they control.
struct instruments {
  /// The time now, from any fixed point.
  std::function<std::chrono::nanoseconds()> now = [] {
    return std::chrono::steady_clock::now().time_since_epoch();
  };
  /// The resident memory of this process now, in bytes.
  std::function<double()> resident = resident_bytes;
};

/// Runs the ring on `node`: a first process spawns the other n-1, each
/// knowing the next, and is itself the last one's next; then it sends the
/// token round m times. Returns when the token is back for the m-th time,
/// with what it measured by `tools`.
result run(proc::scheduler& node, long n, long m, const instruments& tools = {});

}  // namespace rdv::ring
