#pragma once
// Chapter 6's tests that run processes inside an io_context on the test's
// thread: the io_context, and a scheduler that runs in it.
#include "event_loop.hpp"

#include "rdv/test/run_io.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <sstream>

namespace ch06 {

// Whether the one wait that `wait()` makes, in the running process, left
// its ticket live after it returned. A process numbers its waits: each
// ticket() takes the next number, and retire() moves past it.
template <class Wait>
bool leaves_its_ticket_live(Wait wait) {
  rdv::proc::scheduler& s = rdv::proc::scheduler::current();
  const rdv::proc::wait_ticket mark = s.ticket();  // number k
  s.retire(mark);                                  // k + 1
  wait();                                          // its wait takes k + 2
  return s.holds(rdv::proc::wait_ticket{mark.who, mark.wait + 2});
}

class loop_test : public ::testing::Test {
protected:
  // Declared first, so destroyed last: the scheduler's processes and
  // timers belong to it (chapter 6's rule).
  boost::asio::io_context io{1};
  std::ostringstream crashes;
  rdv::proc::scheduler node{{.crash_log = &crashes}};

  loop_test() { rdv::proc::run_in(io, node); }
  ~loop_test() override { EXPECT_EQ(crashes.str(), "") << "no process should have crashed"; }

  // Runs until no process and no timer is left. A timer that leaked would
  // keep it running: the 60-second cap turns that into a failure.
  void run_all() {
    rdv::test::run_io(io, std::chrono::seconds(60));
    EXPECT_TRUE(io.stopped()) << "io_context still had work after 60 s: a timer or an operation "
                                 "leaked, or one that should have been cancelled kept a process "
                                 "waiting ("
                              << node.process_count() << " process(es) not ended; did a wanted "
                              << "message fail to wake its receiver?)";
  }
};

}  // namespace ch06
