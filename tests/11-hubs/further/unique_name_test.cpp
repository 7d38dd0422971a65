// Chapter 11's checked Going-further item: one name, one hub. A hub that
// would join the bus under a name another hub on it answers to refuses to
// start (./course check 11 --further).
#include "nats_fixture.hpp"

#include "rdv/test/book.hpp"

#include <sstream>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;

// Runs a hub named `name` on `bus` until it exits (10 s at most).
rdv::test::completed run_named(const ch11::nats_server& bus, const std::string& name) {
  return rdv::test::run_to_end(rdv::test::built_program("hub"),
                               {"--bus", bus.url(), "--hub-id", name, "--listen", "127.0.0.1:0",
                                "--reply-listen", "127.0.0.1:0"},
                               {}, 10s);
}

TEST(UniqueName, AHubWhoseNameIsTakenExitsWithOneLineAndNeverListens) {
  explained_in("ch11-further-checked");
  ch11::nats_server bus;
  ch10::hub first = ch11::bus_hub(bus, "same");
  const auto started = std::chrono::steady_clock::now();
  const rdv::test::completed second = run_named(bus, "same");
  EXPECT_EQ(second.status, 1) << "a second hub named \"same\" should exit with status 1\n"
                              << second.out << second.err;
  EXPECT_EQ(second.out.find("listening"), std::string::npos) << second.out;
  std::size_t lines = 0;
  std::istringstream err(second.err);
  for (std::string line; std::getline(err, line);) {
    if (line.starts_with("hub: ")) {
      ++lines;
      EXPECT_NE(line.find("same"), std::string::npos) << "the line should name the name: " << line;
    }
  }
  EXPECT_EQ(lines, 1U) << second.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_TRUE(ch11::bus_stats(first).at("connected").as_bool()) << "the first hub is untouched";
}

TEST(UniqueName, OfTwoHubsStartedAtOnceUnderOneNameExactlyOneRuns) {
  explained_in("ch11-further-checked");
  ch11::nats_server bus;
  const std::vector<std::string> args{"--bus",    bus.url(),     "--hub-id",       "twin",
                                      "--listen", "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"};
  // Started back to back, without waiting for either: both check the name
  // before either has joined.
  rdv::test::program a(rdv::test::built_program("hub"), args, 0);
  rdv::test::program b(rdv::test::built_program("hub"), args, 0);
  const int a_status = a.wait_exit(5s), b_status = b.wait_exit(5s);
  EXPECT_TRUE((a_status == 1) != (b_status == 1))
      << "exactly one should exit with status 1 (-1: still running): " << a_status << " and "
      << b_status << "\n"
      << a.output() << b.output();
  rdv::test::program& running = a_status == -1 ? a : b;
  EXPECT_TRUE(running.wait_for_output("listening reply", 5s)) << running.output();
}

TEST(UniqueName, OtherNamesJoinAndANameIsFreeOnceItsHubHasLeft) {
  explained_in("ch11-further-checked");
  ch11::nats_server bus;
  {
    ch10::hub first = ch11::bus_hub(bus, "same");
    ch10::hub other = ch11::bus_hub(bus, "other");  // throws if it does not listen
    EXPECT_TRUE(ch11::bus_stats(other).at("connected").as_bool());
    EXPECT_EQ(first.program().stop(), 0);
  }
  ch10::hub again = ch11::bus_hub(bus, "same");
  EXPECT_TRUE(ch11::bus_stats(again).at("connected").as_bool());
}

}  // namespace
