// Chapter 7's program, run as a child process: conventions, and what it does
// when it runs out of file descriptors.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/descriptor_limit.hpp"
#include "rdv/test/program.hpp"
#include "rdv/test/slow_reader.hpp"

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
  // A pause of 100 ms says so about ten times a second; an accept loop that
  // tries again at once (and spins while connections keep coming) says so
  // thousands of times.
  const std::size_t pauses = rdv::test::occurrences(limit.server.output(), "pausing accepts");
  EXPECT_LT(pauses, 200u) << "the server tried to accept again " << pauses
                          << " times while out of descriptors: each failure should pause";
}

TEST(Program, DropsClientsThatStopReading) {
  explained_in("ch07-slow-readers");
  rdv::test::program p(
      server, {"--listen", "127.0.0.1:0", "--send-timeout-ms", "300", "--max-connections", "2"});
  const std::string get = "GET /test HTTP/1.1\r\nHost: x\r\n\r\n";
  const rdv::test::slow_reader first(p.port("http"), get), second(p.port("http"), get);
  EXPECT_EQ(rdv::test::status_once_served(p.port("http"), get), 200)
      << "process-server --max-connections 2 should not stay full of clients that never read\n"
      << p.output();
}

}  // namespace
