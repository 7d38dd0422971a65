// Chapter 10: a held client, in the test process — the process registered
// under its request's id, waiting for a delivery, its client's leaving, or
// the deadline; and the reply handler's side, deliver().
#include "hangup_watch.hpp"
#include "hold.hpp"
#include "reply_handler.hpp"

#include "counted_calls.hpp"
#include "in_process.hpp"

#include "address.hpp"
#include "event_loop.hpp"
#include "use_process.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using rdv::test::explained_in;
using namespace std::chrono_literals;
namespace proc = rdv::proc;
using tcp = boost::asio::ip::tcp;
using rdv::hub::hold_end;

const std::string id = "0123456789abcdef0123456789abcdef";
const rdv::hub::request_id held_id = *rdv::hub::request_id::parse(id);

using ch10::run;

// Both ends of a TCP connection on 127.0.0.1: the hub's (server) and its client's.
struct connection {
  tcp::socket server, client;
};
connection connect(boost::asio::io_context& io) {
  tcp::acceptor listener(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  tcp::socket client(io);
  client.connect(listener.local_endpoint());
  return {listener.accept(), std::move(client)};
}

// Spawns a process that holds the client at `server` under `held_as` (10 s at
// most) and monitors it, then lets it register and wait; `end` and `answer`
// get how the hold ended and the reply it took.
void hold_client(tcp::socket& server, rdv::hub::hub_stats& stats, std::optional<hold_end>& end,
                 rdv::web::response& answer, rdv::hub::request_id held_as = held_id) {
  proc::monitor(proc::spawn([&, held_as] {
    rdv::hub::hold held(held_as, server, stats);
    end = held.wait(std::chrono::steady_clock::now() + 10s);
    answer = std::move(held.answer());
  }));
  proc::yield();  // the held process registers, and waits
}

// Whether the process held under `id` takes `reply` (the worker would get 204).
bool taken(rdv::web::response reply) {
  return rdv::hub::deliver(held_id, std::move(reply)) == rdv::hub::verdict::taken;
}

rdv::web::response text(std::string body) {
  rdv::web::response r;
  r.body = std::move(body);
  return r;
}

std::string name(hold_end end) {
  switch (end) {
  case hold_end::replied: return "replied";
  case hold_end::timed_out: return "timed_out";
  case hold_end::client_gone: return "client_gone";
  case hold_end::refused: return "refused";
  }
  return "?";
}

TEST(Hold, RegistersTheProcessUnderTheRequestsId) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  std::optional<proc::pid> named, after;
  proc::pid me;
  std::uint64_t pending = 0;
  const std::string crash = run([&] {
    me = proc::self();
    tcp::socket unused(proc::current_io_context());
    rdv::hub::hold held(held_id, unused, stats);
    named = proc::whereis(id);
    pending = stats.pending;
    held.forget();
    after = proc::whereis(id);
  });
  ASSERT_EQ(crash, "");
  EXPECT_EQ(named, me) << "whereis(id) should find the process that holds the client";
  EXPECT_EQ(pending, 1u) << "a held client counts in stats.pending";
  EXPECT_EQ(after, std::nullopt) << "after forget(), the id names nobody: a reply gets 404";
  EXPECT_EQ(stats.pending, 0u) << "after forget(), the client is no longer pending";
}

TEST(Hold, TheFirstDeliveryIsTheAnswerAndTheNextOneIsRefused) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  rdv::web::response answer;
  bool first = false, second = true;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    hold_client(server, stats, end, answer);
    first = taken(text("first"));
    second = taken(text("second"));
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(end.has_value()) << "wait() never returned";
  EXPECT_EQ(name(*end), "replied");
  EXPECT_EQ(answer.body, "first");
  EXPECT_TRUE(first) << "deliver() should say the held process took the first reply";
  EXPECT_FALSE(second) << "a second reply for the same id is not delivered (404)";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, OfTwoRepliesRacingForOneIdExactlyOneIsTaken) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  rdv::web::response answer;
  std::optional<bool> a, b;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    const proc::pid holder = proc::spawn([&] {
      rdv::hub::hold held(held_id, server, stats);
      proc::yield();  // both replies find the name, and are sent, before it waits
      held.wait(std::chrono::steady_clock::now() + 10s);
      answer = std::move(held.answer());
    });
    proc::monitor(holder);
    proc::yield();
    proc::monitor(proc::spawn([&] { a = taken(text("a")); }));
    proc::monitor(proc::spawn([&] { b = taken(text("b")); }));
    for (int ended = 0; ended < 3; ++ended) proc::receive<proc::down>();  // all three
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(a && b) << "each deliver() should have had its verdict";
  EXPECT_NE(*a, *b) << "exactly one of two replies may get 204 (deliver() true): got " << *a
                    << " and " << *b;
  EXPECT_EQ(answer.body, *a ? "a" : "b") << "the client's answer is the reply that was taken";
}

