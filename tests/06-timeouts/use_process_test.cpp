// Chapter 6's tests of the completion token (exercise ch06.2): processes
// that wait on Asio timers and sockets as if they blocked, with and without
// a time limit, and a process that waits for a message or its socket.
#include "after.hpp"
#include "event_loop.hpp"
#include "loop_fixture.hpp"
#include "notify.hpp"
#include "processes.hpp"
#include "use_process.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/run_io.hpp"
#include "rdv/todo.hpp"

#include <gtest/gtest.h>

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
using namespace rdv::proc;
using namespace std::chrono_literals;
using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;
using local_socket = asio::local::stream_protocol::socket;

class Token : public ::testing::Test {
protected:
  asio::io_context io{1};
  std::ostringstream crashes;
  scheduler node{{.crash_log = &crashes}};
  local_socket near{io}, far{io};  // two connected ends, like a client and a server

  Token() {
    run_in(io, node);
    asio::local::connect_pair(near, far);
  }
  ~Token() override { EXPECT_EQ(crashes.str(), "") << "no process should have crashed"; }

  void run_all(clock_type::duration limit = 60s) {
    rdv::test::run_io(io, limit);
    EXPECT_TRUE(io.stopped())
        << "io_context still had work: a timer or an operation leaked, or an operation whose "
           "deadline passed was never cancelled";
  }
};

TEST_F(Token, AProcessWaitsForATimerAsIfItBlockedWhileOthersRun) {
  explained_in("ch06-token");
  int others_ran = 0, message = 0;
  clock_type::duration waited{};
  const pid waiter = node.spawn([&] {
    asio::steady_timer timer(current_io_context(), 20ms);
    const auto started = clock_type::now();
    timer.async_wait(use_process);
    waited = clock_type::now() - started;
    message = receive<int>();
  });
  node.spawn([&others_ran, waiter] {
    ++others_ran;
    send(waiter, 7);  // a message does not end a wait for an operation
  });
  run_all();
  EXPECT_GE(waited, 20ms) << "the message ended the wait for the timer";
  EXPECT_EQ(others_ran, 1) << "the other process runs while the first one waits";
  EXPECT_EQ(message, 7) << "and its message waits in the mailbox";
}

// The operation's handler runs the process at once, in the handler: no
// post, so the handler that comes next in the io_context runs after it.
TEST_F(Token, TheProcessGoesOnInsideItsOperationsHandler) {
  explained_in("ch06-token");
  std::vector<std::string> order;
  asio::steady_timer next(io);
  node.spawn([&] {
    asio::steady_timer timer(current_io_context(), 1ms);
    next.expires_at(timer.expiry() + 1ns);  // due right after the process's own
    next.async_wait([&order](boost::system::error_code) { order.push_back("the next handler"); });
    timer.async_wait(use_process);
    order.push_back("the process");
  });
  node.spawn([] { std::this_thread::sleep_for(20ms); });  // both timers expire meanwhile
  run_all();
  EXPECT_EQ(order, (std::vector<std::string>{"the process", "the next handler"}))
      << "the process should go on inside its operation's handler, not after a post";
}

TEST_F(Token, AReadReturnsTheBytesItRead) {
  explained_in("ch06-token");
  std::string got;
  node.spawn([&] {
    char buffer[16];
    const std::size_t n = far.async_read_some(asio::buffer(buffer), use_process);
    got.assign(buffer, n);
  });
  node.spawn([this] { asio::async_write(near, asio::buffer("hello", 5), use_process); });
  run_all();
  EXPECT_EQ(got, "hello");
}

TEST_F(Token, AnErrorIsThrownOrStoredAsTheTokenSays) {
  explained_in("ch06-token");
  boost::system::error_code stored;
  std::string thrown;
  node.spawn([&] {
    char buffer[16];
    near.close();  // the peer is gone: reads fail with end of file
    far.async_read_some(asio::buffer(buffer), use_process[stored]);
    try {
      far.async_read_some(asio::buffer(buffer), use_process);
    } catch (const boost::system::system_error& e) {
      thrown = e.code().message();
    }
  });
  run_all();
  EXPECT_EQ(stored, asio::error::eof);
  EXPECT_EQ(thrown, boost::system::error_code(asio::error::eof).message());
}

