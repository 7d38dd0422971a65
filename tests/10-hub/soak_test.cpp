// Chapter 10's reliability run (CTest label `soak`; `./course test --soak`):
// 100,000 rendezvous through one hub, of which one in ten clients leaves
// while held and one in ten times out, with the replies posted in random
// order. Afterwards nothing may be held, the counters must add up, and the
// hub's memory must be back where it was after the warm-up.
#include "hub_fixture.hpp"

#include "rdv/test/book.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <fstream>
#include <memory>
#include <random>
#include <semaphore>
#include <sstream>

namespace {

using rdv::test::explained_in;

constexpr int client_threads = 50;
constexpr int rendezvous = 100'000;
constexpr int warm_up = 10'000;
const unsigned seed = std::random_device{}();  // in the failure messages

// What happens to one request. The target says it, so the worker knows.
enum class fate { replied, left, timed_out };

// The deadline a timed_out request asks for. The backend gets half of it to
// accept the forward (the protocol's rule), and must make it even on a busy
// machine: with 20 ms, its 10 ms were sometimes too short, and the hub
// rightly answered 502 instead of 504.
constexpr const char* short_deadline = "X-Hub-Timeout-Ms: 100\r\n";

fate fate_of(std::mt19937& random) {
  const auto roll = std::uniform_int_distribution<int>(0, 9)(random);
  return roll == 0 ? fate::left : roll == 1 ? fate::timed_out : fate::replied;
}

std::string target(int round, int thread, int sequence, fate f) {
  static constexpr std::array<const char*, 3> names{"replied", "left", "timed_out"};
  return "/soak/" + std::to_string(round) + "/" + std::to_string(thread) + "/" +
         std::to_string(sequence) + "/" + names[static_cast<int>(f)];
}

// The hub's resident set, from /proc (kB there, bytes here).
long rss_bytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) * 1024;
  }
  return -1;
}

// The counts the clients and the worker keep, to compare with /stats.
struct tally {
  std::atomic<long> replied{0}, left{0}, timed_out{0}, wrong{0};
  std::mutex mutex;
  std::string first_wrong;  // the first few, guarded by mutex

  void mismatch(const std::string& what) {
    if (wrong++ < 5) {
      const std::lock_guard lock(mutex);
      first_wrong += what + "\n";
    }
  }
};

// One round of `count` rendezvous: client threads, and this thread as the
// worker, which answers the held requests in random order.
class soak_round {
public:
  // `taken` counts the requests taken from `backend`, over all rounds.
  soak_round(ch10::hub& hub, ch10::test_backend& backend, std::size_t& taken, int number, int count)
      : hub_(hub), backend_(backend), taken_(taken), number_(number), count_(count) {
    for (int t = 0; t < client_threads; ++t) held_.emplace_back(0);
  }

  void run() {
    std::vector<std::jthread> clients;
    for (int t = 0; t < client_threads; ++t) {
      clients.emplace_back([this, t] {
        client(t);
        if (--running_ == 0) {  // the last one tells the worker, through the backend
          rdv::test::client direct(backend_.port());
          direct.send(ch10::get(end_of_round));
          direct.read_response();
        }
      });
    }
    work();
  }

  tally counts;

private:
  // Requests a share of the round's rendezvous, one after another, on one
  // kept-alive connection (a new one after each departure).
  void client(int thread) {
    std::mt19937 random(seed + static_cast<unsigned>(number_ * client_threads + thread));
    auto c = std::make_unique<rdv::test::client>(hub_.front());
    for (int s = thread; s < count_; s += client_threads) {
      const fate f = fate_of(random);
      const std::string t = target(number_, thread, s, f);
      try {
        switch (f) {
        case fate::replied: {
          c->send(ch10::get(t));
          const auto r = c->read_response();
          if (r.status != 200 || r.body != t) counts.mismatch(t + " got " + r.raw);
          break;
        }
        case fate::timed_out: {
          c->send(ch10::get(t, short_deadline));
          const auto r = c->read_response();
          if (r.status != 504) counts.mismatch(t + " got " + r.raw);
          ++counts.timed_out;
          break;
        }
        case fate::left:
          c->send(ch10::get(t));
          held_[thread].acquire();  // the worker has seen it: it is held
          c->close();
          c = std::make_unique<rdv::test::client>(hub_.front());
          ++counts.left;
          break;
        }
      } catch (const std::exception& e) {
        counts.mismatch(t + ": " + e.what());
        c = std::make_unique<rdv::test::client>(hub_.front());
      }
    }
  }