TEST(Hold, NoReplyByTheDeadlineIsATimeout) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  bool late = true;
  std::optional<proc::pid> named;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    rdv::hub::hold held(held_id, server, stats);
    end = held.wait(std::chrono::steady_clock::now() + 50ms);
    named = proc::whereis(id);
    proc::spawn([&] { late = taken(text("late")); });
    proc::yield();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(name(*end), "timed_out");
  EXPECT_EQ(named, std::nullopt) << "a request that timed out has given its name up";
  EXPECT_FALSE(late) << "a reply after the timeout is not delivered";
}

TEST(Hold, AReplyThatCameInTimeWinsThoughTheDeadlineHasPassed) {
  explained_in("ch10-timeout");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  std::optional<bool> took;
  rdv::web::response answer;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    proc::monitor(proc::spawn([&] {
      rdv::hub::hold held(held_id, server, stats);
      proc::yield();                                            // the reply comes meanwhile
      end = held.wait(std::chrono::steady_clock::now() - 1ms);  // and the deadline has passed
      answer = std::move(held.answer());
    }));
    proc::yield();
    proc::monitor(proc::spawn([&] { took = taken(text("in time")); }));
    for (int ended = 0; ended < 2; ++ended) proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(name(*end), "replied")
      << "a reply waiting in the mailbox wins over a deadline that has passed: the hold looks "
         "for one before it looks at the clock";
  EXPECT_EQ(took, true);
  EXPECT_EQ(answer.body, "in time");
}

TEST(Hold, AHoldThatCannotTakeItsIdCountsNothing) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  bool refused = false;
  std::uint64_t pending_after = 0;
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    tcp::socket first_socket(io), second_socket(io);
    rdv::hub::hold first(held_id, first_socket, stats);
    proc::monitor(proc::spawn([&] {
      try {
        rdv::hub::hold second(held_id, second_socket, stats);  // the id is taken
      } catch (const std::exception&) {
        refused = true;
      }
      pending_after = stats.pending;
    }));
    proc::receive<proc::down>();
    first.forget();
  });
  ASSERT_EQ(crash, "");
  EXPECT_TRUE(refused) << "two holds under one id: the second cannot register";
  EXPECT_EQ(pending_after, 1u) << "the hold that could not take its id counted itself pending, "
                                  "for good: count once the name is yours";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, AClientThatClosesItsConnectionIsGone) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    rdv::web::response answer;
    hold_client(server, stats, end, answer);
    client.close();
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(name(*end), "client_gone") << "the client closed while held (well before the deadline)";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, ClientsHeldInAnyOrderOfTheirSocketNumbersAreHeardLeaving) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::vector<std::optional<hold_end>> ends(3);
  std::vector<int> numbers;
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    std::vector<connection> c;
    for (int i = 0; i < 3; ++i) {
      c.push_back(connect(io));
      numbers.push_back(c.back().server.native_handle());
    }
    // Held in the order middle, lowest, highest number: whatever the watch
    // keeps by number must keep the middle one's through the other two.
    std::vector<rdv::web::response> answers(3);
    for (const std::size_t i : {1u, 0u, 2u}) {
      hold_client(c[i].server, stats, ends[i], answers[i],
                  *rdv::hub::request_id::parse(std::string(32, "abc"[i])));
    }
    for (const std::size_t i : {1u, 0u, 2u}) {
      c[i].client.close();
      proc::receive<proc::down>();
    }
  });
  EXPECT_EQ(crash, "");  // and what became of each hold:
  ASSERT_TRUE(numbers[0] < numbers[1] && numbers[1] < numbers[2]);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(ends[i].has_value());
    EXPECT_EQ(name(*ends[i]), "client_gone")
        << "the client of socket " << numbers[i] << " left (held second-lowest, lowest, highest; "
        << "this one " << i << " in that order of numbers)";
  }
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, AClientSendingItsNextRequestHasNotLeft) {
  explained_in("ch10-hold");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  std::string still_there;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    rdv::web::response answer;
    hold_client(server, stats, end, answer);
    boost::asio::write(client, boost::asio::buffer(std::string_view("GET /next HTTP/1.1\r\n")));
    // Once the bytes are in the hub's socket, whatever the hold would make
    // of them is in its mailbox before the reply.
    server.async_wait(tcp::socket::wait_read, rdv::proc::use_process);
    EXPECT_TRUE(taken(text("answer")));
    proc::receive<proc::down>();
    char bytes[64];
    still_there.assign(bytes, server.read_some(boost::asio::buffer(bytes)));
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(name(*end), "replied") << "bytes from the client are its next request, not a leaving";
  EXPECT_EQ(still_there, "GET /next HTTP/1.1\r\n")
      << "looking at the client's bytes must not take them";
}

