// The main() of every test program: GoogleTest's, plus the watch for
// exercise stubs (unsolved.hpp). Each test starts with nothing reached, and
// a stub reached anywhere in the process is noted the moment it is made.
// And a watch for a test that hangs: see hang_watch.
#include "rdv/test/unsolved.hpp"
#include "rdv/todo.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace {

class forget_between_tests : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override { rdv::test::forget_todo(); }
};

// A test that runs for minutes hangs: the longest of the course's, the
// soak run, takes under 30 s. An exercise that blocks (a socket left
// blocking, a wait without a deadline) can stop a test in a call that no
// deadline of the test reaches; then the program says which test, and
// ends, instead of leaving `./course check` waiting for ever. The limit is
// RDV_TEST_HANG_SECONDS (default 180). The watch lives until the process
// ends: a thread that sleeps between tests, never joined.
class hang_watch {
public:
  hang_watch() : limit_(limit()) {
    std::thread([this] { watch(); }).detach();
  }

  void started(std::string name) {
    const std::lock_guard lock(mutex_);
    name_ = std::move(name);
    ends_ = std::chrono::steady_clock::now() + limit_;
    ++started_;
    changed_.notify_all();
  }
  void ended() {
    const std::lock_guard lock(mutex_);
    ++ended_;
    changed_.notify_all();
  }

private:
  static std::chrono::seconds limit() {
    const char* given = std::getenv("RDV_TEST_HANG_SECONDS");
    const long seconds = given != nullptr ? std::strtol(given, nullptr, 10) : 0;
    return std::chrono::seconds(seconds > 0 ? seconds : 180);
  }

  void watch() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return started_ != ended_; });  // a test runs
      const unsigned long running = started_;
      if (changed_.wait_until(lock, ends_,
                              [&] { return ended_ == running || started_ != running; })) {
        continue;
      }
      std::fprintf(stderr,
                   "\nrdv: %s has run for %lld s, and hangs: a call that blocks, or a wait "
                   "without a deadline? Stopping the test program.\n",
                   name_.c_str(), static_cast<long long>(limit_.count()));
      std::fflush(stderr);
      std::_Exit(124);
    }
  }

  const std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string name_;
  std::chrono::steady_clock::time_point ends_;
  unsigned long started_ = 0, ended_ = 0;
};

// Tells the watch when each test starts and ends. GoogleTest owns it, and
// deletes it at exit; the watch it tells is never deleted, since its thread
// may still be waiting then.
class watch_each_test : public ::testing::EmptyTestEventListener {
public:
  explicit watch_each_test(hang_watch& watch) : watch_(watch) {}
  void OnTestStart(const ::testing::TestInfo& test) override {
    watch_.started(std::string(test.test_suite_name()) + "." + test.name());
  }
  void OnTestEnd(const ::testing::TestInfo&) override { watch_.ended(); }

private:
  hang_watch& watch_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  listeners.Append(new forget_between_tests);
  static hang_watch* const watch = new hang_watch;  // never deleted: see watch_each_test
  listeners.Append(new watch_each_test(*watch));
  rdv::todo::observe([](const std::string& message) noexcept { rdv::test::note_todo(message); });
  return RUN_ALL_TESTS();
}
