// Chapter 10, going further: how long the oldest held client has waited.
// /stats says it in `oldest_held_ms`: 0 with nobody held; else the time
// since the client held longest was taken in, whoever else came or went.
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"

#include <boost/json/serialize.hpp>

#include <chrono>
#include <thread>

namespace {

using rdv::test::explained_in;
using clock_type = std::chrono::steady_clock;

const std::string ok = "HTTP/1.1 200 OK";

// `oldest_held_ms` of /stats; fails the test if there is none.
std::int64_t oldest_held_ms(ch10::hub& hub) {
  const auto stats = hub.stats();
  if (!stats.contains("oldest_held_ms") || !stats.at("oldest_held_ms").is_number()) {
    ADD_FAILURE() << "/stats has no \"oldest_held_ms\" number: " << boost::json::serialize(stats);
    return -1;
  }
  return stats.at("oldest_held_ms").to_number<std::int64_t>();
}

std::int64_t ms_since(clock_type::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - t).count();
}

TEST(OldestHold, IsZeroWithNobodyHeld) {
  explained_in("ch10-further-oldest");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address()});
  EXPECT_EQ(oldest_held_ms(hub), 0);
}

TEST(OldestHold, IsTheWaitOfTheClientHeldLongestWhoeverCameOrWentSince) {
  explained_in("ch10-further-oldest");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  // The first client: held from some moment between its sending and its
  // forward's arrival, which bound what /stats may say.
  rdv::test::client first(hub.front());
  const auto first_sent = clock_type::now();
  first.send(ch10::get("/first"));
  const ch10::forwarded f1 = backend.next();
  const auto first_held_by = clock_type::now();
  // The wait under test: the first client's, long enough to tell apart
  // from the second's.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  rdv::test::client second(hub.front());
  const auto second_sent = clock_type::now();
  second.send(ch10::get("/second"));
  const ch10::forwarded f2 = backend.next();
  const auto second_held_by = clock_type::now();

  const auto lower = ms_since(first_held_by);
  const auto both = oldest_held_ms(hub);
  EXPECT_GE(both, lower) << "the first client has waited at least this long";
  EXPECT_LE(both, ms_since(first_sent)) << "and no longer than since it sent";

  // The first one answered, the second is the oldest: its wait, not the first's.
  ASSERT_EQ(ch10::post_reply(hub.replies(), f1.id(), ch10::http_message(ok, "one")).status, 204);
  EXPECT_EQ(first.read_response().status, 200) << first.transcript();
  const auto lower2 = ms_since(second_held_by);
  const auto second_only = oldest_held_ms(hub);
  EXPECT_GE(second_only, lower2);
  EXPECT_LE(second_only, ms_since(second_sent))
      << "the first client left the line when it was answered; the second is the oldest now";

  // Nobody held: zero again.
  ASSERT_EQ(ch10::post_reply(hub.replies(), f2.id(), ch10::http_message(ok, "two")).status, 204);
  EXPECT_EQ(second.read_response().status, 200) << second.transcript();
  EXPECT_EQ(oldest_held_ms(hub), 0);
}

TEST(OldestHold, AClientThatLeavesOrTimesOutLeavesTheLine) {
  explained_in("ch10-further-oldest");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "60000"});
  {
    rdv::test::client gone(hub.front());
    gone.send(ch10::get("/gone"));
    backend.next();
  }  // closed while held
  EXPECT_TRUE(hub.wait_for_stat("abandoned", 1)) << boost::json::serialize(hub.stats());
  EXPECT_EQ(oldest_held_ms(hub), 0) << "a client that left is not waiting";
  rdv::test::client late(hub.front());
  late.send(ch10::get("/late", "X-Hub-Timeout-Ms: 100\r\n"));
  backend.next();
  EXPECT_EQ(late.read_response().status, 504) << late.transcript();
  EXPECT_EQ(oldest_held_ms(hub), 0) << "a client that timed out is not waiting";
}

}  // namespace