// A process that holds the client at `server` twice, as a kept-alive
// connection's process does: the first hold until it takes a reply, the
// second after the test's go-ahead (a message); `ends` gets how each ended.
proc::pid hold_twice(tcp::socket& server, rdv::hub::hub_stats& stats, std::vector<hold_end>& ends) {
  const proc::pid p = proc::spawn([&] {
    {
      rdv::hub::hold first(held_id, server, stats);
      ends.push_back(first.wait(std::chrono::steady_clock::now() + 10s));
    }
    proc::receive<std::string>();
    rdv::hub::hold second(held_id, server, stats);
    ends.push_back(second.wait(std::chrono::steady_clock::now() + 10s));
  });
  proc::monitor(p);
  proc::yield();  // the first hold registers, and waits
  return p;
}

TEST(Hold, AConnectionHeldByOneProcessAndThenAnotherIsWatchedForTheSecond) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> first_end, second_end;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    rdv::web::response answer;
    hold_client(server, stats, first_end, answer);
    EXPECT_TRUE(taken(text("answer")));
    proc::receive<proc::down>();  // the first process has ended; the socket is still open
    hold_client(server, stats, second_end, answer);
    client.close();
    proc::receive<proc::down>();
  });
  EXPECT_EQ(crash, "");
  ASSERT_TRUE(first_end.has_value());
  EXPECT_EQ(name(*first_end), "replied");
  ASSERT_TRUE(second_end.has_value())
      << "the second process's hold did not end: did watching a socket the watch already had, "
         "for another process, fail?";
  EXPECT_EQ(name(*second_end), "client_gone");
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, AClientThatLeavesBetweenTwoHoldsIsGoneAtTheSecond) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::vector<hold_end> ends;
  std::optional<hold_end> other_end;
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    auto [server, client] = connect(io);
    const proc::pid twice = hold_twice(server, stats, ends);
    ASSERT_TRUE(taken(text("first answer")));
    // Another client held meanwhile keeps the watch listening; it leaves
    // after the first client, so that when its hold has heard of it, the
    // watch has heard of the first client's leaving too, while nobody
    // held that client.
    auto [other_server, other_client] = connect(io);
    rdv::web::response other_answer;
    const rdv::hub::request_id other_id = *rdv::hub::request_id::parse(std::string(32, 'e'));
    proc::monitor(proc::spawn([&] {
      rdv::hub::hold held(other_id, other_server, stats);
      other_end = held.wait(std::chrono::steady_clock::now() + 10s);
    }));
    proc::yield();
    client.close();
    other_client.close();
    EXPECT_NE(proc::receive<proc::down>().who, twice) << "the other hold ends first";
    proc::send(twice, std::string("hold again"));
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(other_end.has_value());
  EXPECT_EQ(name(*other_end), "client_gone");
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(name(ends[0]), "replied");
  EXPECT_EQ(name(ends[1]), "client_gone")
      << "the client left while no hold waited for it: the next hold of its connection should "
         "hear of it at once, not at its deadline";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, AClientThatLeavesBetweenTheHoldsOfTwoProcessesIsGoneAtTheSecond) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> first_end, second_end, other_end;
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    auto [server, client] = connect(io);
    rdv::web::response answer;
    hold_client(server, stats, first_end, answer);
    EXPECT_TRUE(taken(text("answer")));
    proc::receive<proc::down>();  // the first process has ended; the socket is still open
    // Another client held meanwhile keeps the watch listening; it leaves
    // after the first client, so that when its hold has heard of it, the
    // watch has heard of the first client's leaving too, while nobody held it.
    auto [other_server, other_client] = connect(io);
    const rdv::hub::request_id other_id = *rdv::hub::request_id::parse(std::string(32, 'e'));
    rdv::web::response other_answer;
    hold_client(other_server, stats, other_end, other_answer, other_id);
    client.close();
    other_client.close();
    proc::receive<proc::down>();
    hold_client(server, stats, second_end, answer);  // another process holds the same socket
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(other_end.has_value());
  EXPECT_EQ(name(*other_end), "client_gone");
  ASSERT_TRUE(first_end.has_value() && second_end.has_value());
  EXPECT_EQ(name(*first_end), "replied");
  EXPECT_EQ(name(*second_end), "client_gone")
      << "the client left while no process held it: the next process to hold its socket should "
         "hear of it at once, not at its deadline";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, ASocketGivenAClosedSocketsNumberIsWatchedAfresh) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> first_end;
  std::vector<hold_end> ends;
  int first_number = -1, second_number = -2;
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    {
      auto [server, client] = connect(io);
      first_number = server.native_handle();
      rdv::web::response answer;
      hold_client(server, stats, first_end, answer);
      client.close();
      proc::receive<proc::down>();
    }  // both sockets closed: the hub's number is free again
    auto [server, client] = connect(io);
    // The hub's side of the new connection takes the closed socket's number,
    // as the next connection a server accepts often does.
    int hub_side = server.release(), client_side = client.release();
    if (client_side == first_number) {
      const int moved = ::dup(client_side);
      ::close(client_side);
      client_side = moved;
    }
    if (hub_side != first_number) {
      ASSERT_EQ(::dup2(hub_side, first_number), first_number);
      ::close(hub_side);
    }
    tcp::socket renumbered(io, tcp::v4(), first_number), its_client(io, tcp::v4(), client_side);
    second_number = renumbered.native_handle();
    const proc::pid twice = hold_twice(renumbered, stats, ends);
    EXPECT_TRUE(taken(text("answer")));
    its_client.close();
    proc::send(twice, std::string("hold again"));
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  ASSERT_EQ(second_number, first_number);
  ASSERT_TRUE(first_end.has_value());
  EXPECT_EQ(name(*first_end), "client_gone");
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(name(ends[0]), "replied")
      << "the new connection's client is there: the old connection's leaving, under the same "
         "number, is not its news";
  EXPECT_EQ(name(ends[1]), "client_gone")
      << "a new connection's socket with an old one's number is not yet in the watch's set: the "
         "hold of its client should hear that it left, not wait for its deadline";
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, ASocketWatchedAgainIsUnwatchedOnce) {
  explained_in("ch10-disconnect");
  std::optional<proc::ref> heard;
  proc::ref second;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    auto& watch = proc::scheduler::current().use<rdv::hub::hangup_watch>();
    watch.watch(server, proc::make_ref());
    second = proc::make_ref();
    watch.watch(server, second);  // the same process, the same socket: a new tag, one watch
    client.close();
    heard = proc::receive<rdv::hub::hung_up>().tag;
    watch.unwatch(server);
  });
  EXPECT_EQ(crash, "") << "one unwatch() ends a watch however often watch() was called: with "
                          "the socket unwatched, the watch should wait for nothing";
  ASSERT_TRUE(heard.has_value()) << "the client closed while watched, and no hung_up came";
  EXPECT_TRUE(*heard == second) << "the news carries the tag of the latest watch";
}

