// The definitions of use_process.hpp: how an Asio operation suspends and
// resumes a process. Included by use_process.hpp.
#pragma once

#include "use_process.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <utility>

namespace rdv::proc::detail {

//! [handler]
template <class... Values>
template <class... Results>
void process_handler<Values...>::operator()(Results&&... results) {
  // EXERCISE ch06.2, part 2: hand the operation's results to the waiting process, and let it run
  // HINT: The process waits in initiate() below (part 1), with `done` on its
  //       stack. Where do the results go so that it finds them when it resumes?
  // HINT: The ticket says which wait to end. Which member of the event loop ends
  //       it and runs the scheduler, without posting anything?
  // STUB: ((void)results, ...);
  done_->values.emplace(std::forward<Results>(results)...);
  loop_->resume(ticket_);
  // END EXERCISE
}
//! [handler]

//! [deadline]
inline void on_deadline::ring() {
  // The alarm is cleared when the wait ends, so it rings only while the
  // process waits for this operation; the ticket makes sure of it.
  if (!node_.holds(ticket_)) return;
  timed_out_ = true;
  cancel_.emit(boost::asio::cancellation_type::terminal);
}
//! [deadline]

// The results of the operation, as the caller gets them.
template <std::size_t... I, class... Values>
auto values_after_error(std::index_sequence<I...>, std::tuple<Values...>& values) {
  using result = typename call_result<Values...>::type;
  if constexpr (sizeof...(I) == 0) {
    return;
  } else if constexpr (sizeof...(I) == 1) {
    return result(std::move(std::get<(I + 1)...>(values)));
  } else {
    return result(std::move(std::get<I + 1>(values))...);
  }
}

template <class... Values>
typename call_result<Values...>::type take(std::tuple<Values...>& values,
                                           const use_process_t& token, bool timed_out) {
  if constexpr (call_result<Values...>::has_error) {
    boost::system::error_code ec = std::get<0>(values);
    if (timed_out && ec == boost::asio::error::operation_aborted)
      ec = boost::asio::error::timed_out;
    if (token.error_out() != nullptr) {
      *token.error_out() = ec;
    } else if (ec) {
      throw boost::system::system_error(ec);
    }
    return values_after_error(std::make_index_sequence<sizeof...(Values) - 1>(), values);
  } else if constexpr (sizeof...(Values) == 1) {
    return std::move(std::get<0>(values));
  } else if constexpr (sizeof...(Values) > 1) {
    return std::move(values);
  }
}

}  // namespace rdv::proc::detail

//! [initiate]
template <class... Args>
template <class Initiation, class RawToken, class... InitArgs>
auto boost::asio::async_result<rdv::proc::use_process_t, void(Args...)>::initiate(
    Initiation&& initiation, RawToken&& token, InitArgs&&... args) -> return_type {
  using namespace rdv::proc;
  scheduler& node = scheduler::current();
  event_loop& loop = node.use<event_loop>();
  // EXERCISE ch06.2: start the operation with a handler that wakes this process, and wait
  // HINT: Everything the operation needs can live on this process's stack,
  //       because the process waits here until the handler has run: the
  //       results' slot is an rdv::proc::detail::completion (use_process.hpp;
  //       spell it out: inside boost::asio, detail:: alone is Asio's own).
  //       Which wait_ticket says which wait the handler may end?
  // HINT: `initiation` starts the operation; give it the handler first, then
  //       `args`. What does the process do next, and what must it give back
  //       once the wait is over, so that a late wake-up finds nobody?
  // HINT: With a time limit (token.limit()), an alarm on the scheduler's
  //       clock (on_deadline) rings at the deadline and cancels the operation
  //       through done.cancel. What must happen to the alarm when the
  //       operation wins, before this frame is gone?
  // STUB: (void)initiation; (void)token; ((void)args, ...); (void)node; (void)loop;
  rdv::proc::detail::completion<std::decay_t<Args>...> done;
  const wait_ticket ticket = node.ticket();  // throws unless the caller is a process
  std::optional<rdv::proc::detail::on_deadline> deadline;
  if (const auto limit = token.limit()) {
    done.cancel.emplace();
    deadline.emplace(node, ticket, *done.cancel, done.timed_out);
    deadline->set_after(*limit);
  }
  std::move(initiation)(
      rdv::proc::detail::process_handler<std::decay_t<Args>...>(done, loop, ticket),
      std::forward<InitArgs>(args)...);
  node.wait(wake_on::ticket);  // the other processes and handlers run meanwhile
  node.retire(ticket);
  if (deadline) deadline->clear();
  return rdv::proc::detail::take(*done.values, token, done.timed_out);
  // END EXERCISE
}
//! [initiate]
