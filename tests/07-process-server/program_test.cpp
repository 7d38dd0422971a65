// Chapter 7's program, run as a child process: conventions, and what it does
// when it runs out of file descriptors.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/descriptor_limit.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace {

using rdv::test::explained_in;

const std::string server = rdv::test::built_program("process-server");

TEST(Program, ListensWhereToldAndStopsCleanlyOnSigterm) {
  explained_in("ch07-main");
  rdv::test::program p(server, {"--listen", "127.0.0.1:0"});
  rdv::test::client c(p.port("http"));
  c.send("GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().body, "1234567") << c.transcript();
  EXPECT_EQ(p.stop(), 0) << p.output();
}

TEST(Program, BacksOffWhenOutOfFileDescriptors) {
  explained_in("ch07-emfile");
  rdv::test::descriptor_limit limit(server, {}, "GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(limit.server.wait_for_output("pausing accepts"))
      << "with every descriptor in use, accept fails with EMFILE and the server should say it "
         "pauses; it printed:\n"
      << limit.server.output();
  limit.expect_pause_then_recovery();
}

}  // namespace
