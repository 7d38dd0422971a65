#pragma once
/// \file
/// The completion token that lets a process call an Asio operation as if it
/// blocked: the process waits, the other processes and handlers run, and the
/// call returns the operation's result when it completes.

#include "alarm_clock.hpp"
#include "event_loop.hpp"
#include "time_limit.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <optional>
#include <tuple>

namespace rdv::proc {

/// The type of use_process, a completion token for Asio operations started by
/// a process.
///
/// With it, `n = socket.async_read_some(buffer, use_process)` suspends the
/// calling process until the read completes, then returns the byte count; an
/// error is thrown as boost::system::system_error, unless the token says
/// where to put it: `use_process[ec]`. `use_process.within(5s)` also cancels
/// the operation if it has not completed in five seconds, and it then fails
/// with boost::asio::error::timed_out.
class use_process_t {
public:
  /// The plain token: errors are thrown, no time limit.
  constexpr use_process_t() = default;

  /// The same token, with the operation's error stored in `ec` instead of thrown.
  constexpr use_process_t operator[](boost::system::error_code& ec) const noexcept {
    use_process_t token = *this;
    token.error_ = &ec;
    return token;
  }
  /// The same token, with the operation cancelled after `limit` if it has not
  /// completed by then.
  template <class Rep, class Period>
  constexpr use_process_t within(std::chrono::duration<Rep, Period> limit) const {
    use_process_t token = *this;
    token.limit_ = clock_limit(limit);
    return token;
  }

  /// Where the error goes (nullptr: it is thrown).
  boost::system::error_code* error_out() const noexcept { return error_; }
  /// How long the operation may take (none: as long as it takes).
  std::optional<std::chrono::steady_clock::duration> limit() const noexcept { return limit_; }

private:
  boost::system::error_code* error_ = nullptr;
  std::optional<std::chrono::steady_clock::duration> limit_;
};

/// Suspends the calling process until an Asio operation completes, and returns
/// its result: `auto n = socket.async_read_some(buffer, rdv::proc::use_process);`
inline constexpr use_process_t use_process{};

/// \cond
namespace detail {

// What a waiting process needs to find when it resumes: the values the
// operation completed with, and with within(), how to cancel it and whether
// the deadline did. Lives on the waiting process's stack.
template <class... Values>
struct completion {
  std::optional<std::tuple<Values...>> values;
  std::optional<boost::asio::cancellation_signal> cancel;  // only with within()
  bool timed_out = false;
};

// The completion handler: small, copied into the operation, with no pointer
// into the process that it may use after the process has moved on.
template <class... Values>
class process_handler {
public:
  using cancellation_slot_type = boost::asio::cancellation_slot;

  process_handler(completion<Values...>& done, event_loop& loop, wait_ticket ticket) noexcept
      : done_(&done), loop_(&loop), ticket_(ticket) {}

  // Asio asks for the slot through which the operation can be cancelled.
  cancellation_slot_type get_cancellation_slot() const noexcept {
    return done_->cancel ? done_->cancel->slot() : cancellation_slot_type();
  }

  template <class... Results>
  void operator()(Results&&... results);

private:
  completion<Values...>* done_;
  event_loop* loop_;
  wait_ticket ticket_;
};

// The deadline of within(): an alarm on the scheduler's clock that cancels
// the operation, if it still runs. Lives on the waiting process's stack.
class on_deadline : public alarm_clock::alarm {
public:
  on_deadline(scheduler& node, wait_ticket ticket, boost::asio::cancellation_signal& cancel,
              bool& timed_out)
      : alarm(node.use<alarm_clock>()), node_(node), ticket_(ticket), cancel_(cancel),
        timed_out_(timed_out) {}

private:
  void ring() override;

  scheduler& node_;
  wait_ticket ticket_;
  boost::asio::cancellation_signal& cancel_;
  bool& timed_out_;
};

// What the caller gets for completion values `Values...`: nothing, one value,
// or a tuple; a leading error_code is reported apart.
template <class... Values>
struct call_result {
  static constexpr bool has_error = false;
  using type = std::tuple<Values...>;
};
template <>
struct call_result<> {
  static constexpr bool has_error = false;
  using type = void;
};
template <class Value>
struct call_result<Value> {
  static constexpr bool has_error = false;
  using type = Value;
};
template <class... Values>
struct call_result<boost::system::error_code, Values...> : call_result<Values...> {
  static constexpr bool has_error = true;
};
template <>
struct call_result<boost::system::error_code> : call_result<> {
  static constexpr bool has_error = true;
};

}  // namespace detail
/// \endcond

}  // namespace rdv::proc

/// \cond
template <class... Args>
class boost::asio::async_result<rdv::proc::use_process_t, void(Args...)> {
public:
  using return_type = typename rdv::proc::detail::call_result<std::decay_t<Args>...>::type;

  template <class Initiation, class RawToken, class... InitArgs>
  static return_type initiate(Initiation&& initiation, RawToken&& token, InitArgs&&... args);
};
/// \endcond

#include "use_process.ipp"  // the definitions
