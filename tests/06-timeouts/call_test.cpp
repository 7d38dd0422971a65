// Chapter 6's tests of calls: make_ref(), answers tagged with their call,
// and call(), which also hears of a callee that ends without answering.
#include "call.hpp"
#include "loop_fixture.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace rdv::proc;
using namespace std::chrono_literals;
using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;

using Call = ch06::loop_test;

// What the tests' callee is asked: a number to double.
struct double_it {
  caller from;
  int n;
};

// A process that answers one request, then does `after_answer()`.
template <class F>
pid doubler(scheduler& node, F after_answer) {
  return node.spawn([after_answer] {
    const auto asked = receive<double_it>();
    answer(asked.from, 2 * asked.n);
    after_answer();
  });
}

TEST_F(Call, EveryReferenceIsNew) {
  explained_in("ch06-call");
  const ref a = make_ref(), b = make_ref();
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a == ref{}) << "a default reference refers to nothing";
}

TEST_F(Call, TheAnswerToThisCallIsTakenAndALateAnswerToAnEarlierOneDropped) {
  explained_in("ch06-call");
  std::optional<int> got;
  bool stale_left = true;
  node.spawn([&] {
    const ref earlier = make_ref(), now = make_ref();
    send(self(), reply<int>{earlier, 1});  // came after its caller gave up
    send(self(), reply<int>{now, 2});
    got = await_reply<int>(now, clock_type::now() + 1h);
    stale_left = receive_now([](reply<int>&) {});
  });
  run_all();
  EXPECT_EQ(got, 2);
  EXPECT_FALSE(stale_left) << "the earlier call's answer should have been dropped on the way";
}

TEST_F(Call, AwaitingAnAnswerThatNeverComesEndsAtTheDeadline) {
  explained_in("ch06-call");
  std::optional<int> got = 0;
  clock_type::duration waited{};
  node.spawn([&] {
    const auto started = clock_type::now();
    got = await_reply<int>(make_ref(), started + 20ms);
    waited = clock_type::now() - started;
  });
  run_all();
  EXPECT_EQ(got, std::nullopt);
  EXPECT_GE(waited, 20ms);
}

TEST_F(Call, ACallGetsItsAnswerAndLeavesNoDownBehindWhenTheCalleeEndsRightAfter) {
  explained_in("ch06-call");
  std::optional<int> got;
  bool down_left = true;
  const pid callee = doubler(node, [] {});  // answers, then ends before the caller runs
  node.spawn([&] {
    got = call<int>(callee, [](caller me) { return double_it{me, 21}; });
    down_left = receive_now([](down&) {});
  });
  run_all();
  EXPECT_EQ(got, 42);
  EXPECT_FALSE(down_left) << "the callee's down should not outlive the call";
}

TEST_F(Call, ACallLeavesNoMonitorBehindWhenTheCalleeLivesOn) {
  explained_in("ch06-call");
  std::vector<std::size_t> monitors_after;  // after each call
  std::optional<int> unanswered = 0;
  bool down_left = true;
  const pid callee = node.spawn([] {
    for (int i = 0; i < 2; ++i) {
      const auto asked = receive<double_it>();
      answer(asked.from, 2 * asked.n);
    }
    (void)receive<double_it>();    // the third call goes unanswered
    (void)receive<std::string>();  // and the callee lives on, till told to end
  });
  node.spawn([&] {
    for (const int n : {1, 2}) {
      EXPECT_EQ(call<int>(callee, [n](caller me) { return double_it{me, n}; }), 2 * n);
      monitors_after.push_back(node.monitor_count());
    }
    unanswered =
        call<int>(callee, [](caller me) { return double_it{me, 3}; }, clock_type::now() + 20ms);
    monitors_after.push_back(node.monitor_count());
    send(callee, std::string("end"));
    monitor(callee);
    (void)receive<down>();  // this monitor's
    down_left = receive_now([](down&) {});
  });
  run_all();
  EXPECT_EQ(unanswered, std::nullopt);
  EXPECT_EQ(monitors_after, (std::vector<std::size_t>{0, 0, 0}))
      << "a call that returned, answered or not, should have taken its monitor off the callee";
  EXPECT_FALSE(down_left) << "the callee's end, long after the calls, sent downs nobody asked for";
}

TEST_F(Call, ACallEndsWhenTheCalleeEndsWithoutAnswering) {
  explained_in("ch06-call");
  std::optional<int> got = 0;
  const pid callee = node.spawn([] { (void)receive<double_it>(); });
  node.spawn([&] { got = call<int>(callee, [](caller me) { return double_it{me, 1}; }); });
  run_all();
  EXPECT_EQ(got, std::nullopt) << "nobody will answer: the call should end, empty";
}

TEST_F(Call, ACallPutsBackTheDownOfAnotherProcessItsCallerMonitors) {
  explained_in("ch06-call");
  std::optional<pid> other_down;
  const pid other = node.spawn([] {});
  const pid callee = doubler(node, [] {});
  node.spawn([&] {
    monitor(other);  // ends while the call waits
    EXPECT_EQ(call<int>(callee, [](caller me) { return double_it{me, 1}; }), 2);
    receive_now([&](down& d) { other_down = d.who; });
  });
  run_all();
  EXPECT_EQ(other_down, other) << "the call should have left another process's down in the mailbox";
}

}  // namespace
