// Chapter 3's process tests, in the order of the exercises: spawn (ch03.3),
// run and switch (ch03.4), monitors (ch03.5); then the behaviours that all
// of them together give.
#include "processes.hpp"

#include "rdv/test/allocations.hpp"
#include "rdv/test/book.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;

class Processes : public rdv::test::scheduler_test {};

TEST_F(Processes, SpawnReturnsAPidAtOnceAndRunsNothingYet) {
  explained_in("ch03-spawn");
  bool ran = false;
  const pid first = node.spawn([&ran] { ran = true; });
  const pid second = node.spawn([] {});
  EXPECT_EQ(to_string(first), "<0.1.0>") << "the first process of a scheduler";
  EXPECT_EQ(to_string(second), "<0.2.0>");
  EXPECT_EQ(node.process_count(), 2u);
  EXPECT_TRUE(node.alive(first));
  EXPECT_FALSE(ran) << "a spawned process runs only when the scheduler runs";
  EXPECT_EQ(node.stacks().in_use(), 2u) << "each process has a stack from the pool";
}

TEST_F(Processes, RunRunsEveryProcessToItsEndInSpawnOrder) {
  explained_in("ch03-run");
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) node.spawn([&order, i] { order.push_back(i); });
  node.run();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(node.process_count(), 0u) << "every process has ended";
  EXPECT_EQ(node.stacks().in_use(), 0u) << "and given its stack back";
}

TEST_F(Processes, SpawningOneFunctionTwiceGivesEachProcessItsOwnCopy) {
  explained_in("ch03-spawn");
  std::vector<std::string> seen;
  const auto body = [text = std::string(100, 'x'), &seen] { seen.push_back(text); };
  auto named = body;  // a function with a name (an lvalue), spawned twice
  node.spawn(named);
  node.spawn(named);
  node.run();
  EXPECT_EQ(seen, (std::vector<std::string>{std::string(100, 'x'), std::string(100, 'x')}))
      << "the second process saw what the first left of the caller's function: spawn() copies "
         "a function it is given by name, and moves only one it is given to keep";
}

TEST_F(Processes, ASpawnAllocatesNothingButItsStack) {
  explained_in("ch03-spawn");
  const auto body = [a = 1L, b = 2L, c = 3L, d = 4L] {
    volatile long sum = a + b + c + d;  // a function with some state of its own
    (void)sum;
    receive<int>();
  };
  for (int i = 0; i < 2; ++i) node.spawn(body);  // warm: stacks, process slots, the run queue
  node.run();
  for (const pid p : {node.spawn(body), node.spawn(body)}) node.send(p, 0);
  node.run();
  const long before = rdv::test::allocations();
  const pid p = node.spawn(body);
  const long made = rdv::test::allocations() - before;
  node.send(p, 0);
  node.run();
  EXPECT_EQ(made, 0) << "a spawn, once the pool has stacks and the table room, allocated " << made
                     << " times: the function and the fiber's record go into the top of the "
                        "new stack";
}

TEST_F(Processes, AProcessCanSpawnAnother) {
  explained_in("ch03-run");
  std::vector<std::string> log;
  node.spawn([&log] {
    spawn([&log] { log.push_back("child"); });
    log.push_back("parent");
  });
  node.run();
  EXPECT_EQ(log, (std::vector<std::string>{"parent", "child"})) << "the child runs after its "
                                                                   "parent gives way";
}

TEST_F(Processes, AWaitingProcessGivesWayAndRunReturnsWhenAllWait) {
  explained_in("ch03-run");
  std::vector<std::string> log;
  const pid waiter = node.spawn([&log] {
    log.push_back("waiter waits");
    log.push_back("waiter got " + std::to_string(receive<int>()));
  });
  node.spawn([&log] { log.push_back("other runs"); });
  node.run();
  EXPECT_EQ(log, (std::vector<std::string>{"waiter waits", "other runs"}));
  EXPECT_TRUE(node.alive(waiter)) << "it still waits for a message";
  node.spawn([waiter] { send(waiter, 42); });
  node.run();
  EXPECT_EQ(log.back(), "waiter got 42") << "run() again: the message woke the waiter";
  EXPECT_FALSE(node.alive(waiter));
}

TEST_F(Processes, PingPongSwitchesStraightBetweenTwoProcesses) {
  explained_in("ch03-switch");
  int bounces = 0;
  node.spawn([&bounces] {
    const pid me = self();
    const pid partner = spawn([me, &bounces] {
      for (int i = 0; i < 1000; ++i) {
        send(me, receive<int>() + 1);
        ++bounces;
      }
    });
    send(partner, 0);
    for (int i = 0; i < 999; ++i) send(partner, receive<int>() + 1);
    EXPECT_EQ(receive<int>(), 1999);
  });
  node.run();
  EXPECT_EQ(bounces, 1000);
  EXPECT_EQ(node.process_count(), 0u);
}

