// ring N M: N processes in a ring pass a token round M times, and the program
// prints what that cost. Try: ./course run 05 1000 1000
#include "ring.hpp"

#include "rdv/cli.hpp"

#include <cstdio>
#include <iostream>

//! [main]
int main(int argc, char* argv[]) {
  rdv::cli::flags flags("ring", "N processes in a ring pass a token round M times "
                                "(N×M messages); prints the cost of a spawn, of a hop, and "
                                "the memory of a process (chapter 5).");
  long n = 0, m = 0;
  flags.positional("N", n, "processes in the ring").range(1, 100'000'000);
  flags.positional("M", m, "laps of the token").range(1, 1'000'000'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    rdv::proc::scheduler node;
    const rdv::ring::result r = rdv::ring::run(node, n, m);
    std::printf(
        "hops %llu\nspawn_us_per_process %.3f\nns_per_hop %.1f\nrss_bytes_per_process %.0f\n",
        static_cast<unsigned long long>(r.hops), r.spawn_ns / 1000, r.hop_ns, r.resident_bytes);
    return r.hops == static_cast<unsigned long long>(n) * static_cast<unsigned long long>(m) ? 0
                                                                                             : 1;
  } catch (const std::exception& e) {
    std::cerr << "ring: " << e.what() << '\n';
    return 1;
  }
}
//! [main]
