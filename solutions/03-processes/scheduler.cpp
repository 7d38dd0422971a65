#include "scheduler.hpp"

#include <iostream>
#include <ostream>
#include <stdexcept>

namespace rdv::proc {

namespace {

using detail::current_scheduler;  // context_switch.hpp

// Makes a scheduler current() for a scope (run() may be called on a thread
// where a newer scheduler was made since).
class current_for_scope {
public:
  explicit current_for_scope(scheduler* s) noexcept : saved_(current_scheduler) {
    current_scheduler = s;
  }
  ~current_for_scope() { current_scheduler = saved_; }
  current_for_scope(const current_for_scope&) = delete;
  current_for_scope& operator=(const current_for_scope&) = delete;

private:
  scheduler* saved_;
};

}  // namespace

std::ostream* standard_error() noexcept { return &std::cerr; }

scheduler::scheduler() : scheduler(scheduler_options{}) {}

scheduler::scheduler(scheduler_options options)
    : options_(options), stacks_(options.stacks), previous_current_(current_scheduler) {
  current_scheduler = this;
}

scheduler::~scheduler() {
  shutting_down_ = true;
  table_.for_each([this](process& p) {
    running_ = &p;   // so that code unwinding on its stack sees itself as self()
    p.context = {};  // destroying a suspended fiber unwinds its stack
    p.inbox.clear(messages_);
  });
  running_ = nullptr;
  extensions_.clear();
  if (current_scheduler == this) current_scheduler = previous_current_;
}

//! [run]
void scheduler::run() {
  if (running_ != nullptr) throw std::logic_error("rdv::proc: run() called from a process");
  current_for_scope current(this);
  in_run_ = true;
  wakeup_pending_ = false;
  try {
    // resume() returns when some process switches back here; what it returns
    // is the fiber of the process that left, which arrived() puts back.
    while (!runnable_.empty()) arrived(take_next().resume());
  } catch (...) {
    in_run_ = false;
    throw;
  }
  in_run_ = false;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}
//! [run]

void scheduler::yield() {
  process& me = running();
  if (runnable_.empty()) return;
  me.state = process_state::runnable;
  runnable_.push(&me);
  suspend();
}

//! [finish]
// A process's last act, on its own stack: clean up, tell the others, and
// return the fiber to switch to. Boost.Context frees the stack after the switch.
boost::context::fiber scheduler::finish(process& p, exit_reason reason) noexcept {
  try {
    const pid who = p.id;
    p.inbox.clear(messages_);
    table_.release(p);
    report_exit(who, reason);
    boost::context::fiber next = take_next();
    left_ended_ = true;
    return next;
  } catch (...) {  // a bug of the scheduler itself (or an unsolved exercise)
    failure_ = std::current_exception();
    left_ = nullptr;
    left_ended_ = true;
    running_ = nullptr;
    return std::move(main_);  // run() rethrows it
  }
}
//! [finish]

//! [report_exit]
void scheduler::report_exit(pid who, const exit_reason& reason) {
  if (!reason.normal() && options_.crash_log != nullptr) {
    *options_.crash_log << "rdv::proc: process " << who << " exited: " << reason << std::endl;
  }
  for (auto& [key, e] : extensions_) e->process_exited(who, reason);
  if (monitors_.empty()) return;  // the common case: nobody watches
  // EXERCISE ch03.5, part 2: tell every process that monitors `who` how it ended
  // HINT: A pid can be watched by several processes. Which lookup of
  //       monitors_ gives them all?
  // HINT: Each watcher gets a `down` message. Should the entries stay after that?
  auto [first, last] = monitors_.equal_range(who);
  for (auto it = first; it != last; ++it) send(it->second, down{who, reason});
  monitors_.erase(first, last);
  // END EXERCISE
}

void scheduler::monitor(pid target) {
  // EXERCISE ch03.5: watch a process, and learn how it ends
  // HINT: monitors_ maps a monitored pid to the pids watching it. Why a
  //       multimap: what if two processes watch the same one?
  // HINT: What should a watcher hear when the process it asks about has
  //       already ended, or never was? exit_reason has a name for that.
  // STUB: (void)target;
  const pid me = running().id;
  if (!alive(target)) {
    send(me, down{target, exit_reason::no_process()});
    return;
  }
  monitors_.emplace(target, me);
  // END EXERCISE
}
//! [report_exit]

void scheduler::demonitor(pid target) {
  const pid me = running().id;
  auto [first, last] = monitors_.equal_range(target);
  for (auto it = first; it != last; ++it) {
    if (it->second == me) {
      monitors_.erase(it);
      return;
    }
  }
}

//! [tickets]
wait_ticket scheduler::ticket() {
  process& me = running();
  me.woken = false;
  return {me.id, ++me.wait_serial};
}

void scheduler::retire(wait_ticket ticket) noexcept {
  if (process* p = table_.find(ticket.who); p != nullptr && p->wait_serial == ticket.wait) {
    ++p->wait_serial;
  }
}

bool scheduler::holds(wait_ticket ticket) const noexcept {
  const process* p = table_.find(ticket.who);
  return p != nullptr && p->wait_serial == ticket.wait;
}

bool scheduler::wait(wake_on what) {
  process& me = running();
  if (!me.woken) {
    me.state =
        what == wake_on::ticket ? process_state::waiting_wake : process_state::waiting_either;
    suspend();
  }
  return std::exchange(me.woken, false);
}

bool scheduler::wake(wait_ticket ticket) noexcept {
  process* p = table_.find(ticket.who);
  if (p == nullptr || p->wait_serial != ticket.wait) return false;  // stale
  switch (p->state) {
  case process_state::waiting_wake:
  case process_state::waiting_either:
    p->woken = true;
    make_runnable(*p);
    return true;
  case process_state::running:   // woken before it began to wait
  case process_state::runnable:  // already woken by a message: it sees both
    p->woken = true;
    return true;
  default: return false;
  }
}
//! [tickets]

}  // namespace rdv::proc
