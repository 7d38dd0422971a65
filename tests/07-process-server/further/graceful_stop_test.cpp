// Chapter 7, going further: stopping gracefully. The first SIGTERM closes
// the listener, lets the requests under way finish (with Connection: close),
// closes idle connections at once, and ends the program when the last
// connection is gone, or after --grace-ms.
#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/program.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;

const std::string server = rdv::test::built_program("process-server");
constexpr std::string_view get = "GET /test HTTP/1.1\r\nHost: x\r\n\r\n";

// Whether a connection to 127.0.0.1:`port` is refused.
bool refused(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool no = ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 &&
                  errno == ECONNREFUSED;
  ::close(fd);
  return no;
}

TEST(GracefulStop, TakesTheGraceMsFlag) {
  explained_in("ch07-further-checked");
  const auto help = rdv::test::run_to_end(server, {"--help"});
  EXPECT_NE(help.out.find("--grace-ms"), std::string::npos)
      << "process-server --help should list --grace-ms; it printed:\n"
      << help.out << help.err;
}

TEST(GracefulStop, FinishesTheRequestUnderWayAndClosesAfterIt) {
  explained_in("ch07-further-checked");
  rdv::test::program p(server, {"--listen", "127.0.0.1:0"});
  const std::uint16_t port = p.port("http");
  rdv::test::client c(port);
  c.send(get.substr(0, 20));  // half a request: under way when the signal comes
  ASSERT_TRUE(c.wait_delivered()) << c.transcript();
  p.signal(SIGTERM);
  ASSERT_TRUE(p.wait_for_output("stopping: 1 connection open"))
      << "on SIGTERM with one connection open, process-server should print "
         "\"stopping: 1 connection open\"; it printed:\n"
      << p.output();
  EXPECT_TRUE(refused(port)) << "a stopping server accepts no new connection\n" << p.output();
  c.send(get.substr(20));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << c.transcript();
  EXPECT_EQ(r.body, "1234567") << c.transcript();
  EXPECT_EQ(r.field("Connection"), "close")
      << "the last answer of a stopping server says Connection: close\n"
      << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
  EXPECT_EQ(p.wait_exit(10s), 0) << "once its last connection is done, the server exits, 0\n"
                                 << p.output();
}

TEST(GracefulStop, ClosesIdleConnectionsAtOnce) {
  explained_in("ch07-further-checked");
  rdv::test::program p(server, {"--listen", "127.0.0.1:0", "--idle-ms", "600000"});
  rdv::test::client a(p.port("http")), b(p.port("http"));
  for (auto* c : {&a, &b}) {
    c->send(get);
    EXPECT_EQ(c->read_response().status, 200) << c->transcript();
  }
  p.signal(SIGTERM);
  EXPECT_TRUE(a.wait_closed())
      << "a connection idle between requests is closed when the server stops, not after "
         "--idle-ms\n"
      << a.transcript() << p.output();
  EXPECT_TRUE(b.wait_closed()) << b.transcript() << p.output();
  EXPECT_EQ(p.wait_exit(10s), 0) << p.output();
}

TEST(GracefulStop, GivesUpOnSlowConnectionsAfterTheGracePeriod) {
  explained_in("ch07-further-checked");
  rdv::test::program p(server,
                       {"--listen", "127.0.0.1:0", "--grace-ms", "300", "--request-ms", "600000"});
  rdv::test::client c(p.port("http"));
  c.send(get.substr(0, 20));  // and never the rest
  p.signal(SIGTERM);
  ASSERT_TRUE(p.wait_for_output("stopping: 1 connection open")) << p.output();
  EXPECT_EQ(p.wait_exit(10s), 0)
      << "with --grace-ms 300, a request that never completes may hold the stop for 300 ms, "
         "not for ever\n"
      << p.output();
}

TEST(GracefulStop, ASecondSignalStopsAtOnce) {
  explained_in("ch07-further-checked");
  rdv::test::program p(
      server, {"--listen", "127.0.0.1:0", "--grace-ms", "600000", "--request-ms", "600000"});
  rdv::test::client c(p.port("http"));
  c.send(get.substr(0, 20));
  p.signal(SIGTERM);
  ASSERT_TRUE(p.wait_for_output("stopping: 1 connection open")) << p.output();
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait_exit(10s), 0) << "a second SIGTERM ends the grace period\n" << p.output();
}

}  // namespace
