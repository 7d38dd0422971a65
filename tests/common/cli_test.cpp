// Tests of the course's shared library (solutions/common): command-line flags.
#include "rdv/cli.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace {

using rdv::cli::flags;

// Parses `args` (without the program name) and returns whether to go on.
bool parse(flags& f, std::vector<const char*> args) {
  args.insert(args.begin(), "program");
  return f.parse(static_cast<int>(args.size()), args.data());
}

flags server_flags() {
  flags f("program", "A test program.");
  f.option("listen", rdv::cli::address, "where to listen", "127.0.0.1:8081")
      .option("timeout-ms", rdv::cli::milliseconds, "how long to wait", "5000")
      .repeated("backend", rdv::cli::address, "where to forward", {"127.0.0.1:9000"})
      .toggle("no-sendfile", "read and write instead");
  return f;
}

TEST(Flags, UsesDefaultsWhenNothingIsGiven) {
  auto f = server_flags();
  ASSERT_TRUE(parse(f, {}));
  EXPECT_EQ(f.value("listen"), "127.0.0.1:8081");
  EXPECT_EQ(f.endpoint("listen").port, 8081);
  EXPECT_EQ(f.number("timeout-ms", 0, 60000), 5000);
  EXPECT_EQ(f.values("backend"), std::vector<std::string>{"127.0.0.1:9000"});
  EXPECT_FALSE(f.is_on("no-sendfile"));
}

TEST(Flags, TakesValuesInBothSpellings) {
  auto f = server_flags();
  ASSERT_TRUE(parse(f, {"--listen", "127.0.0.1:0", "--timeout-ms=10", "--no-sendfile"}));
  EXPECT_EQ(f.endpoint("listen").port, 0);
  EXPECT_EQ(f.number("timeout-ms", 0, 60000), 10);
  EXPECT_TRUE(f.is_on("no-sendfile"));
}

TEST(Flags, RepeatedFlagsReplaceTheirDefaults) {
  auto f = server_flags();
  ASSERT_TRUE(parse(f, {"--backend", "127.0.0.1:1", "--backend", "127.0.0.1:2"}));
  EXPECT_EQ(f.values("backend"), (std::vector<std::string>{"127.0.0.1:1", "127.0.0.1:2"}));
}

TEST(Flags, ChecksAValueByItsKindNotByItsName) {
  flags f("program", "A test program.");
  f.option("note", "HOST:PORT", "free text that only looks like an address")
      .option("peer", rdv::cli::value_form("PEER", rdv::cli::value_kind::host_port), "an address");
  EXPECT_TRUE(parse(f, {"--note", "nowhere"})) << "a text value is not checked";
  flags g("program", "A test program.");
  g.option("peer", rdv::cli::value_form("PEER", rdv::cli::value_kind::host_port), "an address");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(parse(g, {"--peer", "nowhere"})) << "an address is checked, whatever its name";
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(g.exit_status(), 2);
}

TEST(Flags, RejectsWhatTheUsageDoesNotAllow) {
  for (const auto& args : std::vector<std::vector<const char*>>{{"--bogus"},
                                                                {"--listen"},
                                                                {"--listen", "nowhere"},
                                                                {"--listen", "1.2.3.4:70000"},
                                                                {"--timeout-ms", "-1"},
                                                                {"--timeout-ms", "ten"},
                                                                {"--no-sendfile=yes"},
                                                                {"extra"}}) {
    auto f = server_flags();
    EXPECT_FALSE(parse(f, args)) << "args starting " << args.front();
    EXPECT_EQ(f.exit_status(), 2);
  }
}

TEST(Flags, HelpStopsWithStatusZero) {
  auto f = server_flags();
  EXPECT_FALSE(parse(f, {"--help"}));
  EXPECT_EQ(f.exit_status(), 0);
  std::ostringstream usage;
  f.print_usage(usage);
  EXPECT_NE(usage.str().find("--listen HOST:PORT"), std::string::npos) << usage.str();
  EXPECT_NE(usage.str().find("[default: 127.0.0.1:8081]"), std::string::npos) << usage.str();
}

TEST(Flags, PositionalsAreRequiredInOrder) {
  flags f("ring", "A ring.");
  f.positional("N", "processes").positional("M", "rounds");
  ASSERT_TRUE(parse(f, {"1000", "10"}));
  EXPECT_EQ(f.number("N", 1, 10'000'000), 1000);
  EXPECT_EQ(f.number("M", 1, 10'000'000), 10);
  flags g("ring", "A ring.");
  g.positional("N", "processes").positional("M", "rounds");
  EXPECT_FALSE(parse(g, {"1000"}));
}

TEST(Flags, RangesAreCheckedWhileParsing) {
  for (const char* bad : {"0", "65536", "-3", "lots"}) {
    flags f("program", "A test program.");
    f.option("backlog", rdv::cli::count, "the listen backlog", "128").range(1, 65535);
    EXPECT_FALSE(parse(f, {"--backlog", bad})) << bad;
    EXPECT_EQ(f.exit_status(), 2) << bad;
  }
  flags f("program", "A test program.");
  f.option("backlog", rdv::cli::count, "the listen backlog", "128").range(1, 65535);
  f.positional("M", "laps").range(1, 10);
  ASSERT_TRUE(parse(f, {"--backlog", "7", "3"}));
  EXPECT_EQ(f.number("backlog"), 7);
  EXPECT_EQ(f.number("M"), 3);
  flags g("program", "A test program.");
  g.positional("M", "laps").range(1, 10);
  EXPECT_FALSE(parse(g, {"11"}));
}

TEST(HostPort, ParsesNamesAddressesAndIpv6) {
  EXPECT_EQ(rdv::cli::parse_host_port("localhost:80").host, "localhost");
  EXPECT_EQ(rdv::cli::parse_host_port("[::1]:8080").host, "::1");
  EXPECT_EQ(rdv::cli::parse_host_port("[::1]:8080").port, 8080);
  EXPECT_THROW(rdv::cli::parse_host_port(":80"), rdv::cli::usage_error);
  EXPECT_THROW(rdv::cli::parse_host_port("host:"), rdv::cli::usage_error);
}

}  // namespace