  // Takes every forwarded request until the clients are done (a request
  // that timed out while being forwarded may never come). Those to be
  // replied to wait in a pool and go back in random order: one at random
  // whenever the pool is full, all of them, shuffled, whenever nothing
  // more has arrived.
  void work() {
    std::mt19937 random(seed + static_cast<unsigned>(number_));
    rdv::test::client replies(hub_.replies());
    std::vector<std::pair<std::string, std::string>> pool;  // (id, target)
    const auto reply_to = [&](std::size_t i) {
      std::swap(pool[i], pool.back());
      const auto [id, t] = pool.back();
      pool.pop_back();
      replies.send(ch10::reply_request(id, ch10::http_message("HTTP/1.1 200 OK", t)));
      const auto r = replies.read_response();
      if (r.status == 204)
        ++counts.replied;
      else
        counts.mismatch("the reply for " + t + " got " + r.raw);
    };
    for (;;) {
      const ch10::forwarded f = backend_.next();
      ++taken_;
      if (f.target == end_of_round) break;
      const auto parts = split(f.target);  // "", "soak", round, thread, sequence, fate
      if (parts.size() != 6 || parts[2] != std::to_string(number_)) {
        continue;  // a request of the round before, forwarded after its 504
      }
      if (parts[5] == "left") held_[std::stoi(parts[3])].release();
      if (parts[5] == "replied") pool.emplace_back(f.id(), f.target);
      if (pool.size() > 16) reply_to(std::uniform_int_distribution<std::size_t>(0, 15)(random));
      if (backend_.received() == taken_) {  // nothing waiting
        std::shuffle(pool.begin(), pool.end(), random);
        while (!pool.empty()) reply_to(pool.size() - 1);
      }
    }
    while (!pool.empty()) reply_to(pool.size() - 1);
  }

  static std::vector<std::string> split(const std::string& path) {
    std::vector<std::string> parts;
    std::istringstream in(path);
    for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
    return parts;
  }

  static constexpr const char* end_of_round = "/soak/end";

  ch10::hub& hub_;
  ch10::test_backend& backend_;
  std::size_t& taken_;
  int number_;
  int count_;
  std::atomic<int> running_ = client_threads;
  std::deque<std::binary_semaphore> held_;  // per client thread: its request is held
};

TEST(Soak, HundredThousandRendezvousLeaveNothingBehind) {
  explained_in("ch10-tests");
  ch10::test_backend backend;
  ch10::hub hub({"--backend", backend.address(), "--timeout-ms", "30000"});
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::size_t taken = 0;

  soak_round first(hub, backend, taken, 1, warm_up);
  first.run();
  ASSERT_EQ(first.counts.wrong, 0) << first.counts.first_wrong;
  ASSERT_TRUE(hub.wait_for_stat("pending", 0)) << hub.stats();
  const long warm = rss_bytes(hub.program().pid());

  soak_round soak(hub, backend, taken, 2, rendezvous);
  soak.run();
  EXPECT_EQ(soak.counts.wrong, 0) << soak.counts.first_wrong;
  EXPECT_TRUE(hub.wait_for_stat("pending", 0)) << "clients still held: " << hub.stats();

  const auto stats = hub.stats();
  const auto stat = [&](const char* name) { return stats.at(name).as_int64(); };
  const long replied = first.counts.replied + soak.counts.replied;
  const long left = first.counts.left + soak.counts.left;
  const long timed_out = first.counts.timed_out + soak.counts.timed_out;
  EXPECT_EQ(stat("replied"), replied) << stats;
  EXPECT_EQ(stat("timed_out"), timed_out) << stats;
  EXPECT_EQ(stat("abandoned"), left) << stats;
  EXPECT_EQ(stat("replied") + stat("timed_out") + stat("abandoned"), warm_up + rendezvous) << stats;
  // A short deadline may pass while a request is being forwarded: 504, never forwarded.
  EXPECT_LE(stat("forwarded"), warm_up + rendezvous) << stats;
  EXPECT_GE(stat("forwarded"), stat("replied") + stat("abandoned")) << stats;
  EXPECT_EQ(stat("late_replies"), 0) << stats;
  EXPECT_EQ(stat("backend_errors") + stat("rejected"), 0) << stats;
  EXPECT_GT(left, rendezvous / 20) << "about one in ten should have left";
  EXPECT_GT(timed_out, rendezvous / 20) << "about one in ten should have timed out";

  const long after = rss_bytes(hub.program().pid());
  EXPECT_LE(after, warm + warm / 10) << "the hub's RSS grew from " << warm << " to " << after
                                     << " bytes over " << rendezvous << " rendezvous";
}

}  // namespace
