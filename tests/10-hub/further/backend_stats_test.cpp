// Chapter 10, going further: /stats per backend. Besides the hub's own
// counters, /stats lists every --backend, in order, with what it did with
// the forwards it was asked to take and the connections open to it.
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"

#include <boost/json/serialize.hpp>

#include <thread>

namespace {

using rdv::test::explained_in;

// The `backends` member of /stats; fails the test if there is none.
boost::json::array backends(ch10::hub& hub) {
  const auto stats = hub.stats();
  if (!stats.contains("backends") || !stats.at("backends").is_array()) {
    ADD_FAILURE() << "/stats has no \"backends\" array: " << boost::json::serialize(stats);
    return {};
  }
  return stats.at("backends").as_array();
}

std::int64_t counter(const boost::json::array& all, std::size_t backend, std::string_view name) {
  if (backend >= all.size() || !all[backend].is_object() ||
      !all[backend].as_object().contains(name)) {
    ADD_FAILURE() << "no \"" << name << "\" for backend " << backend << " in "
                  << boost::json::serialize(all);
    return -1;
  }
  return all[backend].as_object().at(name).as_int64();
}

// Polls /stats (every 10 ms, for 10 s at most) until backend `backend`'s
// counter `name` is `value`; returns whether it did.
bool wait_for(ch10::hub& hub, std::size_t backend, std::string_view name, std::int64_t value) {
  for (int i = 0; i < 1000; ++i) {
    if (counter(backends(hub), backend, name) == value) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(BackendStats, ListsEveryBackendInTheOrderGiven) {
  explained_in("ch10-further-checked");
  ch10::test_backend first;
  const std::string nobody = "127.0.0.1:" + std::to_string(ch10::refused_port());
  ch10::hub hub({"--backend", first.address(), "--backend", nobody});
  const auto all = backends(hub);
  ASSERT_EQ(all.size(), 2u) << boost::json::serialize(all);
  EXPECT_EQ(all[0].as_object().at("address").as_string(), first.address())
      << boost::json::serialize(all);
  EXPECT_EQ(all[1].as_object().at("address").as_string(), nobody) << boost::json::serialize(all);
  for (std::size_t i = 0; i < 2; ++i) {
    for (const char* name : {"forwarded", "refused", "failed", "lines"}) {
      EXPECT_EQ(counter(all, i, name), 0) << name << " of backend " << i;
    }
  }
  EXPECT_EQ(hub.stat("forwarded"), 0) << "the hub's own counters stay";
}

TEST(BackendStats, CountsWhatEachBackendDidWithItsForwards) {
  explained_in("ch10-further-checked");
  ch10::test_backend takes;                                                        // backend 0: 202
  ch10::test_backend turns_down(503);                                              // backend 2: 503
  const std::string nobody = "127.0.0.1:" + std::to_string(ch10::refused_port());  // backend 1
  ch10::hub hub(
      {"--backend", takes.address(), "--backend", nobody, "--backend", turns_down.address()});
  // Round robin: each request starts one backend further.
  rdv::test::client one(hub.front());
  one.send(ch10::get("/one"));  // backend 0 takes it
  const std::string id = takes.next().id();
  ASSERT_EQ(ch10::post_reply(hub.replies(), id, ch10::http_message("HTTP/1.1 200 OK", "hi")).status,
            204);
  EXPECT_EQ(one.read_response().status, 200) << one.transcript();
  rdv::test::client two(hub.front());
  two.send(ch10::get("/two"));  // backend 1 is unreachable, backend 2 says 503
  EXPECT_EQ(two.read_response().status, 502) << two.transcript();
  rdv::test::client three(hub.front());
  three.send(ch10::get("/three"));  // backend 2 says 503: no other is asked
  EXPECT_EQ(three.read_response().status, 502) << three.transcript();

  const auto all = backends(hub);
  EXPECT_EQ(counter(all, 0, "forwarded"), 1) << boost::json::serialize(all);
  EXPECT_EQ(counter(all, 1, "failed"), 1) << boost::json::serialize(all);
  EXPECT_EQ(counter(all, 2, "refused"), 2) << boost::json::serialize(all);
  EXPECT_EQ(counter(all, 0, "refused") + counter(all, 0, "failed") + counter(all, 1, "forwarded") +
                counter(all, 1, "refused") + counter(all, 2, "forwarded") +
                counter(all, 2, "failed"),
            0)
      << "nothing else happened\n"
      << boost::json::serialize(all);
  EXPECT_EQ(counter(all, 1, "lines"), 0) << "no connection stays open to a port nobody listens on";
  EXPECT_GE(counter(all, 0, "lines"), 1) << "the hub keeps its connection to a backend alive\n"
                                         << boost::json::serialize(all);
}

TEST(BackendStats, CountsASilentBackendAsFailedOnceItsTimeIsUp) {
  explained_in("ch10-further-checked");
  ch10::silent_backend silent;
  ch10::test_backend takes;
  ch10::hub hub({"--backend", silent.address(), "--backend", takes.address(),
                 "--backend-timeout-ms", "200", "--timeout-ms", "60000"});
  rdv::test::client c(hub.front());
  c.send(ch10::get("/patient"));
  const std::string id = takes.next().id();  // after the silent one's 200 ms
  EXPECT_TRUE(wait_for(hub, 0, "failed", 1)) << boost::json::serialize(backends(hub));
  EXPECT_TRUE(wait_for(hub, 1, "forwarded", 1)) << boost::json::serialize(backends(hub));
  ASSERT_EQ(ch10::post_reply(hub.replies(), id, ch10::http_message("HTTP/1.1 200 OK", "ok")).status,
            204);
  EXPECT_EQ(c.read_response().status, 200) << c.transcript();
}

}  // namespace
