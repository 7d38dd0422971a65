// Chapter 6's tests of receive ... after (exercise ch06.1). Every test runs
// processes inside an io_context on this thread. Timeouts under test are
// short and only bounded below (a timer never fires early); a timeout that
// must not fire is an hour long.
#include "after.hpp"
#include "loop_fixture.hpp"
#include "processes.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace rdv::proc;
using namespace std::chrono_literals;
using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;

// An io_context and a scheduler that runs in it.
using Loop = ch06::loop_test;

const auto message = [](int) { return std::string("message"); };
const auto timeout = [] { return std::string("timeout"); };

TEST_F(Loop, ATimeoutFiresWhenNoMessageComes) {
  explained_in("ch06-after");
  std::string got;
  clock_type::duration waited{};
  bool still_held = true;
  node.spawn([&] {
    const auto started = clock_type::now();
    still_held =
        ch06::leaves_its_ticket_live([&] { got = receive(message, after(20ms, timeout)); });
    waited = clock_type::now() - started;
  });
  run_all();
  EXPECT_EQ(got, "timeout");
  EXPECT_GE(waited, 20ms) << "a timer never fires early";
  EXPECT_FALSE(still_held) << "the receive timed out with its ticket still live: whichever way "
                              "the wait ends, its ticket is retired";
}

TEST_F(Loop, AMessageAlreadyInTheMailboxWinsWithoutWaiting) {
  explained_in("ch06-after");
  std::string got;
  node.spawn([&] {
    send(self(), 7);
    got = receive(message, after(1h, timeout));
  });
  run_all();
  EXPECT_EQ(got, "message");
}

TEST_F(Loop, AMessageThatComesWhileWaitingBeatsTheTimeoutAndCancelsTheTimer) {
  explained_in("ch06-race");
  std::string got;
  bool still_held = true;
  const pid waiter = node.spawn([&] {
    still_held = ch06::leaves_its_ticket_live([&] { got = receive(message, after(1h, timeout)); });
  });
  node.spawn([waiter] { send(waiter, 1); });
  run_all();  // returns at once only if the hour-long timer was cancelled
  EXPECT_EQ(got, "message");
  EXPECT_FALSE(still_held) << "the receive returned with its ticket still live: the wait is over "
                              "once the message won";
}

TEST_F(Loop, UnwantedMessagesDoNotEndTheWait) {
  explained_in("ch06-race");
  std::vector<std::string> got;
  clock_type::duration waited{};
  const pid waiter = node.spawn([&] {
    const auto started = clock_type::now();
    got.push_back(receive(message, after(50ms, timeout)));
    waited = clock_type::now() - started;
    got.push_back(receive<std::string>());  // still in the mailbox
  });
  node.spawn([waiter] {
    send(waiter, std::string("not an int"));
    yield();
    send(waiter, 2.5);
  });
  run_all();
  EXPECT_EQ(got, (std::vector<std::string>{"timeout", "not an int"}));
  EXPECT_GE(waited, 50ms) << "the messages it did not want woke the waiter, but must not end its "
                             "wait: only the timer may, and a timer never fires early";
}

TEST_F(Loop, UnwantedMessagesDoNotPutOffTheTimeout) {
  explained_in("ch06-race");
  std::string got;
  clock_type::duration waited{};
  bool over = false;
  const pid waiter = node.spawn([&] {
    const auto started = clock_type::now();
    got = receive(message, after(50ms, timeout));
    waited = clock_type::now() - started;
    over = true;
  });
  node.spawn([&over, waiter] {  // an unwanted message every 5 ms, for 5 s at most
    for (const auto until = clock_type::now() + 5s; !over && clock_type::now() < until;) {
      send(waiter, std::string("unwanted"));
      receive([](int) { return 0; }, after(5ms, [] { return 0; }));
    }
  });
  run_all();
  EXPECT_EQ(got, "timeout");
  EXPECT_LT(waited, 2500ms) << "a 50 ms timeout should end the wait however many unwanted "
                               "messages come meanwhile: the limit counts from the receive, not "
                               "from the last message";
}

TEST_F(Loop, ALimitTooLongToReachWaitsForTheMessage) {
  explained_in("ch06-after");
  std::vector<std::string> got(3);
  boost::asio::steady_timer later(io, 20ms);
  // Three processes, each waiting when its message comes.
  const std::vector<pid> waiters = {
      node.spawn([&] { got[0] = receive(message, after(clock_type::duration::max(), timeout)); }),
      node.spawn(
          [&] { got[1] = receive(message, after(clock_type::duration::max() - 1ns, timeout)); }),
      node.spawn([&] { got[2] = receive(message, after(std::chrono::hours::max(), timeout)); })};
  later.async_wait([&](boost::system::error_code) {
    for (const pid waiter : waiters) node.send(waiter, 1);
  });
  run_all();
  EXPECT_EQ(got, (std::vector<std::string>{"message", "message", "message"}))
      << "steady_clock::duration::max() waits for ever, as Erlang's after infinity does, and so "
         "does any limit the clock cannot reach: now() + limit must not wrap around into the "
         "past";
}

