// Chapter 6's echo server (exercise ch06.3), over real TCP connections. The
// server runs on a thread of its own, which makes its scheduler, runs its
// io_context, and destroys the scheduler before the io_context goes.
#include "echo_server.hpp"
#include "event_loop.hpp"
#include "processes.hpp"
#include "send_faults.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/client.hpp"
#include "rdv/test/slow_reader.hpp"
#include "rdv/test/stream_client.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace std::chrono_literals;
using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;

// The connections accepted here inherit the listening socket's send buffer:
// a small one fills at once, as over a slow network; loopback's own buffers
// grow large and seldom do.
tcp::acceptor listening_with_small_send_buffers(asio::io_context& io) {
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  acceptor.set_option(asio::socket_base::send_buffer_size(4096));
  return acceptor;
}

class Echo : public ::testing::Test {
protected:
  static constexpr std::chrono::milliseconds idle = 1000ms;
  asio::io_context io{1};
  tcp::acceptor acceptor = listening_with_small_send_buffers(io);
  std::uint16_t port = acceptor.local_endpoint().port();
  std::mutex mutex;
  std::string failure;         // what the server's thread died of
  std::ostringstream crashes;  // written by the server's thread, read after it ends
  std::thread server{[this] {
    try {
      rdv::proc::scheduler node({.crash_log = &crashes});
      rdv::proc::run_in(io, node);
      node.spawn([this] { rdv::echo::accept(acceptor, idle); });
      io.run();
    } catch (const std::exception& e) {
      const std::lock_guard lock(mutex);
      failure = e.what();
    }
  }};

  ~Echo() override {
    io.stop();
    server.join();
    EXPECT_EQ(failure, "") << "the server's thread ended with an error";
    EXPECT_EQ(crashes.str(), "") << "no connection's process should have crashed";
  }
};

TEST_F(Echo, SendsBackEveryByteItReceives) {
  explained_in("ch06-echo");
  rdv::test::client c(port);
  c.send("hello\n");
  EXPECT_EQ(c.read_exactly(6), "hello\n") << c.transcript();
  const std::string big(10000, 'x');  // more than one read of the server's buffer
  c.send(big);
  EXPECT_EQ(c.read_exactly(big.size()), big) << c.transcript();
}

// A write moves what the socket takes, not always what it was given: when the
// connection's buffers are full, a write can come back short. It does when
// the kernel finds the send buffer full as a write crosses from one segment
// into the next: with the server's small send buffer, a client whose window
// is small too, and 1000-byte segments that 2 KiB writes always cross, that
// happens over and over. Every byte must still come back, in order.
TEST_F(Echo, SendsBackEveryByteWhenTheClientReadsSlowerThanItWrites) {
  explained_in("ch06-echo");
  rdv::test::stream_client client(port, 4096, 1000);
  std::string sent(2 << 20, '\0');  // 2 MiB, no two KiB alike: a lost piece shows
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<char>((i * 131) ^ (i >> 11));
  std::string failed_writing, failed_reading, echoed;
  std::thread writer([&] {
    try {
      client.write_all(sent);
      client.shutdown_write();  // the server sees the end, echoes the rest, and hangs up
    } catch (const std::exception& e) {
      failed_writing = e.what();
    }
  });
  try {
    echoed = client.read_to_end();
  } catch (const std::exception& e) {
    failed_reading = e.what();
  }
  writer.join();
  ASSERT_EQ(failed_writing + failed_reading, "");
  ASSERT_EQ(echoed.size(), sent.size())
      << "bytes were lost on the way back: did every write send all it was given?";
  const auto first_wrong = std::mismatch(echoed.begin(), echoed.end(), sent.begin()).first;
  EXPECT_TRUE(first_wrong == echoed.end())
      << "the echo differs from byte " << (first_wrong - echoed.begin()) << " on";
}

TEST_F(Echo, ServesClientsConnectedAtOnce) {
  explained_in("ch06-echo");
  rdv::test::client first(port), second(port);
  first.send("one");
  second.send("two");
  EXPECT_EQ(second.read_exactly(3), "two") << second.transcript();
  EXPECT_EQ(first.read_exactly(3), "one") << first.transcript();
}

