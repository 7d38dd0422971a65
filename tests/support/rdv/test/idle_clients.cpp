#include "rdv/test/idle_clients.hpp"

#include "rdv/test/client.hpp"

#include <gtest/gtest.h>

#include <string>

namespace rdv::test {

bool trickle_until_closed(client& c, std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    c.send(bytes.substr(i, 1));
    if (c.wait_closed()) return true;
  }
  return false;
}

void expect_idle_clients_cut_off(std::uint16_t port, std::chrono::milliseconds idle) {
  const auto start = std::chrono::steady_clock::now();
  client silent(port);
  // One byte every idle/3: each byte comes well in time, but the request never
  // ends. wait_closed() gives the server idle/3 to hang up before the next one.
  client trickle(port, idle / 3);
  const std::string request =
      "GET /slowly HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(100, 'x');
  EXPECT_TRUE(trickle_until_closed(trickle, request))
      << "a request trickling in a byte every " << (idle / 3).count()
      << " ms should be cut off once " << idle.count() << " ms have passed\n"
      << trickle.transcript();
  EXPECT_TRUE(silent.wait_closed()) << "a client that says nothing should be hung up on\n"
                                    << silent.transcript();
  EXPECT_GE(std::chrono::steady_clock::now() - start, idle) << "but not before that";
}

void expect_requests_restart_the_clock(std::uint16_t port, std::chrono::milliseconds idle) {
  client c(port, idle * 2 / 3);
  for (int i = 0; i < 6; ++i) {  // four times `idle` in all
    c.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.read_response().status, 200) << c.transcript();
    EXPECT_FALSE(c.wait_closed()) << "the connection should stay open " << (idle * 2 / 3).count()
                                  << " ms after an answer\n"
                                  << c.transcript();
  }
}

}  // namespace rdv::test
