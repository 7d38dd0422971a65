#pragma once
/// \file
/// The scheduler: Erlang-style processes on Boost.Context fibers, a run
/// queue, a mailbox per process, monitors, and the seams later chapters use.

#include "exit_reason.hpp"
#include "extension.hpp"
#include "mailbox.hpp"
#include "message.hpp"
#include "pid.hpp"
#include "process.hpp"
#include "process_table.hpp"
#include "stack_pool.hpp"

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rdv::proc {

/// Names one wait of one process that wake() can end: an I/O completion or a
/// timer holds a ticket, never a pointer into the process, so a late one
/// finds the ticket stale and does nothing.
struct wait_ticket {
  pid who;                 ///< the waiting process
  std::uint32_t wait = 0;  ///< which of its waits
};

/// What ends a scheduler::wait().
enum class wake_on : std::uint8_t {
  ticket,             ///< only wake() with the current ticket
  ticket_or_message,  ///< that, or any new message
};

/// Where crash reports go unless the options say otherwise: standard error.
std::ostream* standard_error() noexcept;

/// How a scheduler is set up.
struct scheduler_options {
  /// The processes' stacks.
  stack_options stacks{};
  /// Where to report a process that ends by an exception (nullptr: nowhere).
  std::ostream* crash_log = standard_error();
};

/// Runs processes: lightweight threads of control, each on its own small
/// stack, that share nothing and talk only by messages.
///
/// A scheduler belongs to the thread that creates it, and while it exists
/// the free functions of processes.hpp (spawn, send, receive, ...) use it.
/// It is cooperative: a process runs until it waits for a message, yields,
/// or ends; then the next runnable process runs, switched to directly.
class scheduler {
public:
  /// A scheduler with default options; it becomes current() on this thread.
  scheduler();
  /// A scheduler set up as `options` says; it becomes current() on this thread.
  explicit scheduler(scheduler_options options);
  /// Unwinds the stacks of the processes still alive (their destructors run;
  /// they must not wait) and makes the previous scheduler current again.
  ~scheduler();
  scheduler(const scheduler&) = delete;
  scheduler& operator=(const scheduler&) = delete;

  /// The newest scheduler of this thread; throws std::logic_error if there is none.
  static scheduler& current();

  /// Starts a process that runs `body()`: it runs when the scheduler gets to
  /// it, and ends when `body` returns (reason `normal`) or throws (the
  /// exception is its reason). Returns its pid at once.
  template <class F>
  pid spawn(F&& body);
  /// Runs processes until none is runnable: all have ended or wait. Rethrows
  /// an error of the scheduler itself (never one a process threw).
  void run();

  /// Puts `message` (any movable value) in the mailbox of `to`. Returns false,
  /// dropping it, if `to` has ended: as in Erlang, sending never fails.
  template <class M>
  bool send(pid to, M&& message);
  /// The running process's first message, in arrival order, of a type in
  /// `wanted`, waiting for one if needed; the caller owns the envelope.
  envelope* receive(wanted_types wanted);
  /// The running process's pid; throws std::logic_error outside a process.
  pid self() const { return running().id; }
  /// Lets the other runnable processes run before the running one goes on.
  void yield();
  /// Whether `who` is a process of this scheduler that has not ended.
  bool alive(pid who) const noexcept { return table_.find(who) != nullptr; }
  /// How many processes have started and not ended.
  std::size_t process_count() const noexcept { return table_.live(); }
  /// Whether the caller is a process (not the thread that calls run()).
  bool in_process() const noexcept { return running_ != nullptr; }
  /// How many switches this scheduler has made: to a process, or back to
  /// run()'s caller. Chapter 5's ring makes one a hop.
  std::uint64_t switches() const noexcept { return switches_; }
  /// How many times send() has been called, whether or not the message
  /// reached a mailbox. Chapter 5's ring makes one a hop.
  std::uint64_t sends() const noexcept { return sends_; }

  /// The running process gets a `down` message when `target` ends (at once,
  /// with reason `noproc`, if it already has).
  void monitor(pid target);
  /// Undoes one monitor() of `target` by the running process.
  void demonitor(pid target);
  /// How many monitors are in force: made, and neither fired nor undone.
  std::size_t monitor_count() const noexcept { return monitors_.size(); }

  /// The pool that every envelope of this scheduler comes from.
  message_pool& messages() noexcept { return messages_; }
  /// The running process's mailbox.
  mailbox& own_mailbox() { return running().inbox; }
  /// The pool of the processes' stacks.
  const stack_pool& stacks() const noexcept { return stacks_; }
  /// Gives back the pages of the running process's stack below the frame
  /// it runs in (stack_pool::trim()), before it waits a long time. Returns
  /// the bytes given back; 0 outside a process.
  std::size_t trim_stack() const noexcept { return running_ ? stacks_.trim() : 0; }

  /// A new ticket for the running process's next wait; its older tickets
  /// become stale. Tickets are the seam for chapters 4 and 6, whose waits
  /// (a name, a timer, a socket) wake a process with one.
  wait_ticket ticket();
  /// Makes `ticket` stale: the wait it was for is over.
  void retire(wait_ticket ticket) noexcept;
  /// Whether `ticket` is its process's current ticket.
  bool holds(wait_ticket ticket) const noexcept;
  /// Suspends the running process until wake() with its current ticket (or,
  /// with wake_on::ticket_or_message, a new message). Returns true if wake()
  /// ended the wait, also when wake() came before the wait began.
  bool wait(wake_on what);
  /// Ends the wait `ticket` is for, if it is current: its process becomes
  /// runnable. Returns false, doing nothing, for a stale ticket.
  bool wake(wait_ticket ticket) noexcept;
  /// Calls `hook` when a process becomes runnable while run() is not running,
  /// at most once until run() starts again: chapter 6 uses it to run the
  /// scheduler from an Asio event loop.
  void on_runnable(std::function<void()> hook) { on_runnable_ = std::move(hook); }
  /// This scheduler's `E`, made on first use with `E(scheduler&)`; see extension.
  template <class E>
  E& use();

private:
  template <class F>
  boost::context::fiber start(process& p, boost::context::fiber&& from, F& body);
  template <class F>
  static exit_reason run_body(F& body);
  process& running() const;
  void make_runnable(process& p) noexcept;
  void suspend();
  boost::context::fiber take_next();
  void arrived(boost::context::fiber&& from) noexcept;
  boost::context::fiber finish(process& p, exit_reason reason) noexcept;
  void report_exit(pid who, const exit_reason& reason);

  scheduler_options options_;
  stack_pool stacks_;
  message_pool messages_;
  process_table table_;
  run_queue runnable_;
  boost::context::fiber main_;  // run()'s caller, while a process runs
  process* running_ = nullptr;  // nullptr: run()'s caller has the CPU
  process* left_ = nullptr;     // who switched away last (nullptr: run()'s caller)
  bool left_ended_ = false;     // ... and whether it has ended (its fiber is gone)
  std::uint64_t switches_ = 0;  // counted as each switch arrives
  std::uint64_t sends_ = 0;     // counted as each send() is called
  bool in_run_ = false;
  bool wakeup_pending_ = false;
  bool shutting_down_ = false;
  std::function<void()> on_runnable_;
  std::exception_ptr failure_;                  // an error of the scheduler, for run()
  std::unordered_multimap<pid, pid> monitors_;  // target -> watcher
  std::vector<std::pair<const void*, std::unique_ptr<extension>>> extensions_;
  scheduler* previous_current_ = nullptr;
};

}  // namespace rdv::proc

#include "context_switch.ipp"  // the hot path, inline
#include "scheduler.ipp"       // the templates: spawn, send, use
