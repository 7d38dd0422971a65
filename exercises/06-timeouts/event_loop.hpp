#pragma once
/// \file
/// Processes and Asio in one event loop: a scheduler that runs its processes
/// from inside an io_context, so that timers and sockets can wake them.

#include "scheduler.hpp"

#include <boost/asio/io_context.hpp>

namespace rdv::proc {

/// A scheduler's link to the io_context it runs in: the seam chapter 3 left
/// (scheduler::on_runnable) plugged into Asio. One per scheduler, as an
/// extension; set up by run_in().
///
/// When a process becomes runnable outside the scheduler (a message from an
/// Asio handler, a spawn from main), the scheduler asks for a run, and the
/// event loop posts one to the io_context. When an Asio operation that a
/// process waits for completes, its handler calls resume(), which runs the
/// scheduler right there, on the io_context's stack, without a post.
class event_loop : public extension {
public:
  /// The event loop of `node` (made by node.use<event_loop>()).
  explicit event_loop(scheduler& node) : node_(node) {}

  /// Runs the scheduler's processes from now on inside `io`.
  void attach(boost::asio::io_context& io);
  /// The io_context the scheduler runs in; throws std::logic_error before attach().
  boost::asio::io_context& context() const;
  /// The scheduler.
  scheduler& node() const noexcept { return node_; }

  /// Ends the wait `ticket` is for, and runs the scheduler now unless it is
  /// already running (an operation that completed at once, inside the
  /// process). For the completion handlers of operations processes wait for.
  void resume(wait_ticket ticket);

  /// Nothing to do when a process ends.
  void process_exited(pid, const exit_reason&) override {}

private:
  scheduler& node_;
  boost::asio::io_context* io_ = nullptr;
  bool running_now_ = false;  // resume() runs the scheduler itself: no post
};

/// Makes `node` run its processes inside `io`: from now on `io.run()` runs
/// them, together with every Asio handler. Call it once, before `io.run()`,
/// on the thread that will run `io`. Destroy `node` before `io`, and do not
/// run `io` again after `node` is gone.
void run_in(boost::asio::io_context& io, scheduler& node);

/// The io_context the current scheduler runs in (for a process that makes a
/// timer or a socket).
boost::asio::io_context& current_io_context();

}  // namespace rdv::proc
