// Chapter 4's tests, in the order of exercise ch04.1's parts: registered
// names, addresses that hold a pid or a name, names released when their
// process ends; then the argument-dependent-lookup sidebar.
#include "address.hpp"
#include "registry.hpp"

#include "rdv/test/allocations.hpp"
#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;

struct stop {};

// A scheduler, and a process called "keeper" that waits until the test
// ends: the scheduler's destruction ends it, which tells no extension.
class Names : public ::testing::Test {
protected:
  std::ostringstream crashes;
  scheduler node{{.crash_log = &crashes}};
  pid keeper = node.spawn([] { receive<stop>(); });

  // Runs `body` in a process of its own, then runs the scheduler; fails
  // the test if the body did not run to its end (an exception ends its
  // process, and would skip every check after the throw).
  template <class F>
  void in_process(F body) {
    bool finished = false;
    node.spawn([&finished, body = std::move(body)]() mutable {
      body();
      finished = true;
    });
    node.run();
    EXPECT_TRUE(finished) << "the test's process ended before its last check:\n" << crashes.str();
  }
  // What `call` throws, as text ("" when it throws nothing).
  template <class F>
  static std::string error_of(F call) {
    try {
      call();
    } catch (const registry_error& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("not a registry_error but ") + typeid(e).name() + ": " + e.what();
    }
    return "";
  }
};

TEST_F(Names, RegisterNameMakesWhereisFindTheProcess) {
  explained_in("ch04-register");
  in_process([this] {
    EXPECT_FALSE(whereis("keeper")) << "nobody has the name yet";
    register_name("keeper", keeper);
    EXPECT_EQ(whereis("keeper"), keeper);
  });
  EXPECT_EQ(node.use<registry>().name_of(keeper), "keeper");
  EXPECT_EQ(node.use<registry>().size(), 1u);
}

TEST_F(Names, ATakenNameCannotBeRegisteredAgain) {
  explained_in("ch04-errors");
  const pid other = node.spawn([] { receive<stop>(); });
  in_process([this, other] {
    register_name("keeper", keeper);
    EXPECT_EQ(error_of([other] { register_name("keeper", other); }),
              "register_name(\"keeper\", " + to_string(other) + "): the name is taken by " +
                  to_string(keeper));
    EXPECT_EQ(whereis("keeper"), keeper) << "the name stays with its first owner";
    // Its owner asking again is refused too, as Erlang's register/2 refuses
    // it: a server that registers twice has a bug to hear of.
    const std::string again = error_of([this] { register_name("keeper", keeper); });
    const std::string call = "register_name(\"keeper\", " + to_string(keeper) + "): ";
    EXPECT_TRUE(again == call + "the name is taken by " + to_string(keeper) ||
                again == call + "it is already registered as \"keeper\"")
        << "registering a name its process already has should throw; it gave: \"" << again << '"';
  });
}

TEST_F(Names, AProcessCannotHaveTwoNames) {
  explained_in("ch04-errors");
  in_process([this] {
    register_name("first", keeper);
    EXPECT_EQ(error_of([this] { register_name("second", keeper); }),
              "register_name(\"second\", " + to_string(keeper) +
                  "): it is already registered as \"first\"");
    EXPECT_FALSE(whereis("second"));
  });
}

TEST_F(Names, AnEndedProcessCannotBeRegistered) {
  explained_in("ch04-errors");
  const pid gone = node.spawn([] {});
  node.run();
  in_process([gone] {
    EXPECT_EQ(error_of([gone] { register_name("ghost", gone); }),
              "register_name(\"ghost\", " + to_string(gone) + "): no such process (it has ended)");
    EXPECT_FALSE(whereis("ghost")) << "a refused name is left to nobody";
  });
  EXPECT_EQ(node.use<registry>().size(), 0u);
  in_process([this] { register_name("ghost", keeper); });  // free for a live process
  EXPECT_EQ(node.use<registry>().name_of(keeper), "ghost");
}

