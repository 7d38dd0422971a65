#include "ring.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <stdexcept>

namespace rdv::ring {

using namespace proc;

//! [forward]
void forward(pid next, long laps) {
  // EXERCISE ch05.1: pass the token on, once per lap
  // HINT: Which receive waits for a message of one type and returns it?
  // HINT: The token counts the hops it makes. Who counts one more, and when?
  // STUB: (void)next; (void)laps;
  for (long lap = 0; lap < laps; ++lap) {
    token t = receive<token>();
    ++t.hops;
    send(next, t);
  }
  // END EXERCISE
}
//! [forward]

//! [build]
pid build(long n, long laps) {
  // EXERCISE ch05.2: spawn the rest of the ring behind the caller, each process knowing the next
  // HINT: A process needs its next's pid when it is spawned, and a pid exists
  //       only once its process does. Of the ring's processes, whose next
  //       exists before you have spawned anyone?
  // HINT: What else does each process need to know? Capture it by value: the
  //       processes outlive this function.
  // STUB: (void)n; (void)laps;
  pid next = self();
  for (long i = 1; i < n; ++i) next = spawn([next, laps] { forward(next, laps); });
  return next;
  // END EXERCISE
}
//! [build]

//! [lead]
// The first process: builds the ring behind itself, sends the token round,
// and measures both apart.
void lead(long n, long m, const instruments& tools, result& measured) {
  // EXERCISE ch05.3: time the spawns and the laps apart, and weigh a process while all are alive
  // HINT: Three moments divide the run: before build(), after it, and when
  //       the token is home for the m-th time. Which of them bound what a
  //       spawn costs, and which what a hop costs? Read them from tools.now(),
  //       and nothing else inside those bounds that is not the ring's work.
  // HINT: A process's memory is what the ring adds while every process is
  //       alive. When is that, and what does it mean to read it later?
  // HINT: What does the token's hop count say once it is home, and by how
  //       many hops, and how many spawns, does each time divide (the page
  //       says)? The counts are integers; the results are not.
  // STUB: (void)n; (void)m; (void)tools; (void)measured;
  const double memory_before = tools.resident();
  const auto started = tools.now();
  const pid first = build(n, m);
  const auto spawned = tools.now();
  const double memory_after = tools.resident();
  token t;
  for (long lap = 0; lap < m; ++lap) {
    send(first, t);
    t = receive<token>();
    ++t.hops;
  }
  const auto finished = tools.now();
  const auto processes = static_cast<double>(n);
  measured.hops = t.hops;
  measured.spawn_ns = static_cast<double>((spawned - started).count()) / processes;
  measured.hop_ns =
      static_cast<double>((finished - spawned).count()) / (processes * static_cast<double>(m));
  measured.resident_bytes = (memory_after - memory_before) / processes;
  // END EXERCISE
}
//! [lead]

result run(scheduler& node, long n, long m, const instruments& tools) {
  if (n < 1 || m < 1) throw std::invalid_argument("ring: N and M must be at least 1");
  result measured;
  node.spawn([&measured, &tools, n, m] { lead(n, m, tools, measured); });
  node.run();
  return measured;
}

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

}  // namespace rdv::ring
