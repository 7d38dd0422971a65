// The definitions of use_process.hpp: how an Asio operation suspends and
// resumes a process. Included by use_process.hpp.
#pragma once

#include "use_process.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <utility>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::proc::detail {

//! [handler]
template <class... Values>
template <class... Results>
void process_handler<Values...>::operator()(Results&&... results) {
  // TODO(ch06.2, part 2 of 2): hand the operation's results to the waiting process, and let it run
  // Hint: The process waits in initiate() below (part 1), with `done` on its stack.
  //   Where do the results go so that it finds them when it resumes? (more:
  //   ./course hint 06 2)
  ((void)results, ...);
  throw rdv::todo("ch06.2", "hand the operation's results to the waiting process, and let it run");
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
  // TODO(ch06.2, part 1 of 2): start the operation with a handler that wakes this process, and wait
  // Hint: Everything the operation needs can live on this process's stack, because the
  //   process waits here until the handler has run: the results' slot is an
  //   rdv::proc::detail::completion (use_process.hpp; spell it out: inside boost::asio,
  //   detail:: alone is Asio's own). Which wait_ticket says which wait the handler may
  //   end? (more: ./course hint 06 2)
  (void)initiation; (void)token; ((void)args, ...); (void)node; (void)loop;
  throw rdv::todo("ch06.2", "start the operation with a handler that wakes this process, and wait");
}
//! [initiate]
