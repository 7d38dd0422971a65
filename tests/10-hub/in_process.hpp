#pragma once
// Chapter 10's in-process tests: parts of the hub run as processes on a
// scheduler of the test's own thread, inside an io_context.

#include "event_loop.hpp"
#include "processes.hpp"

#include "rdv/test/run_io.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <string>

namespace ch10 {

// Runs `body` as a process on a scheduler of this thread, inside an
// io_context, until every process has ended or waits for nothing; returns
// how `body` ended ("" when it returned). A minute at most: an io_context
// that still has work then (a timer or a wait left behind) is a failure.
template <class F>
std::string run(F body) {
  namespace proc = rdv::proc;
  boost::asio::io_context io;
  proc::scheduler node({.crash_log = nullptr});
  proc::run_in(io, node);
  std::string how;
  node.spawn([&] {
    const proc::pid p = proc::spawn(body);
    proc::monitor(p);
    const auto gone = proc::receive<proc::down>();
    if (!gone.reason.normal()) how = gone.reason.text();
  });
  rdv::test::run_io(io, std::chrono::minutes(1));
  if (!io.stopped())
    return "the io_context still had work after a minute: a timer or a wait left behind";
  return how;
}

}  // namespace ch10
