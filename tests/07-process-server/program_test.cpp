// Chapter 7's program, run as a child process: conventions, and what it does
// when it runs out of file descriptors.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
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
  // 40 descriptors in all: the program itself uses a few dozen, so a handful
  // of connections run it out (prlimit comes with util-linux).
  rdv::test::program p("/usr/bin/prlimit", {"--nofile=40:40", server, "--listen", "127.0.0.1:0"});
  std::vector<std::unique_ptr<rdv::test::client>> held;
  for (int i = 0; i < 40; ++i) {
    held.push_back(std::make_unique<rdv::test::client>(p.port("http")));
    held.back()->send("GET /test HTTP/1.1\r\nHost: x\r\n\r\n");
    if (i < 20) held.back()->read_response();  // surely accepted: served
  }
  ASSERT_TRUE(p.wait_for_output("pausing accepts"))
      << "with every descriptor in use, accept fails with EMFILE and the server should say it "
         "pauses; it printed:\n"
      << p.output();
  held.erase(held.begin(), held.begin() + 20);  // free descriptors: the rest gets served
  for (auto& c : held) EXPECT_EQ(c->read_response().status, 200) << c->transcript();
  EXPECT_TRUE(p.running()) << p.output();
}

}  // namespace
