// The ring in Boost.Fiber: N fibers, each reading the token from its own
// unbuffered channel and writing it to the next one's, round M times.
// Usage: fiber_ring N M. Prints the same lines as the course's ring.
#include <boost/fiber/all.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <vector>

namespace fibers = boost::fibers;
using channel = fibers::unbuffered_channel<std::uint64_t>;
using std::chrono::steady_clock;

namespace {

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fiber_ring N M\n");
    return 2;
  }
  const long n = std::atol(argv[1]), m = std::atol(argv[2]);
  if (n < 2 || m < 1) {
    std::fprintf(stderr, "fiber_ring: N must be at least 2 and M at least 1\n");
    return 2;
  }
  const double memory_before = resident_bytes();
  const auto started = steady_clock::now();
  // The main fiber is the first of the ring; channel i leads into fiber i.
  std::vector<std::unique_ptr<channel>> inbox(n);
  for (auto& c : inbox) c = std::make_unique<channel>();
  for (long i = 1; i < n; ++i) {
    fibers::fiber(fibers::launch::post, std::allocator_arg, fibers::fixedsize_stack(64 * 1024),
                  [&inbox, i, n, m] {
                    channel& in = *inbox[i];
                    channel& out = *inbox[(i + 1) % n];
                    for (long lap = 0; lap < m; ++lap) out.push(in.value_pop() + 1);
                  })
        .detach();
  }
  const auto spawned = steady_clock::now();
  const double memory_after = resident_bytes();
  std::uint64_t hops = 0;
  for (long lap = 0; lap < m; ++lap) {
    inbox[1]->push(hops);
    hops = inbox[0]->value_pop() + 1;
  }
  const auto finished = steady_clock::now();
  std::printf("hops %llu\nspawn_us_per_process %.3f\nns_per_hop %.1f\nrss_bytes_per_process %.0f\n",
              static_cast<unsigned long long>(hops),
              std::chrono::duration<double, std::micro>(spawned - started).count() / n,
              std::chrono::duration<double, std::nano>(finished - spawned).count() /
                  (static_cast<double>(n) * static_cast<double>(m)),
              (memory_after - memory_before) / static_cast<double>(n));
}
