// Chapter 3, going further: links. link(pid) ties the calling process and
// `pid` together both ways: when one of them ends by an exception, the other
// ends too, with the same reason, wherever it is waiting. Erlang builds its
// supervision trees on them. Run: ./course check 03 --further
#include "processes.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;
using rdv::test::on_unwind;
// link() is called as rdv::proc::link(): unistd.h declares a link() of its own.

class Links : public rdv::test::scheduler_test {};

TEST_F(Links, ACrashEndsTheLinkedProcessWithTheSameReason) {
  explained_in("ch03-further");
  crashes_expected = true;
  exit_reason reason;
  bool got_past_receive = false;
  node.spawn([&] {
    const pid waiter = spawn([&got_past_receive] {
      receive<int>();
      got_past_receive = true;
    });
    monitor(waiter);
    spawn([waiter] {
      rdv::proc::link(waiter);
      throw std::runtime_error("boom");
    });
    reason = receive<down>().reason;
  });
  node.run();
  EXPECT_EQ(reason.text(), "std::runtime_error: boom")
      << "a process waiting in receive() was linked to one that threw "
         "std::runtime_error(\"boom\"); "
         "its monitor should say it ended with that same reason";
  EXPECT_EQ(reason.what(), exit_reason::kind::exception);
  EXPECT_FALSE(got_past_receive) << "the linked process should end where it waits, not go on as if "
                                    "it had received a message";
  EXPECT_EQ(node.process_count(), 0u) << "every process should have ended";
}

TEST_F(Links, TheLinkedProcessStackUnwinds) {
  explained_in("ch03-further");
  crashes_expected = true;
  std::vector<std::string> log;
  node.spawn([&log] {
    const pid waiter = spawn([&log] {
      on_unwind guard([&log] { log.push_back("waiter's destructor ran"); });
      receive<int>();
    });
    spawn([waiter] {
      rdv::proc::link(waiter);
      throw std::runtime_error("boom");
    });
  });
  node.run();
  EXPECT_EQ(log, std::vector<std::string>{"waiter's destructor ran"})
      << "a process ended by a link should unwind its stack, so that what it holds is released";
  EXPECT_EQ(node.stacks().in_use(), 0u) << "and give its stack back";
}

TEST_F(Links, ALinkWorksBothWays) {
  explained_in("ch03-further");
  crashes_expected = true;
  exit_reason reason;
  node.spawn([&reason] {
    const pid crasher = spawn([] {
      receive<std::string>();
      throw std::logic_error("told to crash");
    });
    const pid linker = spawn([crasher] {
      rdv::proc::link(crasher);  // the linker asks; the crasher is the one to crash
      receive<int>();
    });
    monitor(linker);
    yield();  // let the linker link
    send(crasher, std::string("crash"));
    reason = receive<down>().reason;
  });
  node.run();
  EXPECT_EQ(reason.text(), "std::logic_error: told to crash")
      << "process L called link(C) and waits; C then threw std::logic_error(\"told to crash\"): "
         "L should end with that reason, although C never called link()";
}

TEST_F(Links, ANormalEndLeavesTheLinkedProcessAlone) {
  explained_in("ch03-further");
  int received = 0;
  node.spawn([&received] {
    const pid partner = spawn([] { receive<std::string>(); });
    rdv::proc::link(partner);
    monitor(partner);
    send(partner, std::string("finish"));
    EXPECT_EQ(receive<down>().reason.text(), "normal");
    send(self(), 42);
    received = receive<int>();
  });
  node.run();
  EXPECT_EQ(received, 42) << "a process linked to one that returned normally should go on "
                             "(only an exception travels along a link)";
}

TEST_F(Links, TheEndTravelsAlongAChainOfLinksAndReachesMonitors) {
  explained_in("ch03-further");
  crashes_expected = true;
  std::vector<std::string> told;
  node.spawn([&told] {
    const pid a = spawn([] { receive<int>(); });
    const pid b = spawn([a] {
      rdv::proc::link(a);
      receive<int>();
    });
    monitor(a);
    monitor(b);
    const pid c = spawn([b] {
      rdv::proc::link(b);
      receive<std::string>();
      throw std::runtime_error("end of the chain");
    });
    yield();  // let b and c link
    send(c, std::string("crash"));
    for (int i = 0; i < 2; ++i) {
      const down d = receive<down>();
      told.push_back((d.who == a ? "a: " : "b: ") + d.reason.text());
    }
  });
  node.run();
  std::sort(told.begin(), told.end());
  EXPECT_EQ(told, (std::vector<std::string>{"a: std::runtime_error: end of the chain",
                                            "b: std::runtime_error: end of the chain"}))
      << "with links a-b and b-c, c crashed: b should end with c's reason, and a, linked to b, "
         "with the same reason in turn; both monitors should hear of it";
}

TEST_F(Links, AProcessLinkedBeforeItFirstRanEndsWithoutRunning) {
  explained_in("ch03-further");
  crashes_expected = true;
  bool ran = false;
  pid late;
  node.spawn([&] {
    late = spawn([&ran] { ran = true; });
    rdv::proc::link(late);
    throw std::runtime_error("before you ran");
  });
  node.run();
  EXPECT_FALSE(ran) << "a process that had not run yet was linked to one that crashed; it should "
                       "end before it runs, not run its function";
  EXPECT_FALSE(node.alive(late));
  EXPECT_NE(crashes.str().find(to_string(late) + " exited: std::runtime_error: before you ran"),
            std::string::npos)
      << "it should end with the crashed process's reason; the crash report says:\n"
      << crashes.str();
}

TEST_F(Links, LinkingToAProcessThatDoesNotExistEndsTheCallerWithNoproc) {
  explained_in("ch03-further");
  crashes_expected = true;
  exit_reason reason;
  bool went_on = false;
  node.spawn([&] {
    const pid gone = spawn([] {});
    const pid caller = spawn([gone, &went_on] {
      rdv::proc::link(gone);
      went_on = true;
    });
    monitor(caller);
    reason = receive<down>().reason;
  });
  node.run();
  EXPECT_EQ(reason.what(), exit_reason::kind::noproc)
      << "link() to a process that has already ended should end the caller at once with noproc, "
         "as Erlang's link/1 does; the caller ended with: "
      << reason.text();
  EXPECT_FALSE(went_on) << "the caller should not go on after link() to a process that is gone";
}

}  // namespace
