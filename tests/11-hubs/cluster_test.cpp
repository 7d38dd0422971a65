// Chapter 11's hubs on three machines: network namespaces of the test's
// own, each with a node of one three-node NATS cluster (authorization on),
// a backend, and a hub joined to its own node. Each machine's clients and
// workers use its loopback; only the bus crosses machines. Needs root, to
// make the namespaces: skipped, with the reason, without it.
#include "machines.hpp"
#include "nats_fixture.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/program.hpp"

#include <csignal>
#include <memory>
#include <thread>

namespace {

using namespace std::chrono_literals;
using rdv::test::explained_in;

constexpr int count = 3;

// A node's configuration: clients on every address of its machine, so that
// the cluster can tell the hubs where its other nodes are; the cluster's
// own port on its machine's address (6222, a port of the test's own
// namespaces, which nothing else can hold); and the hubs' user.
std::string node_config(int n) {
  std::string routes;
  for (int other = 1; other <= count; ++other) {
    if (other == n) continue;
    routes +=
        (routes.empty() ? " nats://" : ", nats://") + ch11::machines::address(other) + ":6222";
  }
  return "cluster {\n  name: rdv\n  listen: " + ch11::machines::address(n) + ":6222\n  routes: [" +
         routes +
         " ]\n}\nauthorization {\n  users = [\n    {user: hub, password: \"three-machines\", "
         "permissions: {publish: \"rdv.>\", subscribe: \"rdv.>\"}}\n  ]\n}\n";
}

class Cluster : public ::testing::Test {
protected:
  ch11::machines net{count};
  ch11::scratch_dir dir;
  std::vector<std::unique_ptr<ch11::nats_server>> nodes;
  std::vector<std::unique_ptr<ch10::test_backend>> backends;
  std::vector<std::unique_ptr<ch10::hub>> hubs;

  void SetUp() override {
    if (!net.why_not().empty()) GTEST_SKIP() << net.why_not();
    for (int n = 1; n <= count; ++n) {
      const std::string config = dir.write("node" + std::to_string(n) + ".conf", node_config(n));
      net.on(n, [&] {
        nodes.push_back(std::make_unique<ch11::nats_server>(
            std::vector<std::string>{"-c", config, "-a", "0.0.0.0"}));
      });
    }
    ASSERT_TRUE(routes_up()) << nodes[0]->output();
    const std::string credentials =
        dir.write("hub.credentials", "user hub\npassword three-machines\n");
    for (int n = 1; n <= count; ++n) {
      net.on(n, [&] {
        backends.push_back(std::make_unique<ch10::test_backend>());
        hubs.push_back(std::make_unique<ch10::hub>(std::vector<std::string>{
            "--bus", nodes[n - 1]->url(), "--hub-id", name(n), "--backend",
            backends[n - 1]->address(), "--bus-credentials", credentials}));
      });
    }
    ASSERT_TRUE(routable()) << "replies were not routed between the machines within 10 s";
  }

  static std::string name(int n) { return "m" + std::to_string(n); }

  // Whether every node has a route to both others, within 10 s.
  bool routes_up() const {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    for (const auto& node : nodes) {
      while (rdv::test::occurrences(node->output(), "Route connection created") < count - 1) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(10ms);  // polling a state, not synchronising
      }
    }
    return true;
  }

  // Whether a reply posted on each machine reaches each other machine's hub
  // (which answers 404 for an id nobody waits under), within 10 s: the
  // cluster has told every node about every hub's subscriptions.
  bool routable() {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    for (int to = 1; to <= count; ++to) {
      for (int from = 1; from <= count; ++from) {
        const std::string nobody = name(to) + "." + std::string(32, '0');
        while (from != to && post(from, nobody, "warm-up") != 404) {
          if (std::chrono::steady_clock::now() > deadline) return false;
        }
      }
    }
    return true;
  }

  // A client held at machine n's hub, and its request's id.
  struct held {
    std::unique_ptr<rdv::test::client> client;
    std::string id;
  };
  held hold_at(int n) {
    held h;
    net.on(n, [&] {
      h.client = std::make_unique<rdv::test::client>(hubs[n - 1]->front());
      h.client->send(ch10::get("/held-at-" + name(n)));
      h.id = backends[n - 1]->next().id();
    });
    return h;
  }

  // Posts a reply saying `text` for `id` to machine n's hub: the status it answers.
  int post(int n, const std::string& id, std::string_view text) {
    int status = 0;
    net.on(n, [&] {
      status = ch10::post_reply(hubs[n - 1]->replies(), id, ch11::reply_saying(text)).status;
    });
    return status;
  }
};

TEST_F(Cluster, AReplyPostedOnAnyMachineReachesAClientHeldOnAnyOther) {
  explained_in("ch11-machines");
  for (int holder = 1; holder <= count; ++holder) {
    for (int poster = 1; poster <= count; ++poster) {
      if (poster == holder) continue;
      held h = hold_at(holder);
      const std::string text = "from " + name(poster) + " to " + name(holder);
      EXPECT_EQ(post(poster, h.id, text), 204) << text;
      EXPECT_EQ(h.client->read_response().body, text) << h.client->transcript();
    }
  }
}

TEST_F(Cluster, AHubWhoseNodeDiesIsBackOnTheBusThroughAnotherWithinFiveSeconds) {
  explained_in("ch11-machines");
  held h = hold_at(1);
  nodes[0]->stop();  // machine 1's node: its hub must find another
  const auto stopped = std::chrono::steady_clock::now();
  int status = 503;  // the reply cannot reach m1 until it is back on the bus
  while (status == 503 && std::chrono::steady_clock::now() - stopped < 10s) {
    status = post(2, h.id, "after the failover");
  }
  EXPECT_EQ(status, 204) << hubs[0]->output();
  EXPECT_LT(std::chrono::steady_clock::now() - stopped, 7s)
      << "back within 5 s, and one more second for a reply's try";
  EXPECT_EQ(h.client->read_response().body, "after the failover");
}

TEST_F(Cluster, AKilledHubLosesOnlyItsOwnClients) {
  explained_in("ch11-machines");
  held mine = hold_at(1), lost = hold_at(2);
  hubs[1]->program().signal(SIGKILL);
  EXPECT_NE(hubs[1]->program().wait_exit(10s), -1);
  EXPECT_TRUE(lost.client->wait_closed()) << "the dead hub's clients lose their connection";
  EXPECT_EQ(post(3, lost.id, "too late"), 503) << "nobody answers for the dead hub";
  EXPECT_EQ(post(3, mine.id, "still here"), 204) << "the other hubs' clients are untouched";
  EXPECT_EQ(mine.client->read_response().body, "still here");
}

}  // namespace
