// The ring with bare Boost.Context fibers: no mailboxes, no scheduler, each
// fiber switches straight to the next one. The floor under any stackful
// runtime. Usage: context_ring N M. Prints the same lines as the course's ring.
#include <boost/context/fiber.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace ctx = boost::context;
using std::chrono::steady_clock;

namespace {

double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

// 64 KiB stacks carved out of one reserved region, as the course's pool does.
struct region_stacks {
  static constexpr std::size_t size = 64 * 1024;
  char** next;  // the top of the last stack handed out
  ctx::stack_context allocate() {
    ctx::stack_context stack;
    stack.size = size;
    stack.sp = *next += size;
    return stack;
  }
  void deallocate(ctx::stack_context&) noexcept {}  // the region goes with the program
};

long n, m;
std::vector<ctx::fiber> ring;  // ring[i]: where fiber i stopped
ctx::fiber back_to_main;
std::uint64_t hops = 0;
long running = -1;  // who has the CPU (-1: main)
long left = -1;     // who switched to it

// Whoever gets the CPU keeps the fiber of whoever left it.
void keep(ctx::fiber&& stopped) { (left < 0 ? back_to_main : ring[left]) = std::move(stopped); }

// Switches to fiber `to` (-1: main).
void pass_to(long to) {
  left = running;
  running = to;
  keep(std::move(to < 0 ? back_to_main : ring[to]).resume());
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: context_ring N M\n");
    return 2;
  }
  n = std::atol(argv[1]), m = std::atol(argv[2]);
  const std::size_t bytes = (static_cast<std::size_t>(n) + 1) * region_stacks::size;
  void* region = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return 1;
  madvise(region, bytes, MADV_NOHUGEPAGE);
  const double memory_before = resident_bytes();
  const auto started = steady_clock::now();
  ring.reserve(n);
  char* stacks = static_cast<char*>(region);
  for (long i = 0; i < n; ++i) {
    ring.emplace_back(std::allocator_arg, region_stacks{&stacks}, [i](ctx::fiber&& from) {
      keep(std::move(from));
      for (;;) pass_to(++hops == static_cast<std::uint64_t>(n) * m ? -1 : (i + 1) % n);
      return ctx::fiber{};
    });
  }
  const auto spawned = steady_clock::now();
  const double memory_after = resident_bytes();
  pass_to(0);
  const auto finished = steady_clock::now();
  std::printf("hops %llu\nspawn_us_per_process %.3f\nns_per_hop %.1f\nrss_bytes_per_process %.0f\n",
              static_cast<unsigned long long>(hops),
              std::chrono::duration<double, std::micro>(spawned - started).count() / n,
              std::chrono::duration<double, std::nano>(finished - spawned).count() /
                  (static_cast<double>(n) * static_cast<double>(m)),
              (memory_after - memory_before) / static_cast<double>(n));
  std::fflush(stdout);
  _exit(0);  // the fibers never end; do not unwind a million stacks
}
