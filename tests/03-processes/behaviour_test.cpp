// Chapter 3's behaviours: what the exercises give together. Message order,
// selective receive, many processes, crashes, stacks and shutdown.
#include "processes.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;

class Behaviour : public ::testing::Test {
protected:
  std::ostringstream crashes;
  scheduler node{{.crash_log = &crashes}};
};

struct tagged {
  int sender;
  int sequence;
};

TEST_F(Behaviour, MessagesFromOneSenderArriveInTheOrderSent) {
  explained_in("ch03-send");
  std::vector<std::pair<int, int>> got;
  const pid collector = node.spawn([&got] {
    for (int i = 0; i < 300; ++i) {
      const tagged t = receive<tagged>();
      got.emplace_back(t.sender, t.sequence);
    }
  });
  for (int sender = 0; sender < 3; ++sender) {
    node.spawn([collector, sender] {
      for (int i = 0; i < 100; ++i) {
        send(collector, tagged{sender, i});
        if (i % 7 == sender) yield();  // interleave the senders
      }
    });
  }
  node.run();
  ASSERT_EQ(got.size(), 300u);
  int next[3] = {0, 0, 0};
  for (auto [sender, sequence] : got) {
    EXPECT_EQ(sequence, next[sender]) << "sender " << sender << "'s messages are out of order";
    next[sender] = sequence + 1;
  }
}

TEST_F(Behaviour, SelectiveReceiveTakesTheFirstMatchAndLeavesTheRestQueued) {
  explained_in("ch03-selective");
  std::vector<std::string> log;
  node.spawn([&log] {
    send(self(), std::string("a"));
    send(self(), 1);
    send(self(), std::string("b"));
    send(self(), 2.5);
    log.push_back("double " + std::to_string(receive<double>()));
    receive([&log](int i) { log.push_back("int " + std::to_string(i)); },
            [&log](const std::string& s) { log.push_back("string " + s); });
    for (int i = 0; i < 2; ++i) {
      receive([&log](int n) { log.push_back("int " + std::to_string(n)); },
              [&log](std::string s) { log.push_back("string " + s); });
    }
  });
  node.run();
  EXPECT_EQ(log, (std::vector<std::string>{"double 2.500000", "string a", "int 1", "string b"}));
}

TEST_F(Behaviour, AWaitingReceiveIgnoresMessagesItDoesNotWant) {
  explained_in("ch03-selective");
  std::string got;
  const pid waiter = node.spawn([&got] { got = receive<std::string>(); });
  node.spawn([waiter] {
    for (int i = 0; i < 5; ++i) {
      send(waiter, i);  // wakes it, but it only wants a string
      yield();
    }
    send(waiter, std::string("at last"));
  });
  node.run();
  EXPECT_EQ(got, "at last");
}

TEST_F(Behaviour, ReceiveReturnsWhatTheChosenHandlerReturns) {
  explained_in("ch03-selective");
  node.spawn([] {
    send(self(), 20);
    send(self(), std::string("four"));
    auto length = [](const std::string& s) { return static_cast<long>(s.size()); };
    auto twice = [](int i) { return 2L * i; };
    EXPECT_EQ(receive(length, twice), 40);
    EXPECT_EQ(receive(length, twice), 4);
  });
  node.run();
}

TEST_F(Behaviour, MessagesCanBeAnyMovableType) {
  explained_in("ch03-messages");
  struct large {
    long values[20];
  };
  node.spawn([] {
    send(self(), std::make_unique<int>(7));
    send(self(), std::vector<std::string>{"x", "y"});
    send(self(), large{{1, 2, 3}});
    EXPECT_EQ(*receive<std::unique_ptr<int>>(), 7);
    EXPECT_EQ(receive<std::vector<std::string>>().size(), 2u);
    EXPECT_EQ(receive<large>().values[2], 3);
    send(self(), std::string("left unread"));  // freed when the process ends
  });
  node.run();
}

// Chapter 7 spawns a process per connection whose function owns its socket
// and changes it: a spawn that keeps the function const would first fail
// there, far from the mistake. (If this file does not compile, look at how
// spawn() stores and calls the function.)
TEST_F(Behaviour, AProcessOwnsItsFunctionAndMayChangeWhatItHolds) {
  explained_in("ch03-spawn");
  std::unique_ptr<int> handed_back;
  node.spawn([owned = std::make_unique<int>(41), &handed_back]() mutable {
    ++*owned;                        // a mutable function changes what it owns
    handed_back = std::move(owned);  // and may give it away
  });
  node.run();
  ASSERT_TRUE(handed_back) << "the process did not run its function to the end";
  EXPECT_EQ(*handed_back, 42);
}

TEST_F(Behaviour, ASendToAnEndedProcessIsDropped) {
  explained_in("ch03-send");
  const pid gone = node.spawn([] {});
  node.run();
  node.spawn([gone] { EXPECT_FALSE(send(gone, 1)) << "as in Erlang, the send goes nowhere"; });
  node.run();
}

TEST_F(Behaviour, APidIsNeverConfusedWithTheProcessThatReusesItsSlot) {
  explained_in("ch03-pids");
  const pid old = node.spawn([] {});
  node.run();
  const pid reuser = node.spawn([] { receive<int>(); });
  EXPECT_EQ(reuser.number, old.number) << "the freed slot is reused";
  EXPECT_NE(reuser, old) << "but with a new serial";
  EXPECT_FALSE(node.alive(old));
  node.spawn([old, reuser] {
    EXPECT_FALSE(send(old, 1));
    EXPECT_TRUE(send(reuser, 2));
  });
  node.run();
  EXPECT_EQ(node.process_count(), 0u);
}

