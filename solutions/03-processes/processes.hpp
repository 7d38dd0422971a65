#pragma once
/// \file
/// Erlang's primitives as free functions on the current scheduler: `spawn`,
/// `self()`, `send` (Erlang's `Pid ! Msg`), `receive`, `yield`, `monitor`.

#include "receive.hpp"
#include "scheduler.hpp"

#include <utility>

/// Processes, messages and the runtime that schedules them (chapters 3 to 6).
namespace rdv::proc {

/// Starts a process running `body()` on the current scheduler; returns its pid.
template <class F>
pid spawn(F&& body) {
  return scheduler::current().spawn(std::forward<F>(body));
}

/// The calling process's pid.
inline pid self() { return scheduler::current().self(); }

/// Sends `message` to `to`; false if `to` has ended (the message is dropped).
template <class M>
bool send(pid to, M&& message) {
  return scheduler::current().send(to, std::forward<M>(message));
}

/// Lets the other runnable processes run first.
inline void yield() { scheduler::current().yield(); }

/// The calling process gets a `down` message when `target` ends.
inline void monitor(pid target) { scheduler::current().monitor(target); }

/// Undoes one monitor() of `target`.
inline void demonitor(pid target) { scheduler::current().demonitor(target); }

}  // namespace rdv::proc
