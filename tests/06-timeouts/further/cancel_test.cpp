// Chapter 6, going further: cancel(pid), which ends the Asio operation that
// another process waits on through use_process, at once, with
// operation_aborted: a supervisor's way to stop a worker stuck on a socket.
// Run: ./course check 06 --further
#include "event_loop.hpp"
#include "processes.hpp"
#include "use_process.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/run_io.hpp"

#include <gtest/gtest.h>

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <optional>
#include <sstream>
#include <string>

namespace {

namespace asio = boost::asio;
using namespace rdv::proc;
using namespace std::chrono_literals;
using rdv::test::explained_in;
using local_socket = asio::local::stream_protocol::socket;

struct waiting {};  // "I wait in receive() now"

class Cancel : public ::testing::Test {
protected:
  asio::io_context io{1};
  std::ostringstream crashes;
  scheduler node{{.crash_log = &crashes}};
  local_socket near{io}, far{io};  // two connected ends, like a client and a server

  Cancel() {
    run_in(io, node);
    asio::local::connect_pair(near, far);
  }
  ~Cancel() override { EXPECT_EQ(crashes.str(), "") << "no process should have crashed"; }

  // Runs everything; the waits these tests cancel last an hour otherwise.
  void run_all() {
    rdv::test::run_io(io, 10s);
    EXPECT_TRUE(io.stopped()) << "after 10 s the io_context still had work: a wait that "
                                 "cancel(pid) should have ended is still going on";
  }
};

TEST_F(Cancel, EndsATimerWaitAtOnceWithOperationAborted) {
  explained_in("ch06-further");
  std::optional<boost::system::error_code> ec;
  bool cancelled = false;
  const pid sleeper = node.spawn([&ec] {
    asio::steady_timer timer(current_io_context(), 1h);
    boost::system::error_code e;
    timer.async_wait(use_process[e]);
    ec = e;
  });
  node.spawn([&cancelled, sleeper] { cancelled = cancel(sleeper); });
  run_all();
  EXPECT_TRUE(cancelled) << "cancel(pid) of a process waiting on a timer through use_process "
                            "should return true";
  ASSERT_TRUE(ec) << "the process waited on an hour-long timer; cancel(pid) should have ended "
                     "its wait at once";
  EXPECT_EQ(*ec, asio::error::operation_aborted)
      << "with use_process[ec], the cancelled wait should store operation_aborted; got: "
      << ec->message();
}

TEST_F(Cancel, ThrowsOperationAbortedWhenTheTokenThrowsAndLeavesTheSocketWorking) {
  explained_in("ch06-further");
  std::string thrown, then;
  const pid reader = node.spawn([&] {
    char buffer[16];
    try {
      far.async_read_some(asio::buffer(buffer), use_process);
    } catch (const boost::system::system_error& e) {
      thrown = e.code() == asio::error::operation_aborted ? "operation_aborted" : e.what();
    }
    asio::async_write(near, asio::buffer("later", 5), use_process);
    then.assign(buffer, far.async_read_some(asio::buffer(buffer), use_process));
  });
  node.spawn([reader] { cancel(reader); });
  run_all();
  EXPECT_EQ(thrown, "operation_aborted")
      << "a process read from a silent socket with the plain use_process; cancel(pid) should "
         "make the read throw system_error(operation_aborted)";
  EXPECT_EQ(then, "later") << "after a cancelled read the socket should still work";
}

TEST_F(Cancel, LeavesAProcessThatWaitsInReceiveAlone) {
  explained_in("ch06-further");
  std::optional<bool> cancelled;
  int received = 0;
  const pid receiver = node.spawn([&received] { received = receive<int>(); });
  node.spawn([&cancelled, receiver] {
    cancelled = cancel(receiver);
    send(receiver, 42);
  });
  run_all();
  EXPECT_EQ(cancelled, false) << "cancel(pid) of a process waiting in receive() (not on an Asio "
                                 "operation) should return false";
  EXPECT_EQ(received, 42) << "and leave it waiting for its message";
}

TEST_F(Cancel, ReturnsFalseForAPidThatWaitsOnNothing) {
  explained_in("ch06-further");
  std::optional<bool> gone_cancelled, nobody_cancelled, self_cancelled;
  node.spawn([&] {
    const pid gone = spawn([] {});
    yield();  // let it end
    gone_cancelled = cancel(gone);
    nobody_cancelled = cancel(pid{});
    self_cancelled = cancel(self());
  });
  run_all();
  EXPECT_EQ(gone_cancelled, false) << "cancel(pid) of a process that has ended";
  EXPECT_EQ(nobody_cancelled, false) << "cancel(pid{}), a pid that names nobody";
  EXPECT_EQ(self_cancelled, false) << "cancel(self()): the caller runs, it waits on nothing";
}

TEST_F(Cancel, ACancelledWaitIsOverForGood) {
  explained_in("ch06-further");
  std::optional<bool> first, second;
  pid canceller;
  const pid worker = node.spawn([&canceller] {
    asio::steady_timer timer(current_io_context(), 1h);
    boost::system::error_code ec;
    timer.async_wait(use_process[ec]);  // cancelled
    send(canceller, waiting{});
    receive<int>();
  });
  canceller = node.spawn([&first, &second, worker] {
    first = cancel(worker);
    receive<waiting>();
    second = cancel(worker);
    send(worker, 1);
  });
  run_all();
  EXPECT_EQ(first, true) << "the worker waited on a timer through use_process";
  EXPECT_EQ(second, false) << "once its cancelled wait was over, the worker waited in receive(): "
                              "cancel(pid) should find no operation, and return false";
}

}  // namespace
