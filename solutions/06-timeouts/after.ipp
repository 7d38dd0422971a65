// The definitions of receive() with a timeout and of receive_now(), declared
// in after.hpp.
#pragma once

#include "after.hpp"

namespace rdv::proc {

namespace detail {

template <class Clause, class... H, std::size_t... I>
auto receive_or_time_out(Clause& clause, std::tuple<H&...> handlers, std::index_sequence<I...>) {
  using result =
      std::common_type_t<typename handler_traits<H>::result..., decltype(clause.on_timeout())>;
  static constexpr const message_type* wanted[] = {&message_type_of<message_of<H>>...};
  scheduler& node = scheduler::current();
  envelope* e = receive_within(node, wanted, clause.limit);
  if (e == nullptr) return static_cast<result>(clause.on_timeout());
  return dispatch<result>(e, node.messages(), std::get<I>(handlers)...);
}

template <class Tuple, std::size_t... I>
auto all_but_last(Tuple&& arguments, std::index_sequence<I...>) {
  return std::tie(std::get<I>(arguments)...);
}

// `handler`, answering true once it has taken its message.
template <class H>
auto taking(H& handler) {
  using argument = typename handler_traits<H>::argument;
  return [&handler](argument message) {
    handler(std::forward<argument>(message));
    return true;
  };
}

}  // namespace detail

//! [receive]
template <class... A>
  requires(sizeof...(A) >= 2 && is_timeout_clause<last_of<A...>>)
auto receive(A&&... arguments) {
  auto all = std::forward_as_tuple(arguments...);
  constexpr std::size_t handlers = sizeof...(A) - 1;
  auto& clause = std::get<handlers>(all);
  return detail::receive_or_time_out(
      clause, detail::all_but_last(all, std::make_index_sequence<handlers>()),
      std::make_index_sequence<handlers>());
}
//! [receive]

template <message_handler... H>
  requires(sizeof...(H) > 0)
bool receive_now(H&&... handlers) {
  return receive(detail::taking(handlers)...,
                 after(std::chrono::steady_clock::duration::zero(), [] { return false; }));
}

}  // namespace rdv::proc