TEST_F(Names, UnregisterNameFreesTheName) {
  explained_in("ch04-register");
  in_process([this] {
    register_name("keeper", keeper);
    unregister_name("keeper");
    EXPECT_FALSE(whereis("keeper"));
    register_name("again", keeper);  // the process may take another name now
    EXPECT_EQ(whereis("again"), keeper);
    EXPECT_EQ(error_of([] { unregister_name("keeper"); }),
              "unregister_name(\"keeper\"): no process is registered under that name");
  });
}

TEST_F(Names, ANameAndAPidInTheSameVariableAreSentToTheSameWay) {
  explained_in("ch04-address");
  std::vector<std::string> got;
  const pid printer = node.spawn([&got] {
    for (int i = 0; i < 3; ++i) got.push_back(receive<std::string>());
    receive<stop>();  // keeps its name until the test ends
  });
  in_process([printer] {
    register_name("test", printer);
    address to = "test";  // Neumann's P = test
    EXPECT_TRUE(to.is_name());
    EXPECT_TRUE(send(to, std::string("by name")));
    to = printer;
    EXPECT_FALSE(to.is_name());
    EXPECT_TRUE(send(to, std::string("by pid")));
    EXPECT_TRUE(send("test", std::string("by a literal name")));
  });
  EXPECT_EQ(got, (std::vector<std::string>{"by name", "by pid", "by a literal name"}));
}

TEST_F(Names, AnAddressLooksItsNameUpAtEverySend) {
  explained_in("ch04-address");
  std::vector<std::string> first_got, second_got;
  const pid first = node.spawn([&first_got] {
    for (int i = 0; i < 2; ++i) first_got.push_back(receive<std::string>());
    receive<stop>();
  });
  const pid second = node.spawn([&second_got] {
    for (int i = 0; i < 2; ++i) second_got.push_back(receive<std::string>());
    receive<stop>();
  });
  in_process([first, second] {
    register_name("svc", first);
    const address to = "svc";
    EXPECT_TRUE(send(to, std::string("to the first holder")));
    EXPECT_EQ(to, address("svc")) << "an address that has been sent through is still the name";
    unregister_name("svc");  // both processes live on
    EXPECT_EQ(error_of([&to] { send(to, std::string("to nobody")); }),
              "send to \"svc\": no process is registered under that name")
        << "the name was given up: the address must not remember whom it reached before";
    register_name("svc", second);
    EXPECT_TRUE(send(to, std::string("to the second holder, by the address")));
    EXPECT_TRUE(send("svc", std::string("to the second holder, by the name")));
    EXPECT_TRUE(send(first, std::string("to the first, by its pid")));
  });
  EXPECT_EQ(first_got,
            (std::vector<std::string>{"to the first holder", "to the first, by its pid"}));
  EXPECT_EQ(second_got, (std::vector<std::string>{"to the second holder, by the address",
                                                  "to the second holder, by the name"}));
}

TEST_F(Names, ANameIsKeptOnceAndLookedUpWithoutACopy) {
  explained_in("ch04-register");
  using rdv::test::allocations;
  long registering = -1, resolving = -1;
  in_process([&] {
    register_name("warm-up", keeper);  // the maps have buckets now
    const pid other = spawn([] { receive<stop>(); });
    std::string name(40, 'n');  // too long to live inside the string: on the heap
    const address to = name;
    long before = allocations();
    register_name(std::move(name), other);
    registering = allocations() - before;
    before = allocations();
    for (int i = 0; i < 100; ++i) EXPECT_EQ(to.resolve(), other);
    resolving = allocations() - before;
  });
  EXPECT_LE(registering, 2) << "registering a name took " << registering
                            << " allocations: a node in each map, and the name itself only "
                               "once (the pid-to-name map views the other map's copy)";
  EXPECT_EQ(resolving, 0) << "100 sends' look-ups of a name allocated " << resolving
                          << " times: a look-up builds no string";
}

