// Chapter 9's program: its flags, and the listen backlog it asks for.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::explained_in;

const std::string server = rdv::test::built_program("rest-server");

TEST(Program, PassesTheBacklogToListen) {
  explained_in("ch09-backlog");
  rdv::test::program p(server, {"--listen", "127.0.0.1:0", "--backlog", "7"});
  // For a listening socket, ss shows the backlog as Send-Q.
  const auto ss =
      rdv::test::run_to_end("/usr/bin/ss", {"-ltnH", "sport = :" + std::to_string(p.port("http"))});
  ASSERT_EQ(ss.status, 0) << ss.err;
  EXPECT_NE(ss.out.find(" 7 "), std::string::npos)
      << "ss -ltn should show a backlog (Send-Q) of 7:\n"
      << ss.out;
  rdv::test::client c(p.port("http"));
  c.send("GET /chapters HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 200) << c.transcript();
  EXPECT_EQ(p.stop(), 0) << p.output();
}

TEST(Program, RefusesABadBacklog) {
  explained_in("ch09-backlog");
  for (const char* bad : {"0", "-1", "many", "70000"}) {
    const auto run = rdv::test::run_to_end(server, {"--listen", "127.0.0.1:0", "--backlog", bad});
    EXPECT_EQ(run.status, 2) << "--backlog " << bad << ":\n" << run.err;
  }
}

}  // namespace
