#pragma once
/// \file
/// A call: a request sent to a process, and the answer to *that* request
/// awaited, with a deadline. Erlang writes it with make_ref() and a
/// selective receive on the reference (`gen_server:call`); CAF, as
/// `request(...).then(...)`. Later chapters make calls to their connection
/// pool, to held clients, and over a bus.

#include "after.hpp"
#include "processes.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace rdv::proc {

/// A reference: a value no other make_ref() of this program returns, as
/// Erlang's `make_ref()`. A call carries one to the process it asks, and
/// the answer carries it back: that is how a caller tells the answer to
/// this call from a late answer to one it gave up on.
class ref {
public:
  /// Refers to nothing: equal to no reference that make_ref() returns.
  constexpr ref() = default;
  /// Whether two references are the same one.
  friend constexpr bool operator==(ref, ref) = default;

private:
  friend ref make_ref();
  explicit constexpr ref(std::uint64_t n) : n_(n) {}
  std::uint64_t n_ = 0;
};

/// A fresh reference. Safe on any thread.
ref make_ref();

// [call_messages]
/// Who asked: the calling process and its call's reference. A request
/// carries one; whoever answers passes it to answer().
struct caller {
  pid from;  ///< the process that waits for the answer
  ref call;  ///< which of its calls this is
};

/// An answer on its way back to its caller: `value`, tagged with the call.
template <class T>
struct reply {
  ref call;  ///< the call it answers
  T value;   ///< the answer
};
// [call_messages]

/// Sends `value` to the process that made the call `to`, tagged with it.
/// Call it in a process; scheduler::send() does the same from outside one.
template <class T>
void answer(const caller& to, T value) {
  send(to.from, reply<T>{to.call, std::move(value)});
}

/// A receive() clause for the answer to call `r`: it takes every reply<T>,
/// calls `on_answer(T&&)` for the one tagged `r`, and drops the others —
/// answers to earlier calls that came after their caller stopped waiting.
template <class T, class F>
auto on_reply(ref r, F on_answer) {
  return [r, on_answer = std::move(on_answer)](reply<T>& m) mutable {
    if (m.call == r) on_answer(std::move(m.value));
  };
}

/// Waits for the answer to call `r` until `deadline`: nothing if it did not
/// come in time. Drops the answers to other calls meanwhile.
template <class T>
std::optional<T> await_reply(ref r, std::chrono::steady_clock::time_point deadline) {
  std::optional<T> got;
  bool late = false;
  while (!got && !late) {
    receive(on_reply<T>(r, [&](T&& value) { got = std::move(value); }),
            after(deadline - std::chrono::steady_clock::now(), [&] { late = true; }));
  }
  return got;
}

/// Erlang's `gen_server:call`: sends `to` the request that `make(caller)`
/// returns, and waits for the answer (a reply<T>) until `deadline`. Nothing
/// if the time passes or `to` ends first: `to` is monitored while the call
/// waits, and its `down` never outlives the call. A `down` for another
/// process that comes meanwhile is put back in the mailbox, at its end.
template <class T, class Make>
std::optional<T> call(
    pid to, Make&& make,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) {
  const caller me{self(), make_ref()};
  monitor(to);
  send(to, std::forward<Make>(make)(me));
  std::optional<T> got;
  bool ended = false, late = false;
  std::vector<down> others;
  const auto take_down = [&](down& d) { d.who == to ? void(ended = true) : others.push_back(d); };
  auto answer = on_reply<T>(me.call, [&](T&& value) { got = std::move(value); });
  while (!got && !ended && !late) {
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      receive(answer, take_down);  // no deadline: no timer to set and cancel
    } else {
      receive(answer, take_down,
              after(deadline - std::chrono::steady_clock::now(), [&] { late = true; }));
    }
  }
  demonitor(to);
  // It ended after it answered (or as the time ran out): its `down` waits here.
  while (!ended && !scheduler::current().alive(to)) receive(take_down);
  for (down& d : others) send(self(), std::move(d));
  return got;
}

}  // namespace rdv::proc
