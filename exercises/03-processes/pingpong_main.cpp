// pingpong: two processes pass a ball back and forth, then a third one
// crashes while the first one monitors it. Try: ./course run 03 --rounds 10
#include "processes.hpp"

#include "rdv/cli.hpp"

#include <chrono>
#include <iostream>
#include <stdexcept>

namespace {

using namespace rdv::proc;

//! [messages]
struct ball {
  pid from;      // who to send it back to
  long bounces;  // how many are left
};
struct stop {};
//! [messages]

//! [pong]
void pong() {
  for (bool playing = true; playing;) {
    receive([](ball b) { send(b.from, ball{self(), b.bounces - 1}); },
            [&playing](stop) { playing = false; });
  }
}
//! [pong]

//! [ping]
void ping(long rounds) {
  const pid partner = spawn(pong);
  std::cout << self() << " spawned " << partner << " to play with" << std::endl;
  const auto started = std::chrono::steady_clock::now();
  send(partner, ball{self(), 2 * rounds});
  for (long left = 2 * rounds - 1; left > 0; left = receive<ball>().bounces - 1) {
    send(partner, ball{self(), left});
  }
  send(partner, stop{});
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - started;
  std::cout << rounds << " round trips, " << took.count() / (2.0 * rounds) << " ns a message"
            << std::endl;

  const pid doomed = spawn([] { throw std::runtime_error("crashed on purpose"); });
  monitor(doomed);
  const down note = receive<down>();
  std::cout << self() << " was told: " << note.who << " is down, reason: " << note.reason
            << std::endl;
}
//! [ping]

}  // namespace

int main(int argc, char* argv[]) {
  rdv::cli::flags flags("pingpong", "Two processes play ping-pong, then one crashes while "
                                    "another monitors it (chapter 3).");
  long rounds = 100'000;
  flags.option("rounds", rounds, "round trips of the ball").range(1, 1'000'000'000);
  if (!flags.parse(argc, argv)) return flags.exit_status();
  try {
    scheduler node({.crash_log = nullptr});  // the crash is on purpose: do not report it
    node.spawn([rounds] { ping(rounds); });
    node.run();
  } catch (const std::exception& e) {
    std::cerr << "pingpong: " << e.what() << '\n';
    return 1;
  }
}