TEST_F(Token, ManyProcessesWaitOnTheirOwnTimersAtOnce) {
  explained_in("ch06-token");
  int woke = 0;
  for (int i = 0; i < 1000; ++i) {
    node.spawn([&woke, i] {
      asio::steady_timer timer(current_io_context(), std::chrono::microseconds(i * 10));
      timer.async_wait(use_process);
      ++woke;
    });
  }
  run_all();
  EXPECT_EQ(woke, 1000);
}

TEST_F(Token, OnlyAProcessCanWaitWithIt) {
  explained_in("ch06-token");
  asio::steady_timer timer(io, 1ms);
  try {
    timer.async_wait(use_process);
    ADD_FAILURE() << "outside a process, use_process should throw std::logic_error";
  } catch (const rdv::todo&) {
    throw;  // the exercise's stub (a logic_error too) is no answer
  } catch (const std::logic_error&) {}
}

TEST_F(Token, WithinCancelsAnOperationThatTakesTooLong) {
  explained_in("ch06-within");
  boost::system::error_code ec;
  clock_type::duration waited{};
  std::string then;
  node.spawn([&] {
    char buffer[16];
    const auto started = clock_type::now();
    far.async_read_some(asio::buffer(buffer), use_process.within(20ms)[ec]);
    waited = clock_type::now() - started;
    asio::async_write(near, asio::buffer("late", 4), use_process);  // the socket still works
    then.assign(buffer, far.async_read_some(asio::buffer(buffer), use_process));
  });
  run_all(10s);  // the read ends 20 ms in: ten seconds is a wide margin
  ASSERT_NE(waited, clock_type::duration{})
      << "the read with a 20 ms deadline still waited 10 s later: the deadline fired, but "
         "the read was not cancelled. Asio asks the handler for its cancellation slot once, "
         "as the operation starts: was the signal there by then?";
  EXPECT_EQ(ec, asio::error::timed_out);
  EXPECT_GE(waited, 20ms);
  EXPECT_EQ(then, "late");
}

TEST_F(Token, WithinZeroCancelsAtOnceAndWithinForEverNever) {
  explained_in("ch06-within");
  boost::system::error_code at_once, less_than_none, never_before, never_after;
  node.spawn([&] {
    char buffer[16];
    far.async_read_some(asio::buffer(buffer), use_process.within(0ms)[at_once]);
    far.async_read_some(asio::buffer(buffer), use_process.within(-5ms)[less_than_none]);
    asio::steady_timer timer(io);
    timer.expires_after(20ms);
    timer.async_wait(use_process.within(clock_type::duration::max())[never_before]);
    timer.expires_after(20ms);
    timer.async_wait(use_process.within(clock_type::duration::max() - 1ns)[never_after]);
  });
  run_all(10s);
  EXPECT_EQ(at_once, asio::error::timed_out)
      << "a deadline of 0 has passed when the operation starts: " << at_once.message();
  EXPECT_EQ(less_than_none, asio::error::timed_out)
      << "so has a deadline of -5 ms: " << less_than_none.message();
  EXPECT_FALSE(never_before) << "a deadline the clock never reaches never cancels: "
                             << never_before.message();
  EXPECT_FALSE(never_after) << never_after.message();
}

TEST_F(Token, WithinLetsAnOperationThatCompletesInTimeFinishAndLeavesNoTimer) {
  explained_in("ch06-within");
  std::string got;
  node.spawn([&] {
    char buffer[16];
    got.assign(buffer, far.async_read_some(asio::buffer(buffer), use_process.within(1h)));
  });
  node.spawn([this] { asio::async_write(near, asio::buffer("quick", 5), use_process); });
  run_all();  // returns at once only if the hour-long deadline was cancelled
  EXPECT_EQ(got, "quick");
}