TEST_F(Processes, AMonitorTellsTheWatcherThatAProcessEnded) {
  explained_in("ch03-monitors");
  std::string told;
  node.spawn([&told] {
    const pid worker = spawn([] { receive<std::string>(); });
    monitor(worker);
    send(worker, std::string("finish"));
    const down d = receive<down>();
    told = to_string(d.who) + " " + d.reason.text();
    EXPECT_EQ(d.who, worker);
  });
  node.run();
  EXPECT_EQ(told, "<0.2.0> normal");
}

TEST_F(Processes, AMonitorReportsTheExceptionThatEndedAProcess) {
  explained_in("ch03-monitors");
  crashes_expected = true;
  exit_reason reason;
  node.spawn([&reason] {
    const pid doomed = spawn([] { throw std::out_of_range("index 7"); });
    monitor(doomed);
    reason = receive<down>().reason;
  });
  node.run();
  EXPECT_EQ(reason.what(), exit_reason::kind::exception);
  EXPECT_EQ(reason.text(), "std::out_of_range: index 7");
  EXPECT_NE(crashes.str().find("<0.2.0> exited: std::out_of_range: index 7"), std::string::npos)
      << "the crash should be reported too, but the report was: " << crashes.str();
}

TEST_F(Processes, AMonitorFiresOnceAndIsThenGone) {
  explained_in("ch03-monitors");
  int downs = 0;
  const auto watch = [&downs](pid worker) {
    return [&downs, worker] {
      monitor(worker);
      receive<down>();
      ++downs;
    };
  };
  node.spawn([&] {
    const pid worker = spawn([] { receive<std::string>(); });
    spawn(watch(worker));
    spawn(watch(worker));
    yield();  // both watchers monitor it and wait
    EXPECT_EQ(node.monitor_count(), 2u) << "two processes watch one";
    monitor(worker);
    demonitor(worker);
    EXPECT_EQ(node.monitor_count(), 2u) << "a monitor undone is gone";
    send(worker, std::string("finish"));
  });
  node.run();
  EXPECT_EQ(downs, 2);
  EXPECT_EQ(node.monitor_count(), 0u)
      << "each watcher was told, and the process they watched will not end again: a monitor "
         "kept after it fired is kept for ever, one for every process a server watched";
}

TEST_F(Processes, AMonitorOfAProcessThatEndedSaysNoproc) {
  explained_in("ch03-monitors");
  std::string told;
  node.spawn([&told] {
    const pid gone = spawn([] {});
    yield();  // let it end
    monitor(gone);
    const down d = receive<down>();
    EXPECT_EQ(d.who, gone) << "the down names the process watched";
    told = d.reason.text();
  });
  node.run();
  EXPECT_EQ(told, "noproc");
  EXPECT_EQ(node.monitor_count(), 0u)
      << "a monitor that said noproc has fired: nothing is left to watch";
}

TEST_F(Processes, EachMonitorIsItsOwn) {
  explained_in("ch03-monitors");
  // A process monitors a worker twice, undoes `undone` of the two, and lets
  // the worker end: how many downs it gets.
  const auto downs_with = [this](int undone) {
    int downs = 0;
    node.spawn([&] {
      const pid worker = spawn([] { receive<std::string>(); });
      monitor(worker);
      monitor(worker);
      EXPECT_EQ(node.monitor_count(), 2u) << "two monitor() calls make two monitors, as in Erlang";
      for (int i = 0; i < undone; ++i) demonitor(worker);
      send(worker, std::string("finish"));
      for (;;) {  // waits for ever after the last down
        receive<down>();
        ++downs;
      }
    });
    node.run();
    EXPECT_EQ(node.monitor_count(), 0u);
    return downs;
  };
  EXPECT_EQ(downs_with(1), 1) << "the monitor not undone fires";
  EXPECT_EQ(downs_with(0), 2) << "each monitor fires: two monitors, two downs";
}

TEST_F(Processes, AMonitorWhoseWatcherEndedFirstIsGoneWhenItsTargetEnds) {
  explained_in("ch03-monitors");
  pid target;
  node.spawn([&] {
    target = spawn([] { receive<std::string>(); });
    spawn([&] { monitor(target); });  // watches, and ends at once
  });
  node.run();  // the watcher has ended; the target waits
  ASSERT_EQ(node.monitor_count(), 1u) << "the watcher's monitor stays until its target ends";
  node.spawn([&] { send(target, std::string("finish")); });
  node.run();
  EXPECT_EQ(node.monitor_count(), 0u)
      << "its target has ended: the monitor fired, though nobody was there to be told";
}

}  // namespace