TEST_F(Names, ARegistrationThatRunsOutOfMemoryLeavesNoHalfOfIt) {
  explained_in("ch04-register");
  const std::string name(40, 'n');
  long tries = 0;
  bool registered = false;
  in_process([&] {
    const pid other = spawn([] { receive<stop>(); });
    registry& names = scheduler::current().use<registry>();
    // Memory runs out at the k-th allocation of a registration, and stays
    // out, for k = 1, 2, ... until one needs fewer: each failure must throw
    // std::bad_alloc, allocating nothing more to put things back, and leave
    // both maps as they were.
    for (; !registered && tries < 100; ++tries) {
      std::string copy = name;
      std::string thrown;
      rdv::test::fail_allocations(tries, std::numeric_limits<long>::max());
      try {
        register_name(std::move(copy), other);
        registered = true;
      } catch (const std::bad_alloc&) {
      } catch (const std::exception& e) {
        thrown = e.what();
      }
      rdv::test::fail_allocations(-1);
      if (registered) break;
      ASSERT_EQ(thrown, "") << "allocation " << tries + 1 << " failed, and the registration threw "
                            << "something other than std::bad_alloc (rethrow it as it is)";
      ASSERT_EQ(names.find(name), std::nullopt)
          << "allocation " << tries + 1 << " of a registration failed, and the name is "
          << "registered anyway: both maps change, or neither";
      ASSERT_EQ(names.name_of(other), std::nullopt)
          << "allocation " << tries + 1 << " of a registration failed, and the process has a "
          << "name anyway: both maps change, or neither";
    }
    EXPECT_EQ(whereis(name), other) << "with memory enough, the name is registered";
  });
  EXPECT_TRUE(registered) << "with memory enough, the registration succeeds";
  EXPECT_GE(tries, 1) << "a registration allocates something, and failing that must throw";
  EXPECT_EQ(crashes.str(), "");
}

TEST_F(Names, ARegistryAsksItsOwnSchedulerWhetherAProcessLives) {
  explained_in("ch04-register");
  registry& names = node.use<registry>();
  scheduler other;  // the current scheduler of this thread now, with no process
  EXPECT_NO_THROW(names.add("kept", keeper)) << "keeper lives, in the registry's own scheduler";
  EXPECT_EQ(names.find("kept"), keeper);
}

TEST_F(Names, ARegistryRefusesANameItHoldsWhateverSchedulerIsCurrent) {
  explained_in("ch04-register");
  registry& names = node.use<registry>();
  names.add("kept", keeper);
  const pid second = node.spawn([] { receive<stop>(); });
  scheduler other;  // the current scheduler now: its own registry has no names
  EXPECT_NE(error_of([&] { names.add("kept", second); }), "")
      << "\"kept\" is taken in this registry; whether it is taken is a question for the "
         "registry's own maps, not for whereis(), which asks the current scheduler's registry";
  EXPECT_EQ(names.find("kept"), keeper) << "the name stays with its first owner";
  EXPECT_EQ(names.name_of(second), std::nullopt) << "and the refused process has no name";
}

TEST_F(Names, ANamedProcessEndsWithoutAllocating) {
  explained_in("ch04-release");
  const std::string name(40, 'n');           // too long to live inside a string
  for (int round = 0; round < 2; ++round) {  // the first warms the mailboxes and the maps
    const pid named = node.spawn([] { receive<stop>(); });
    node.use<registry>().add(name, named);
    node.run();
    node.send(named, stop{});
    const long before = rdv::test::allocations();
    node.run();  // it ends, and its name is released
    const long made = rdv::test::allocations() - before;
    ASSERT_FALSE(node.alive(named));
    ASSERT_EQ(node.use<registry>().find(name), std::nullopt);
    if (round == 1) {
      EXPECT_EQ(made, 0) << "releasing the name of an ended process allocated " << made
                         << " times: find() takes a view, and erase() an iterator";
    }
  }
}

TEST_F(Names, AnAddressOfAnEndedProcessDropsWhatIsSent) {
  explained_in("ch04-address");
  const pid gone = node.spawn([] {});
  node.run();
  in_process([gone] {
    const address to = gone;
    EXPECT_EQ(error_of([&to, gone] { EXPECT_EQ(to.resolve(), gone) << "a pid is its own answer"; }),
              "");
    EXPECT_EQ(error_of([&to] { EXPECT_FALSE(send(to, 1)) << "dropped, as a send to its pid is"; }),
              "")
        << "only a name nobody has is an error";
  });
}

