// Chapter 10's programs, as the course's conventions say every server behaves.
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"

namespace {

using rdv::test::explained_in;

TEST(Program, HubListensOnBothPortsAndStopsCleanlyWithClientsHeld) {
  explained_in("ch10-main");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  rdv::test::client held(hub.front());
  held.send(ch10::get("/held"));
  backend.next();
  EXPECT_EQ(hub.program().stop(), 0) << "SIGTERM should stop the hub with status 0\n"
                                     << hub.output();
  EXPECT_TRUE(held.wait_closed()) << held.transcript();
}

TEST(Program, WorkerListensAsTheBackendAndStopsCleanly) {
  explained_in("ch10-main");
  rdv::test::program worker(rdv::test::built_program("worker"), {"--listen", "127.0.0.1:0"});
  EXPECT_NE(worker.port("backend"), 0);
  EXPECT_EQ(worker.stop(), 0) << worker.output();
}

TEST(Program, FlagsAreTheProtocolsAndBadOnesAreUsageErrors) {
  explained_in("ch10-main");
  const auto help = rdv::test::run_to_end(rdv::test::built_program("hub"), {"--help"});
  EXPECT_EQ(help.status, 0);
  for (const char* flag : {"--listen", "--reply-listen", "--backend", "--timeout-ms",
                           "--max-pending", "--reply-token"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag << " is missing from:\n" << help.out;
  }
  const auto worker_help = rdv::test::run_to_end(rdv::test::built_program("worker"), {"--help"});
  EXPECT_EQ(worker_help.status, 0);
  EXPECT_NE(worker_help.out.find("--delay-ms"), std::string::npos) << worker_help.out;
  const auto bad = rdv::test::run_to_end(rdv::test::built_program("hub"), {"--timeout-ms", "soon"});
  EXPECT_EQ(bad.status, 2) << bad.err;
  // Out of range is a usage error too, found before anything listens.
  const std::vector<std::string> ports{"--listen", "127.0.0.1:0", "--reply-listen", "127.0.0.1:0"};
  for (const auto& [flag, value] : {std::pair{"--timeout-ms", "0"}, {"--max-pending", "0"}}) {
    std::vector<std::string> args = ports;
    args.insert(args.end(), {flag, value});
    const auto out_of_range = rdv::test::run_to_end(rdv::test::built_program("hub"), args);
    EXPECT_EQ(out_of_range.status, 2) << flag << ' ' << value << '\n' << out_of_range.err;
  }
  const auto bad_delay = rdv::test::run_to_end(rdv::test::built_program("worker"),
                                               {"--listen", "127.0.0.1:0", "--delay-ms", "-1"});
  EXPECT_EQ(bad_delay.status, 2) << bad_delay.err;
}

}  // namespace