TEST(Hold, AClientThatHalfClosesWhileNotHeldIsHeardOfOnce) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::optional<hold_end> end;
  std::chrono::milliseconds used{};
  const std::string crash = run([&] {
    auto& io = proc::current_io_context();
    // A kept-alive client was held once, and is between two requests (its
    // connection's process would be writing a long answer) when it shuts
    // its side down; its socket stays open, in the watch's set.
    auto [between_server, between_client] = connect(io);
    auto& watch = proc::scheduler::current().use<rdv::hub::hangup_watch>();
    watch.watch(between_server, proc::make_ref());
    watch.unwatch(between_server);
    between_client.shutdown(tcp::socket::shutdown_send);
    // Another client held meanwhile keeps the watch listening.
    auto [server, client] = connect(io);
    rdv::web::response answer;
    hold_client(server, stats, end, answer);
    const auto before = rdv::test::cpu_time(::getpid());
    struct never {};  // nothing comes: the after() clause is a one-second pause
    proc::receive([](const never&) {}, proc::after(1s, [] {}));
    used = rdv::test::cpu_time(::getpid()) - before;
    client.close();
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  EXPECT_LT(used.count(), 100)
      << "the watch used " << used.count() << " ms of CPU in one second with one client held "
      << "and another's shutdown in its set: a socket in the set level-triggered is reported "
         "for as long as its peer stays shut down, and the watch wakes again and again";
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(name(*end), "client_gone");
  EXPECT_EQ(stats.pending, 0u);
}

TEST(Hold, AReplyToAProcessThatEndsWithoutAVerdictIsRefused) {
  explained_in("ch10-deliver");
  std::optional<bool> got;
  const std::string crash = run([&] {
    proc::spawn([] {  // takes the name, and the delivery, then ends without a word
      proc::register_name(id, proc::self());
      proc::receive<rdv::hub::delivery>();
    });
    proc::yield();
    got = taken(text("lost"));
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(got.has_value());
  EXPECT_FALSE(*got) << "the process ended without taking the reply: deliver() should learn it "
                        "from its monitor, and the worker get 404";
}

TEST(Hold, AVerdictThatTakesItsTimeIsWaitedFor) {
  explained_in("ch10-deliver");
  std::optional<bool> got;
  std::size_t timers_before = 0, timers_set_while_delivering = 0;
  const std::string crash = run([&] {
    proc::spawn([&] {  // takes the name and the delivery, and answers three seconds later
      proc::register_name(id, proc::self());
      const auto d = proc::receive<rdv::hub::delivery>();
      timers_set_while_delivering = ch10::timerfd_settime_calls() - timers_before;
      struct never {};  // nothing else comes: the after() clause is a three-second pause
      proc::receive([](const never&) {}, proc::after(3s, [] {}));
      proc::answer(d.from, rdv::hub::verdict::taken);
    });
    proc::yield();
    timers_before = ch10::timerfd_settime_calls();
    got = taken(text("slow"));
  });
  ASSERT_EQ(crash, "");
  ASSERT_TRUE(got.has_value());
  EXPECT_TRUE(*got) << "the process took the reply, three seconds later: deliver() waits for the "
                       "verdict as long as the process lives, and learns of its end from its "
                       "monitor, not from a deadline of its own";
  EXPECT_EQ(timers_set_while_delivering, 0u)
      << "deliver() set a timer while it waited for the verdict: it waits as long as the "
         "process lives, with no deadline of its own";
}

TEST(Hold, WatchesAConnectionWithOneSystemCallHoweverOftenItIsHeld) {
  explained_in("ch10-disconnect");
  rdv::hub::hub_stats stats;
  std::size_t after_first = 0, after_all = 0;
  const std::string crash = run([&] {
    auto [server, client] = connect(proc::current_io_context());
    const int fd = server.native_handle();
    const proc::pid holder = proc::spawn([&] {  // a kept-alive connection's process
      for (int i = 0; i < 10; ++i) {
        rdv::hub::hold held(held_id, server, stats);
        (void)held.wait(std::chrono::steady_clock::now() + 10s);
        if (i == 0) after_first = ch10::epoll_ctl_calls(fd);
      }
      after_all = ch10::epoll_ctl_calls(fd);
    });
    proc::monitor(holder);
    proc::yield();  // the first hold registers, and waits
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(taken(text("answer"))) << "hold " << i;
    proc::receive<proc::down>();
  });
  ASSERT_EQ(crash, "");
  EXPECT_EQ(after_all, after_first)
      << "the nine holds after the first of one connection made " << after_all - after_first
      << " epoll_ctl() calls for its socket: one per connection, not one per hold";
}

}  // namespace
