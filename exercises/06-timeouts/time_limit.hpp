#pragma once
/// \file
/// Chapter 6: a time limit in the steady clock's own unit, as after() and
/// use_process.within() keep it, whatever unit it was given in.

#include <chrono>

namespace rdv::proc {

/// `limit` in steady_clock ticks, rounded up. A limit longer than the
/// clock's duration can hold, `hours::max()` say, is `duration::max()`,
/// which means for ever; one more negative than it can hold is its min().
/// (std::chrono::ceil alone would overflow, and turn "for ever" into a
/// time long past.)
template <class Rep, class Period>
constexpr std::chrono::steady_clock::duration
clock_limit(std::chrono::duration<Rep, Period> limit) {
  using ticks = std::chrono::steady_clock::duration;
  using exact = std::chrono::duration<long double, ticks::period>;  // does not overflow
  if (exact(limit) >= exact(ticks::max())) return ticks::max();
  if (exact(limit) <= exact(ticks::min())) return ticks::min();
  return std::chrono::ceil<ticks>(limit);
}

}  // namespace rdv::proc
