// The scheduler's hot path: choosing who runs next, switching to it, and
// receiving. Included by scheduler.hpp.
//
// Why inline, and forced to be: a switch lands in the middle of another
// process's call stack, so the CPU's return stack buffer, which predicts
// where each `ret` goes, holds the wrong addresses after it. Every function
// that returns across a switch costs a mispredicted return. When the switch
// is inlined into the code that waits, the process goes on after it without
// returning at all.
#pragma once

#include "scheduler.hpp"

#include <stdexcept>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::proc {

namespace detail {
// The newest scheduler made on this thread (see scheduler::current()).
inline thread_local scheduler* current_scheduler = nullptr;

// The stack pointer of the caller: where a switch will save its registers.
[[gnu::always_inline]] inline void* stack_pointer() noexcept {
#if defined(__x86_64__)
  void* sp;
  asm volatile("mov %%rsp, %0" : "=r"(sp));
  return sp;
#else
  return __builtin_frame_address(0);
#endif
}
}  // namespace detail

inline scheduler& scheduler::current() {
  if (detail::current_scheduler == nullptr) {
    throw std::logic_error("rdv::proc: no scheduler on this thread; make an rdv::proc::scheduler "
                           "first");
  }
  return *detail::current_scheduler;
}

inline process& scheduler::running() const {
  if (running_ == nullptr) {
    throw std::logic_error("rdv::proc: only a process can do this, and the caller is the thread "
                           "that runs the scheduler");
  }
  return *running_;
}

//! [take_next]
// Chooses who runs next, and notes who is leaving, so that the one who runs
// next can keep the leaver's fiber (arrived()).
[[gnu::always_inline]] inline boost::context::fiber scheduler::take_next() {
  // TODO(ch03.4): pick the first runnable process, or go back to run()'s caller
  // Hint: Three members say who has the CPU and who just left it: running_, left_ and
  //   left_ended_. What must each hold once the switch is done? (more:
  //   ./course hint 03 4)
  throw rdv::todo("ch03.4", "pick the first runnable process, or go back to run()'s caller");
}
//! [take_next]

//! [arrived]
// First thing after every switch: `from` is where whoever switched to us
// stopped, so it goes back into their record (main_ for run()'s caller).
[[gnu::always_inline]] inline void scheduler::arrived(boost::context::fiber&& from) noexcept {
  ++switches_;
  if (left_ended_) return;  // an ended process's fiber: dropping it frees its stack
  if (left_ == nullptr) {
    main_ = std::move(from);
  } else {
    left_->context = std::move(from);
  }
}

[[gnu::always_inline]] inline void scheduler::suspend() {
  running_->resume_hint = detail::stack_pointer();
  arrived(take_next().resume());
}
//! [arrived]

inline void scheduler::make_runnable(process& p) noexcept {
  p.state = process_state::runnable;
  runnable_.push(&p);
  // The switch to it reads its registers just below resume_hint, and its
  // code goes on with the frame just above: start fetching both now.
  if (const char* hint = static_cast<const char*>(p.resume_hint)) {
    for (int line = -2; line < 2; ++line) __builtin_prefetch(hint + 64 * line);
  }
  if (!in_run_ && !wakeup_pending_ && on_runnable_) {
    wakeup_pending_ = true;
    on_runnable_();
  }
}

//! [receive]
[[gnu::always_inline]] inline envelope* scheduler::receive(wanted_types wanted) {
  process& me = running();
  mailbox::cursor at = me.inbox.front();
  for (;;) {
    if (envelope* e = me.inbox.take(wanted, at)) return e;
    me.state = process_state::waiting_message;  // send() makes it runnable again
    suspend();
  }
}
//! [receive]

}  // namespace rdv::proc