TEST_F(Loop, ALateMessageOrALateTimerWinsOnceAndDisturbsNothingAfter) {
  explained_in("ch06-race");
  std::vector<std::string> got;
  const pid helper = node.spawn([] {
    const pid back = receive<pid>();  // once the race below is decided
    send(back, 99);
  });
  const pid waiter = node.spawn([&, helper] {
    got.push_back(receive(message, after(1ms, timeout)));
    send(helper, self());
    // Whichever won, this hour-long wait must end with the next int sent:
    // the 1 if the timer won, the 99 if the 1 did. Never with a timeout.
    got.push_back(receive([](int i) { return std::to_string(i); }, after(1h, timeout)));
  });
  node.spawn([waiter] {
    std::this_thread::sleep_for(5ms);  // the 1 ms timer expires while this runs
    send(waiter, 1);
  });
  run_all();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[0] == "message" || got[0] == "timeout") << got[0];
  EXPECT_EQ(got[1], got[0] == "message" ? "99" : "1") << "the second receive took "
                                                         "the wrong message";
}

// Both happen before the waiter runs again: its timer fires, and a message it
// wants is already in its mailbox. The message wins (it is there; the clock
// only says that waiting is over). To make that state certain rather than
// likely: a plain Asio timer that expires just before the waiter's delivers
// the message from outside any process, which makes the waiter runnable
// without running it; the waiter's timer, expired in the same pass of the
// io_context, comes next and finds it so.
TEST_F(Loop, AMessageAndATimerThatBothCameBeforeTheWaiterRunsGoToTheMessage) {
  explained_in("ch06-race");
  std::string got;
  boost::asio::steady_timer first(io);
  node.spawn([&] {
    first.expires_after(0ms);  // due before the receive's timer below
    first.async_wait([&, waiter = self()](boost::system::error_code) { node.send(waiter, 1); });
    got = receive(message, after(1ms, timeout));
  });
  node.spawn([] { std::this_thread::sleep_for(20ms); });  // both timers expire meanwhile
  run_all();
  EXPECT_EQ(got, "message") << "when the waiter runs again, a wanted message is in its mailbox "
                               "and its timer has fired: look at the mailbox before the clock";
}

TEST_F(Loop, AZeroTimeoutPolls) {
  explained_in("ch06-poll");
  std::vector<std::string> got;
  node.spawn([&] {
    got.push_back(receive(message, after(0ms, timeout)));
    send(self(), 3);
    got.push_back(receive(message, after(0ms, timeout)));
    got.push_back(receive(message, after(-5s, timeout)));  // negative: the same as zero
  });
  run_all();
  EXPECT_EQ(got, (std::vector<std::string>{"timeout", "message", "timeout"}));
}

TEST_F(Loop, ReceiveNowDrainsWhatIsThereAndNeverWaits) {
  explained_in("ch06-poll");
  int taken = 0;
  bool other_left = false, nothing_then = false;
  node.spawn([&] {
    for (int i = 0; i < 3; ++i) send(self(), i);
    send(self(), std::string("not an int"));
    while (receive_now([&](int n) { taken += n + 1; })) {}  // 1 + 2 + 3
    nothing_then = !receive_now([](int) {});
    other_left = receive_now([](const std::string&) {});
  });
  run_all();
  EXPECT_EQ(taken, 6) << "receive_now should take each int already there, in order";
  EXPECT_TRUE(nothing_then) << "with no int left, receive_now answers false at once";
  EXPECT_TRUE(other_left) << "messages of other types stay in the mailbox";
}

TEST_F(Loop, AStaleTicketWakesNobody) {
  explained_in("ch06-race");
  wait_ticket old{};
  bool done = false;
  const pid p = node.spawn([&] {
    scheduler& s = scheduler::current();
    old = s.ticket();
    s.wait(wake_on::ticket_or_message);  // a message ends it
    s.retire(old);
    receive<std::string>();  // a plain receive: only a string ends it
    done = true;
  });
  node.spawn([p] { send(p, 1); });
  run_all();
  EXPECT_FALSE(node.wake(old)) << "a retired ticket must not wake the process";
  EXPECT_FALSE(done);
  node.spawn([p] { send(p, std::string("now")); });
  io.restart();
  run_all();
  EXPECT_TRUE(done);
}

}  // namespace
