// Chapter 6: the alarm clock, one timer for every deadline of a scheduler —
// alarms ring in the order of their times and never early, a cleared alarm
// never rings, and a clock with no alarm set leaves the io_context nothing
// to wait for.
#include "alarm_clock.hpp"

#include "loop_fixture.hpp"

#include "after.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <random>
#include <vector>

namespace {

using rdv::test::explained_in;
using namespace std::chrono_literals;
namespace proc = rdv::proc;
using rdv::proc::alarm_clock;
using rdv::proc::rang;
using AlarmClock = ch06::loop_test;
using clock_type = alarm_clock::clock;

// An alarm of the calling process, and what the test knows of it.
struct timed_alarm {
  proc::ref tag = proc::make_ref();
  alarm_clock::alarm alarm{tag};
  clock_type::time_point at = clock_type::time_point::max();  // max: not set
  clock_type::time_point rang_at{};
  int rings = 0;
};

// Takes rang messages until `count` have come (or a minute has passed), and
// marks each on the alarm whose tag it carries.
void take_rings(std::vector<std::unique_ptr<timed_alarm>>& alarms, std::size_t count,
                std::vector<std::size_t>& order) {
  for (std::size_t got = 0; got < count; ++got) {
    const bool came = proc::receive(
        [&](const rang& r) {
          const auto it = std::find_if(alarms.begin(), alarms.end(),
                                       [&](const auto& a) { return a->tag == r.tag; });
          if (it == alarms.end()) {
            ADD_FAILURE() << "a rang with the tag of no alarm of this test";
            return true;
          }
          (*it)->rang_at = clock_type::now();
          ++(*it)->rings;
          order.push_back(static_cast<std::size_t>(it - alarms.begin()));
          return true;
        },
        proc::after(60s, [] { return false; }));
    ASSERT_TRUE(came) << "only " << got << " of " << count << " alarms rang within a minute";
  }
}

TEST_F(AlarmClock, AlarmsRingInTheOrderOfTheirTimesAndNeverEarly) {
  explained_in("ch06-alarm-clock");
  node.spawn([] {
    std::vector<std::unique_ptr<timed_alarm>> alarms;
    const auto start = clock_type::now();
    for (int i = 0; i < 200; ++i) {  // 10 to 60 ms, mixed, some at the same time
      auto a = std::make_unique<timed_alarm>();
      a->at = start + 10ms + std::chrono::milliseconds((i * 37) % 51);
      a->alarm.set(a->at);
      alarms.push_back(std::move(a));
    }
    EXPECT_EQ(proc::scheduler::current().use<alarm_clock>().size(), 200u);
    std::vector<std::size_t> order;
    take_rings(alarms, alarms.size(), order);
    for (std::size_t i = 1; i < order.size(); ++i) {
      EXPECT_LE(alarms[order[i - 1]]->at, alarms[order[i]]->at)
          << "ring " << i << " came before an earlier alarm's";
    }
    for (const auto& a : alarms) {
      EXPECT_GE(a->rang_at, a->at) << "an alarm rang early";
      EXPECT_EQ(a->rings, 1);
    }
    EXPECT_EQ(proc::scheduler::current().use<alarm_clock>().size(), 0u);
  });
  run_all();
}

TEST_F(AlarmClock, AClearedAlarmNeverRingsAndAResetOneRingsOnceAtItsNewTime) {
  explained_in("ch06-alarm-clock");
  node.spawn([] {
    std::vector<std::unique_ptr<timed_alarm>> alarms;
    for (int i = 0; i < 3; ++i) alarms.push_back(std::make_unique<timed_alarm>());
    const auto start = clock_type::now();
    alarms[0]->alarm.set(start + 10ms);
    alarms[0]->alarm.clear();  // never rings
    alarms[1]->alarm.set(start + 1h);
    alarms[1]->at = start + 20ms;
    alarms[1]->alarm.set(alarms[1]->at);  // moved: rings at 20 ms
    alarms[2]->at = start + 30ms;
    alarms[2]->alarm.set(alarms[2]->at);
    std::vector<std::size_t> order;
    take_rings(alarms, 2, order);
    EXPECT_EQ(order, (std::vector<std::size_t>{1, 2}));
    EXPECT_GE(alarms[1]->rang_at, alarms[1]->at);
    alarms[2]->alarm.set(alarms[2]->at);  // rang for this time already: nothing
    const bool more =
        proc::receive([](const rang&) { return true; }, proc::after(50ms, [] { return false; }));
    EXPECT_FALSE(more) << "an alarm rang twice, or a cleared one rang";
  });
  run_all();
}

TEST_F(AlarmClock, AClockWithNoAlarmSetLeavesTheEventLoopNothingToWaitFor) {
  explained_in("ch06-alarm-clock");
  const auto start = clock_type::now();
  // run() returns when nothing is left to wait for: if the clock's timer
  // still waited for a cleared hour-long alarm, it would not for an hour.
  node.spawn([] {
    timed_alarm early, late;
    early.alarm.set(clock_type::now() + 1h);
    late.alarm.set(clock_type::now() + 2h);
    early.alarm.clear();
    late.alarm.clear();
  });
  run_all();
  EXPECT_LT(clock_type::now() - start, 30s);
}

TEST_F(AlarmClock, TenThousandAlarmsSetMovedAndClearedInAnyOrderRingInOrder) {
  explained_in("ch06-alarm-clock");
  node.spawn([] {
    std::mt19937 random(20'000);  // a fixed seed: the same run every time
    std::uniform_int_distribution<int> ms(20, 220);
    std::vector<std::unique_ptr<timed_alarm>> alarms;
    const auto start = clock_type::now();
    for (int i = 0; i < 10'000; ++i) {
      auto a = std::make_unique<timed_alarm>();
      a->at = start + std::chrono::milliseconds(ms(random));
      a->alarm.set(a->at);
      alarms.push_back(std::move(a));
    }
    // Every third moved, every seventh cleared: each leaves the heap
    // from the middle, and what takes its place must find its own.
    std::size_t set = alarms.size();
    for (std::size_t i = 0; i < alarms.size(); ++i) {
      if (i % 7 == 0) {
        alarms[i]->alarm.clear();
        alarms[i]->at = clock_type::time_point::max();
        --set;
      } else if (i % 3 == 0) {
        alarms[i]->at = start + std::chrono::milliseconds(ms(random));
        alarms[i]->alarm.set(alarms[i]->at);
      }
    }
    EXPECT_EQ(proc::scheduler::current().use<alarm_clock>().size(), set);
    std::vector<std::size_t> order;
    take_rings(alarms, set, order);
    for (std::size_t i = 1; i < order.size(); ++i) {
      ASSERT_LE(alarms[order[i - 1]]->at, alarms[order[i]]->at)
          << "ring " << i << " came before an earlier alarm's";
    }
    for (const auto& a : alarms) {
      if (a->at == clock_type::time_point::max()) {
        EXPECT_EQ(a->rings, 0) << "a cleared alarm rang";
      } else {
        EXPECT_GE(a->rang_at, a->at) << "an alarm rang early";
      }
    }
  });
  run_all();
}

}  // namespace