TEST_F(Echo, AClientThatLeavesWithAResetEndsItsConnectionQuietly) {
  explained_in("ch06-echo");
  {
    rdv::test::client leaving(port);
    leaving.send("x");
    ASSERT_EQ(leaving.read_exactly(1), "x") << leaving.transcript();  // the server reads again now
    const ::linger abort{.l_onoff = 1, .l_linger = 0};                // close sends a reset
    ASSERT_EQ(::setsockopt(leaving.native_handle(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort),
              0);
    leaving.close();
  }
  rdv::test::client next(port);  // served after the server's read has seen the reset
  next.send("next");
  EXPECT_EQ(next.read_exactly(4), "next") << next.transcript();
  // The fixture's end checks that no connection's process crashed: a reset
  // is one of the ways a connection ends, not a failure.
}

TEST_F(Echo, ClosesAConnectionThatStaysIdle) {
  explained_in("ch06-idle");
  const auto connected = clock_type::now();
  rdv::test::client c(port);
  EXPECT_TRUE(c.wait_closed()) << "a silent client should be hung up on after " << idle.count()
                               << " ms\n"
                               << c.transcript();
  const auto closed_after = clock_type::now() - connected;
  EXPECT_GE(closed_after, idle) << "but not before";
  EXPECT_LT(closed_after, idle * 18 / 10) << "nor after a second idle time";
}

TEST_F(Echo, HangsUpOnAClientThatHasSentAllItWill) {
  explained_in("ch06-echo");
  rdv::test::stream_client client(port);
  const auto started = clock_type::now();
  client.write_all("hello\n");
  client.shutdown_write();  // the end of what it sends: the server sees end of stream
  EXPECT_EQ(client.read_to_end(), "hello\n");
  EXPECT_LT(clock_type::now() - started, idle)
      << "the client's end of stream is the end of the echo: the server should hang up then, "
         "not wait out the idle time";
}

TEST_F(Echo, HangsUpOnAClientThatTakesNothingItIsSent) {
  explained_in("ch06-idle");
  // The client sends while it reads nothing: the echo fills its window, the
  // server's write waits, and the server reads no more, until the client's
  // own writes find every buffer full. It is as idle as a silent client.
  const rdv::test::slow_reader client(port, "echo me\n");
  EXPECT_TRUE(client.dropped_within(idle * 10))
      << "a client that took none of the echo for " << idle.count() * 10
      << " ms was not hung up on: a write that waits has no deadline";
}

TEST_F(Echo, HangsUpOnAClientWhoseWindowShutsInTheMiddleOfAnEcho) {
  explained_in("ch06-idle");
  // The first write of the echo moves one byte of six, and the client's
  // window shuts then: the write of the other five waits, as long as its
  // own deadline lets it (the whole idle time, however late in the read's
  // idle time the bytes came), and no longer.
  const ch06::window_shuts_after_one_byte shut(port);
  rdv::test::client c(port, idle * 10);
  std::this_thread::sleep_for(idle * 6 / 10);  // well inside the idle time
  const auto sent = clock_type::now();
  c.send("hello\n");
  EXPECT_EQ(c.read_exactly(1), "h") << c.transcript();
  EXPECT_TRUE(c.wait_closed())
      << "the rest of a write that came back short waited for a shut window for "
      << 10 * idle.count() << " ms: only the first write of the echo had a deadline?\n"
      << c.transcript();
  const auto closed_after = clock_type::now() - sent;
  EXPECT_GE(closed_after, idle) << "the write of what a read brought has an idle time of its own, "
                                   "not what was left of the read's";
  EXPECT_LT(closed_after, idle * 18 / 10) << "nor more than one";
}

TEST_F(Echo, AClientThatResetsWhileItsEchoIsWrittenEndsItsConnectionQuietly) {
  explained_in("ch06-echo");
  const ch06::connection_resets_after_one_byte reset(port);
  rdv::test::client c(port, idle * 10);
  c.send("hello\n");
  EXPECT_EQ(c.read_exactly(1), "h") << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
  // The fixture's end checks that no connection's process crashed: a reset
  // during a write is one of the ways a connection ends, as during a read.
}

TEST_F(Echo, EveryByteFromTheClientPutsOffTheIdleTimeout) {
  explained_in("ch06-idle");
  rdv::test::client c(port);
  c.send("a");
  EXPECT_EQ(c.read_exactly(1), "a");
  std::this_thread::sleep_for(idle * 6 / 10);  // well inside the idle time
  const auto last_sent = clock_type::now();
  c.send("b");
  EXPECT_EQ(c.read_exactly(1), "b") << c.transcript();
  EXPECT_TRUE(c.wait_closed()) << c.transcript();
  EXPECT_GE(clock_type::now() - last_sent, idle)
      << "the server hung up less than " << idle.count() << " ms after the client's last byte: "
      << "each read should start a new idle time";
}

}  // namespace