TEST_F(Names, AnAddressPrintsAsItsPidOrItsName) {
  explained_in("ch04-address");
  EXPECT_EQ(address(pid{42, 0}).to_string(), "<0.42.0>");
  EXPECT_EQ(address("test").to_string(), "test");
  EXPECT_EQ(address("a"), address(std::string("a")));
  EXPECT_NE(address("a"), address(pid{1, 0}));
}

TEST_F(Names, SendingToANameNobodyHasIsAnError) {
  explained_in("ch04-errors");
  in_process([] {
    EXPECT_EQ(error_of([] { send("nobody", 1); }),
              "send to \"nobody\": no process is registered under that name");
    EXPECT_EQ(error_of([] { address("nobody").resolve(); }),
              "send to \"nobody\": no process is registered under that name");
  });
}

TEST_F(Names, ANameIsReleasedWhenItsProcessEnds) {
  explained_in("ch04-release");
  const pid worker = node.spawn([] { receive<stop>(); });
  in_process([worker] {
    register_name("worker", worker);
    monitor(worker);
    send("worker", stop{});
    receive<down>();
    EXPECT_FALSE(whereis("worker")) << "the name should go with its process";
    EXPECT_EQ(scheduler::current().use<registry>().size(), 0u);
    EXPECT_FALSE(scheduler::current().use<registry>().name_of(worker))
        << "the ended process should have no name either: both maps forget it";
  });
}

TEST_F(Names, ANameIsReleasedWhenItsProcessCrashes) {
  explained_in("ch04-release");
  const pid doomed = node.spawn([] {
    receive<stop>();
    throw std::runtime_error("crash");
  });
  in_process([doomed] {
    register_name("doomed", doomed);
    monitor(doomed);
    send("doomed", stop{});
    EXPECT_EQ(receive<down>().reason.text(), "std::runtime_error: crash");
    EXPECT_FALSE(whereis("doomed"));
  });
}

TEST_F(Names, AReleasedNameCanBeTakenByAnotherProcess) {
  explained_in("ch04-release");
  in_process([this] {
    const pid first = spawn([] { receive<stop>(); });
    register_name("job", first);
    monitor(first);
    send(first, stop{});
    receive<down>();
    register_name("job", keeper);  // a restarted server takes its old name
    EXPECT_EQ(whereis("job"), keeper);
    address job = "job";  // the same address now reaches the new process
    EXPECT_EQ(job.resolve(), keeper);
  });
}

TEST_F(Names, ALateMessageToAnEndedRequestFindsNoName) {
  explained_in("ch04-release");
  // Chapter 10's hub registers each waiting client under its request id; a
  // reply that comes after the client is gone must find nobody (404).
  std::string answer;
  in_process([&answer] {
    const pid held = spawn([] { receive<std::string>(); });
    register_name("5f1c0ffee", held);
    monitor(held);
    send("5f1c0ffee", std::string("the reply"));
    receive<down>();
    answer = whereis("5f1c0ffee") ? "delivered" : "404 Not Found";
  });
  EXPECT_EQ(answer, "404 Not Found");
}

}  // namespace

// The sidebar: an unqualified call also looks in the namespaces of its
// arguments' types (argument-dependent lookup), and may pick a function
// there that is a better match than the one you meant.
namespace elsewhere {
struct note {
  int n;
};
inline bool send(rdv::proc::pid, note) { return false; }  // happens to be called send
}  // namespace elsewhere

namespace {

TEST(Adl, AnUnqualifiedSendCanPickAFunctionFromTheMessagesNamespace) {
  explained_in("ch04-adl");
  scheduler node;
  node.spawn([] {
    const pid me = self();
    EXPECT_FALSE(send(me, elsewhere::note{1})) << "ADL finds elsewhere::send, and a function "
                                                  "that is not a template wins a tie";
    EXPECT_TRUE(rdv::proc::send(me, elsewhere::note{2})) << "a qualified call means ours";
    EXPECT_EQ(receive<elsewhere::note>().n, 2) << "only the second call sent anything";
  });
  node.run();
}

}  // namespace
