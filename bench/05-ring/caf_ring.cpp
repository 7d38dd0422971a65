// The ring in CAF 0.17 (the C++ Actor Framework): N event-based actors pass a
// token round M times. One scheduler thread, like the other rings.
// Usage: caf_ring N M. Prints the same lines as the course's ring.
#include <caf/all.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace caf;
using std::chrono::steady_clock;

namespace {

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

struct forwarder_state {
  actor next;
  long laps_left = 0;
};

behavior forwarder(stateful_actor<forwarder_state>* self, actor next, long laps) {
  self->state.next = std::move(next);
  self->state.laps_left = laps;
  return {[self](std::uint64_t hops) {
    self->send(self->state.next, hops + 1);
    if (--self->state.laps_left == 0) self->quit();
  }};
}

struct lead_state {
  long laps_left = 0;
};

// The first actor: spawns the others, each knowing the next, then sends the
// token round and prints what it measured.
behavior lead(stateful_actor<lead_state>* self, long n, long m) {
  const double memory_before = resident_bytes();
  const auto started = steady_clock::now();
  actor next = actor_cast<actor>(self);
  for (long i = 1; i < n; ++i) next = self->spawn(forwarder, next, m);
  const auto spawned = steady_clock::now();
  const double memory_after = resident_bytes();
  self->state.laps_left = m;
  self->send(next, std::uint64_t{0});
  return {[=](std::uint64_t hops) {
    if (--self->state.laps_left > 0) {
      self->send(next, hops + 1);
      return;
    }
    const auto finished = steady_clock::now();
    std::printf("hops %llu\nspawn_us_per_process %.3f\nns_per_hop %.1f\n"
                "rss_bytes_per_process %.0f\n",
                static_cast<unsigned long long>(hops + 1),
                std::chrono::duration<double, std::micro>(spawned - started).count() / n,
                std::chrono::duration<double, std::nano>(finished - spawned).count() /
                    (static_cast<double>(n) * static_cast<double>(m)),
                (memory_after - memory_before) / static_cast<double>(n));
    self->quit();
  }};
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: caf_ring N M\n");
    return 2;
  }
  const long n = std::atol(argv[1]), m = std::atol(argv[2]);
  actor_system_config config;
  // CAF starts a worker per core by default; on a loaded 2-core machine those
  // fight over the token. One worker, like Erlang's +S 1.
  config.set("scheduler.max-threads", 1);
  actor_system system{config};
  system.spawn(lead, n, m);
  system.await_all_actors_done();
}
