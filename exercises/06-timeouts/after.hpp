#pragma once
/// \file
/// Receive with a timeout: `receive(handlers..., after(d, on_timeout))`,
/// Erlang's `receive ... after Time -> ... end`, on an Asio timer.

#include "event_loop.hpp"
#include "processes.hpp"
#include "time_limit.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace rdv::proc {

/// The last clause of a receive with a timeout: what to do if no wanted
/// message has arrived after `limit`. Made by after().
template <class F>
struct timeout_clause {
  std::chrono::steady_clock::duration limit;  ///< how long to wait; zero: do not wait at all
  F on_timeout;                               ///< called with no arguments when the time is up
};

/// A timeout clause for receive(): call `on_timeout()` if no wanted message
/// arrives within `limit`. A zero (or negative) limit polls: it takes a
/// message already in the mailbox, or times out at once; and
/// `steady_clock::duration::max()` (or any limit too long for the clock to
/// reach, `hours::max()` say) waits for ever, as Erlang's `after infinity`
/// does.
template <class Rep, class Period, class F>
timeout_clause<std::decay_t<F>> after(std::chrono::duration<Rep, Period> limit, F&& on_timeout) {
  return {std::max(clock_limit(limit), std::chrono::steady_clock::duration::zero()),
          std::forward<F>(on_timeout)};
}

/// \cond
template <class T>
inline constexpr bool is_timeout_clause = false;
template <class F>
inline constexpr bool is_timeout_clause<timeout_clause<F>> = true;

template <class... A>
using last_of = std::tuple_element_t<sizeof...(A) - 1, std::tuple<std::remove_cvref_t<A>...>>;
/// \endcond

/// The first wanted message of the running process, or nullptr if none arrives
/// within `limit`; the core of receive with a timeout. The timer it sets is
/// cancelled when a message wins, and a timer that fires late finds its
/// ticket stale and does nothing.
envelope* receive_within(scheduler& node, wanted_types wanted,
                         std::chrono::steady_clock::duration limit);

/// Waits like receive(handlers...) for the first message, in arrival order,
/// that one of the handlers takes, and returns what that handler returns; but
/// if none arrives within the clause's limit, returns what its on_timeout()
/// returns. The last argument is the clause: `receive(h1, h2, after(5s, f))`.
template <class... A>
  requires(sizeof...(A) >= 2 && is_timeout_clause<last_of<A...>>)
auto receive(A&&... arguments);

/// Takes the first wanted message already in the mailbox, if any: calls its
/// handler (whatever that returns is dropped) and returns true; returns false
/// at once if no wanted message is there. `receive(h..., after(0ms, ...))`
/// with a yes-or-no answer, for draining a mailbox:
/// `while (receive_now([&](job& j) { take(j); })) {}`.
template <message_handler... H>
  requires(sizeof...(H) > 0)
bool receive_now(H&&... handlers);

}  // namespace rdv::proc

#include "after.ipp"  // the definitions of receive() and receive_now()
