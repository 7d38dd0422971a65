// Tests of the course's shared library (solutions/common): command-line flags.
#include "rdv/cli.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace {

using rdv::cli::flags;

// Parses `args` (without the program name) and returns whether to go on.
bool parse(flags& f, std::vector<const char*> args) {
  args.insert(args.begin(), "program");
  return f.parse(static_cast<int>(args.size()), args.data());
}

// What server_flags() reads a command line into, with its defaults.
struct server_settings {
  rdv::cli::host_port listen{"127.0.0.1", 8081};
  std::chrono::milliseconds timeout{5000};
  std::vector<rdv::cli::host_port> backends{{"127.0.0.1", 9000}};
  bool no_sendfile = false;
  std::string root = ".";
};

flags server_flags(server_settings& s) {
  flags f("program", "A test program.");
  f.option("listen", s.listen, "where to listen")
      .option("timeout-ms", s.timeout, "how long to wait")
      .range(0, 60000)
      .repeated("backend", s.backends, "where to forward")
      .toggle("no-sendfile", s.no_sendfile, "read and write instead")
      .option("root", s.root, "what to serve", "DIR");
  return f;
}

TEST(Flags, LeavesTheDefaultsWhenNothingIsGiven) {
  server_settings s;
  auto f = server_flags(s);
  ASSERT_TRUE(parse(f, {}));
  EXPECT_EQ(rdv::cli::to_string(s.listen), "127.0.0.1:8081");
  EXPECT_EQ(s.timeout, std::chrono::milliseconds(5000));
  ASSERT_EQ(s.backends.size(), 1u);
  EXPECT_EQ(s.backends[0].port, 9000);
  EXPECT_FALSE(s.no_sendfile);
  EXPECT_EQ(s.root, ".");
}

TEST(Flags, ReadsValuesInBothSpellingsIntoTheirVariables) {
  server_settings s;
  auto f = server_flags(s);
  ASSERT_TRUE(
      parse(f, {"--listen", "[::1]:0", "--timeout-ms=10", "--no-sendfile", "--root", "/srv"}));
  EXPECT_EQ(s.listen.host, "::1");
  EXPECT_EQ(s.listen.port, 0);
  EXPECT_EQ(s.timeout, std::chrono::milliseconds(10));
  EXPECT_TRUE(s.no_sendfile);
  EXPECT_EQ(s.root, "/srv");
}

TEST(Flags, RepeatedFlagsReplaceTheirDefaults) {
  server_settings s;
  auto f = server_flags(s);
  ASSERT_TRUE(parse(f, {"--backend", "127.0.0.1:1", "--backend", "127.0.0.1:2"}));
  ASSERT_EQ(s.backends.size(), 2u);
  EXPECT_EQ(s.backends[0].port, 1);
  EXPECT_EQ(s.backends[1].port, 2);
  std::vector<std::string> hosts{"a"};
  flags g("program", "A test program.");
  g.repeated("host", hosts, "hosts", "HOST");
  ASSERT_TRUE(parse(g, {"--host", "b", "--host=c"}));
  EXPECT_EQ(hosts, (std::vector<std::string>{"b", "c"}));
}

TEST(Flags, ChecksAValueByItsTypeNotByItsName) {
  std::string note;
  flags f("program", "A test program.");
  f.option("note", note, "free text that only looks like an address", "HOST:PORT");
  EXPECT_TRUE(parse(f, {"--note", "nowhere"})) << "a text value is not checked";
  EXPECT_EQ(note, "nowhere");
  rdv::cli::host_port peer;
  flags g("program", "A test program.");
  g.option("peer", peer, "an address");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(parse(g, {"--peer", "nowhere"})) << "an address is checked, whatever its name";
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(g.exit_status(), 2);
}

