// Chapter 4, going further: await_name(name), the pid registered as `name`,
// waiting until some process registers it. With it a process can start
// before the server it talks to has taken its name. Run: ./course check 04 --further
#include "processes.hpp"
#include "registry.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/scheduler_test.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;
using rdv::test::on_unwind;

struct stop {};

// Two processes that wait until the test ends, to be named.
class AwaitName : public rdv::test::scheduler_test {
protected:
  rdv::proc::pid keeper = node.spawn([] { rdv::proc::receive<stop>(); });
  rdv::proc::pid other = node.spawn([] { rdv::proc::receive<stop>(); });
};

TEST_F(AwaitName, ReturnsAtOnceWhenTheNameIsRegistered) {
  explained_in("ch04-further");
  std::vector<std::string> log;
  node.spawn([&] {
    register_name("keeper", keeper);
    spawn([&log] { log.push_back("another process ran"); });
    const pid found = await_name("keeper");
    log.push_back("await_name returned " + to_string(found));
  });
  node.run();
  EXPECT_EQ(log, (std::vector<std::string>{"await_name returned " + to_string(keeper),
                                           "another process ran"}))
      << "\"keeper\" was registered already: await_name(\"keeper\") should return its pid at "
         "once, without waiting (so without letting another process run first)";
}

TEST_F(AwaitName, WaitsUntilSomeProcessRegistersTheName) {
  explained_in("ch04-further");
  std::vector<std::string> log;
  node.spawn([&log] {
    const pid found = await_name("late");
    log.push_back("await_name returned " + to_string(found));
  });
  node.spawn([&log, this] {
    log.push_back("registering");
    register_name("late", keeper);
  });
  node.run();
  EXPECT_EQ(log,
            (std::vector<std::string>{"registering", "await_name returned " + to_string(keeper)}))
      << "a process called await_name(\"late\") before anyone had the name; it should wait, "
         "then return the pid that register_name(\"late\", ...) gave the name to";
  EXPECT_EQ(node.use<registry>().awaiting(), 0u) << "nobody waits any more";
}

TEST_F(AwaitName, EveryWaiterWakes) {
  explained_in("ch04-further");
  std::vector<std::optional<pid>> found(3);
  for (auto& slot : found) node.spawn([&slot] { slot = await_name("popular"); });
  node.run();
  EXPECT_EQ(node.use<registry>().awaiting(), 3u)
      << "three processes called await_name(\"popular\") and wait";
  node.spawn([this] { register_name("popular", keeper); });
  node.run();
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(found[i], keeper) << "waiter " << i
                                << " of 3 should have got the pid that "
                                   "register_name(\"popular\", ...) named";
  }
  EXPECT_EQ(node.use<registry>().awaiting(), 0u) << "nobody waits any more";
}

TEST_F(AwaitName, AWaiterFindsTheNameAsItIsWhenItRuns) {
  explained_in("ch04-further");
  std::optional<pid> found;
  node.spawn([&found] { found = await_name("fickle"); });
  node.run();
  node.spawn([this] {
    register_name("fickle", keeper);  // wakes the waiter, which runs later...
    unregister_name("fickle");        // ...when the name is free again
  });
  node.run();
  EXPECT_FALSE(found) << "the name was registered and unregistered before the waiter ran; it "
                         "should wait on, not return a pid that no longer has the name";
  node.spawn([this] { register_name("fickle", other); });
  node.run();
  EXPECT_EQ(found, other) << "the second register_name(\"fickle\", ...) should end the wait";
}

TEST_F(AwaitName, AWaiterThatWaitsOnLeavesTheOtherWaitersWaiting) {
  explained_in("ch04-further");
  std::optional<pid> first;
  std::optional<pid> second;
  node.spawn([&first] { first = await_name("fickle"); });
  node.run();
  node.spawn([this] {
    register_name("fickle", keeper);  // wakes the first waiter, which runs later...
    unregister_name("fickle");
  });
  node.spawn([&second] { second = await_name("fickle"); });  // ...after this one waits too
  node.run();
  ASSERT_FALSE(first) << "the name was free again when the first waiter ran";
  EXPECT_EQ(node.use<registry>().awaiting(), 2u)
      << "both processes wait for \"fickle\": the first one, woken for nothing, waits on, and "
         "its entry is its own to take out, not the second waiter's";
  node.spawn([this] { register_name("fickle", other); });
  node.run();
  EXPECT_EQ(first, other);
  EXPECT_EQ(second, other) << "the second waiter should wake too when \"fickle\" is registered";
  EXPECT_EQ(node.use<registry>().awaiting(), 0u) << "nobody waits any more";
}

TEST_F(AwaitName, ANameGivenByTheRegistryItselfWakesTheWaiters) {
  explained_in("ch04-further");
  std::optional<pid> found;
  node.spawn([&found] { found = await_name("direct"); });
  node.run();
  node.use<registry>().add("direct", keeper);  // not through register_name()
  node.run();
  EXPECT_EQ(found, keeper) << "registry::add() gives the name, so it is where the waiters wake: "
                              "a name given through it should end the wait as well";
  EXPECT_EQ(node.use<registry>().awaiting(), 0u) << "nobody waits any more";
}

TEST_F(AwaitName, AWaiterThatEndsWhileWaitingLeavesNothingBehind) {
  explained_in("ch04-further");
  std::optional<std::size_t> left;
  {
    scheduler inner({.crash_log = &crashes});
    registry& names = inner.use<registry>();
    inner.spawn([&] {
      on_unwind check([&] { left = names.awaiting(); });  // runs after await_name has unwound
      await_name("never");
    });
    inner.run();
    EXPECT_EQ(names.awaiting(), 1u) << "a process waits in await_name(\"never\")";
  }  // destroying the scheduler unwinds the waiter's stack
  ASSERT_TRUE(left) << "the waiter's stack should have unwound when its scheduler was destroyed";
  EXPECT_EQ(*left, 0u) << "a process that ended while it waited in await_name() should leave no "
                          "waiter behind in the registry";
}

}  // namespace