// ThreadSanitizer keeps state for every fiber and stops at 8128 of them.
#if defined(__SANITIZE_THREAD__)
constexpr int many = 8'000;
#else
constexpr int many = 100'000;
#endif

TEST_F(Behaviour, AHundredThousandProcessesWaitAtOnce) {
  explained_in("ch03-many");
  constexpr int count = many;
  long long sum = 0;
  node.spawn([&sum] {
    const pid parent = self();
    std::vector<pid> children;
    children.reserve(count);
    for (int i = 0; i < count; ++i) {
      children.push_back(spawn([parent] { send(parent, receive<int>() + 1); }));
    }
    for (int i = 0; i < count; ++i) send(children[i], i);
    for (int i = 0; i < count; ++i) sum += receive<int>();
  });
  node.run();
  EXPECT_EQ(sum, static_cast<long long>(count) * (count + 1) / 2);
  EXPECT_EQ(node.process_count(), 0u);
}

TEST_F(Behaviour, AnExceptionEndsOnlyTheProcessThatThrew) {
  explained_in("ch03-crash");
  std::vector<std::string> log;
  node.spawn([&log] {
    log.push_back("before");
    throw std::runtime_error("boom");
  });
  node.spawn([&log] {
    yield();
    log.push_back("the others go on");
  });
  EXPECT_NO_THROW(node.run()) << "a process's exception must not leave run()";
  EXPECT_EQ(log, (std::vector<std::string>{"before", "the others go on"}));
  EXPECT_EQ(crashes.str(), "rdv::proc: process <0.1.0> exited: std::runtime_error: boom\n");
}

TEST_F(Behaviour, YieldLetsTheOtherRunnableProcessesGoFirst) {
  explained_in("ch03-run");
  std::string order;
  node.spawn([&order] {
    order += 'a';
    yield();
    order += 'c';
  });
  node.spawn([&order] { order += 'b'; });
  node.run();
  EXPECT_EQ(order, "abc");
}

TEST_F(Behaviour, StacksAreReusedAsProcessesEnd) {
  explained_in("ch03-stacks");
  node.spawn([] {
    for (int i = 0; i < 10'000; ++i) {
      spawn([] {});
      yield();
    }
  });
  node.run();
  EXPECT_EQ(node.stacks().in_use(), 0u);
  EXPECT_EQ(node.process_count(), 0u);
}

TEST(Scheduler, DestroyingItUnwindsTheProcessesThatStillWait) {
  explained_in("ch03-shutdown");
  int destroyed = 0;
  struct counts_destruction {
    int& count;
    ~counts_destruction() { ++count; }
  };
  {
    scheduler node;
    for (int i = 0; i < 3; ++i) {
      node.spawn([&destroyed] {
        counts_destruction guard{destroyed};
        receive<int>();  // never comes
      });
    }
    node.spawn([&destroyed] { counts_destruction never_run{destroyed}; });
    node.run();
    node.spawn([] {});  // spawned, never run
    EXPECT_EQ(destroyed, 1) << "only the process that ran to its end";
  }
  EXPECT_EQ(destroyed, 4) << "the waiting processes' locals are destroyed with the scheduler";
}

TEST(Scheduler, SelfOutsideAProcessIsAnError) {
  explained_in("ch03-shutdown");
  EXPECT_THROW(self(), std::logic_error) << "no scheduler at all";
  scheduler node;
  EXPECT_THROW(self(), std::logic_error) << "the thread that runs the scheduler is no process";
  EXPECT_EQ(&scheduler::current(), &node);
  {
    scheduler inner;
    EXPECT_EQ(&scheduler::current(), &inner) << "the newest scheduler is current";
  }
  EXPECT_EQ(&scheduler::current(), &node);
}

TEST(Scheduler, ASpawnWithoutAStackLeavesNothingBehind) {
  explained_in("ch03-spawn");
  scheduler node({.stacks = {.size = std::size_t{1} << 40}});  // more than the address space
  EXPECT_THROW(node.spawn([] {}), std::system_error);
  EXPECT_EQ(node.process_count(), 0u);
  node.run();  // nothing to run: the process that could not start is in no line
  EXPECT_EQ(node.stacks().in_use(), 0u);
}

TEST(Scheduler, TellsItsHookWhenAProcessBecomesRunnableOutsideRun) {
  explained_in("ch03-spawn");
  scheduler node;
  int told = 0;
  node.on_runnable([&told] { ++told; });
  node.spawn([] {});
  EXPECT_EQ(told, 1) << "a spawn puts the process in line through make_runnable(), which "
                        "tells the hook (chapter 6's event loop) that there is work";
  node.spawn([] {});
  EXPECT_EQ(told, 1) << "once until run() starts again";
  const pid waiter = node.spawn([] { receive<int>(); });
  node.run();
  node.send(waiter, 7);  // from outside run(): a wake-up
  EXPECT_EQ(told, 2);
  node.run();
  EXPECT_EQ(node.process_count(), 0u);
}

TEST(Stacks, AGuardPageStopsAStackOverflow) {
  explained_in("ch03-guard");
  if (!stack_pool({.size = 64 * 1024, .guard_pages = true}).guarded()) {
    GTEST_SKIP() << "this kernel has no MADV_GUARD_INSTALL (Linux 6.13 or later)";
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        scheduler node({.stacks = {.size = 16 * 1024, .guard_pages = true}, .crash_log = nullptr});
        node.spawn([] { receive<int>(); });  // the overflow is in the third stack, not the first
        node.spawn([] { receive<int>(); });
        node.spawn([] {
          volatile char big[64 * 1024];  // more than the whole stack
          for (std::size_t i = sizeof big; i > 0; i -= 1024) big[i - 1] = 1;  // down to the guard
        });
        node.run();
      },
      "");
}

}  // namespace
