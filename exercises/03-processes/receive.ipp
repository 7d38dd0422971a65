// The definitions of receive.hpp's templates, forced inline: see
// context_switch.ipp for why.
#pragma once

#include "receive.hpp"

#include <functional>
#include <type_traits>
#include <utility>

namespace rdv::proc {

namespace detail {

// Calls the first handler that takes `e`'s type, giving it the message
// (moved, unless it takes an lvalue reference), then frees the envelope.
template <class R, class H, class... Rest>
R dispatch(envelope* e, message_pool& pool, H& handler, Rest&... rest) {
  using M = message_of<H>;
  if (e->type == &message_type_of<M>) {
    envelope_owner owner(e, pool);
    using A = typename handler_traits<H>::argument;
    if constexpr (std::is_lvalue_reference_v<A>) {
      return static_cast<R>(std::invoke(handler, message_in<M>(e)));
    } else {
      return static_cast<R>(std::invoke(handler, std::move(message_in<M>(e))));
    }
  }
  if constexpr (sizeof...(Rest) > 0) {
    return dispatch<R>(e, pool, rest...);
  } else {
    __builtin_unreachable();  // receive() took a message only some handler takes
  }
}

}  // namespace detail

//! [receive]
template <message_handler... H>
  requires(sizeof...(H) > 0)
[[gnu::always_inline]] inline receive_result<H...> receive(H&&... handlers) {
  static constexpr const message_type* wanted[] = {&message_type_of<message_of<H>>...};
  scheduler& node = scheduler::current();
  envelope* e = node.receive(wanted);
  return detail::dispatch<receive_result<H...>>(e, node.messages(), handlers...);
}
//! [receive]

template <class M>
  requires(!message_handler<M>)
[[gnu::always_inline]] inline M receive() {
  return receive([](M&& message) { return std::move(message); });
}

}  // namespace rdv::proc