TEST_F(Token, AnOperationDoneWhenItsDeadlineRingsHasSucceeded) {
  explained_in("ch06-within");
  boost::system::error_code ec = asio::error::would_block;  // anything but success, until set
  node.spawn([&] {
    asio::steady_timer timer(io, 60ms);
    // The io_context's thread is kept busy until the deadline (40 ms) and the
    // timer (60 ms) have both passed, so that one pass of the io_context
    // finds both due: the deadline rings while the timer's wait, done
    // already, can no longer be cancelled. It succeeded, and says so.
    const auto both_due = timer.expiry() + 20ms;
    asio::post(io, [both_due] {
      while (clock_type::now() < both_due) std::this_thread::yield();
    });
    timer.async_wait(use_process.within(40ms)[ec]);
  });
  run_all(10s);
  EXPECT_FALSE(ec) << "the timer's wait completed, unharmed, as its deadline rang: " << ec.message()
                   << ". A deadline that passed tells an operation cancelled by it from one "
                      "that failed; it does not fail one that succeeded";
}

// An operation and its deadline can complete in the same pass of the
// io_context: the operation's handler resumes the process, which goes on
// while the deadline's handler still waits to run. That handler must find
// the wait over, or it would cancel through a signal that lived in a frame
// that is gone. It finds so by the ticket: once the call returns, the ticket
// it waited with must be retired.
TEST_F(Token, TheCallRetiresItsTicketBeforeItReturns) {
  explained_in("ch06-within");
  bool held_after_plain = true, held_after_within = true, held_after_throwing = true;
  node.spawn([&] {
    asio::steady_timer timer(io);
    held_after_plain = ch06::leaves_its_ticket_live([&] {
      timer.expires_after(0ms);
      timer.async_wait(use_process);
    });
    held_after_within = ch06::leaves_its_ticket_live([&] {
      timer.expires_after(0ms);
      timer.async_wait(use_process.within(1h));
    });
    held_after_throwing = ch06::leaves_its_ticket_live([&] {
      timer.expires_after(1h);
      asio::post(io, [&] { timer.cancel(); });
      try {
        timer.async_wait(use_process);  // operation_aborted, thrown
      } catch (const boost::system::system_error&) {}
    });
  });
  run_all();
  EXPECT_FALSE(held_after_throwing) << "use_process threw with its ticket still live";
  EXPECT_FALSE(held_after_plain) << "use_process returned with its ticket still live";
  EXPECT_FALSE(held_after_within) << "use_process.within returned with its ticket still live: "
                                     "a late deadline would take it for a wait in progress";
}

TEST_F(Token, ASpawnFromAnAsioHandlerRunsInTheSameLoop) {
  explained_in("ch06-loop");
  bool ran = false;
  asio::post(io, [this, &ran] { node.spawn([&ran] { ran = true; }); });
  run_all();
  EXPECT_TRUE(ran);
}

struct readable {};  // the tag of a wait for the client to speak or leave
struct reply {
  std::string body;
};

// Chapter 10's hub holds a client until a reply comes, a timeout fires, or
// the client goes away: a message, a timer, or a socket, whichever is first.
std::string hold(local_socket& client, std::chrono::milliseconds limit) {
  client.async_wait(local_socket::wait_read, notify(self(), readable{}));
  std::string outcome = receive([](const reply& r) { return "reply: " + r.body; },
                                [](const completed<readable>&) { return std::string("gone"); },
                                after(limit, [] { return std::string("504"); }));
  if (outcome != "gone") {
    client.cancel();                 // the wait completes at once, aborted...
    receive<completed<readable>>();  // ...and its message must not confuse the next hold
  }
  return outcome;
}

TEST_F(Token, AProcessWaitsForAMessageOrItsSocketWhicheverComesFirst) {
  explained_in("ch06-notify");
  std::string first, second, third;
  node.spawn([&] {
    const pid me = self();
    spawn([me] { send(me, reply{"42"}); });
    first = hold(far, 1h);     // the reply wins
    second = hold(far, 10ms);  // nothing comes: the timeout wins
    near.close();
    third = hold(far, 1h);  // the client leaves
  });
  run_all();
  EXPECT_EQ(first, "reply: 42");
  EXPECT_EQ(second, "504");
  EXPECT_EQ(third, "gone");
}

}  // namespace