TEST(Flags, RejectsWhatTheUsageDoesNotAllowAndChangesNothing) {
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"--bogus"},
           {"--listen"},
           {"--listen", "nowhere"},
           {"--listen", "1.2.3.4:70000"},
           {"--timeout-ms", "-1"},
           {"--timeout-ms", "ten"},
           {"--timeout-ms", "60001"},
           {"--no-sendfile=yes"},
           {"extra"},
           {"--root", "/srv", "--listen", "127.0.0.1:1", "--timeout-ms", "ten"}}) {
    server_settings s;
    auto f = server_flags(s);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(parse(f, args)) << "args starting " << args.front();
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(f.exit_status(), 2);
    EXPECT_NE(said.find("--listen HOST:PORT"), std::string::npos) << "the usage follows:\n" << said;
    EXPECT_NE(said.find("[default: 127.0.0.1:8081]"), std::string::npos)
        << "with the defaults, even of a flag given wrongly:\n"
        << said;
    EXPECT_EQ(s.root, ".") << "a usage error leaves every variable as it was";
    EXPECT_EQ(s.listen.port, 8081);
  }
}

TEST(Flags, HelpStopsWithStatusZeroAndShowsTheDefaults) {
  server_settings s;
  auto f = server_flags(s);
  ::testing::internal::CaptureStdout();
  EXPECT_FALSE(parse(f, {"--help"}));
  ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(f.exit_status(), 0);
  std::ostringstream usage;
  f.print_usage(usage);
  for (const char* shown :
       {"--listen HOST:PORT", "[default: 127.0.0.1:8081]", "--timeout-ms MS", "[default: 5000]",
        "--root DIR", "[default: .]", "[default: 127.0.0.1:9000]"}) {
    EXPECT_NE(usage.str().find(shown), std::string::npos) << shown << " in\n" << usage.str();
  }
}

TEST(Flags, PositionalsAreRequiredInOrder) {
  long n = 0;
  int m = 0;
  flags f("ring", "A ring.");
  f.positional("N", n, "processes").positional("M", m, "rounds");
  ASSERT_TRUE(parse(f, {"1000", "10"}));
  EXPECT_EQ(n, 1000);
  EXPECT_EQ(m, 10);
  flags g("ring", "A ring.");
  g.positional("N", n, "processes").positional("M", m, "rounds");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(parse(g, {"1000"}));
  ::testing::internal::GetCapturedStderr();
}

TEST(Flags, RangesAreCheckedWhileParsing) {
  int backlog = 128;
  std::size_t laps = 0;
  for (const char* bad : {"0", "65536", "-3", "lots"}) {
    flags f("program", "A test program.");
    f.option("backlog", backlog, "the listen backlog").range(1, 65535);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(parse(f, {"--backlog", bad})) << bad;
    ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(f.exit_status(), 2) << bad;
  }
  flags f("program", "A test program.");
  f.option("backlog", backlog, "the listen backlog").range(1, 65535);
  f.positional("M", laps, "laps").range(1, 10);
  ASSERT_TRUE(parse(f, {"--backlog", "7", "3"}));
  EXPECT_EQ(backlog, 7);
  EXPECT_EQ(laps, 3u);
  unsigned char small = 0;
  flags g("program", "A test program.");
  g.positional("M", small, "laps");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(parse(g, {"256"})) << "without range(), what the variable's type holds";
  ::testing::internal::GetCapturedStderr();
}

TEST(Flags, ADeclarationThatCannotBeParsedIsTheProgrammersError) {
  bool on = false;
  std::string text;
  flags f("program", "A test program.");
  f.toggle("x", on, "a switch");
  EXPECT_THROW(f.range(1, 2), std::logic_error) << "a switch has no range";
  EXPECT_THROW(f.option("x", text, "again"), std::logic_error) << "one name, one flag";
}

TEST(HostPort, ParsesNamesAddressesAndIpv6) {
  EXPECT_EQ(rdv::cli::parse_host_port("localhost:80").host, "localhost");
  EXPECT_EQ(rdv::cli::parse_host_port("[::1]:8080").host, "::1");
  EXPECT_EQ(rdv::cli::parse_host_port("[::1]:8080").port, 8080);
  EXPECT_THROW(rdv::cli::parse_host_port(":80"), rdv::cli::usage_error);
  EXPECT_THROW(rdv::cli::parse_host_port("host:"), rdv::cli::usage_error);
}

}  // namespace
