#pragma once
/// \file
/// Selective receive: wait for the first message, in arrival order, that one
/// of the given handlers takes, and call that handler with it.

#include "message.hpp"
#include "scheduler.hpp"

#include <functional>
#include <type_traits>
#include <utility>

namespace rdv::proc {

/// \cond
namespace detail {

template <class S>
struct signature {};  // not a function of one parameter: not a handler
template <class C, class R, class A>
struct signature<R (C::*)(A)> {
  using argument = A;
  using result = R;
};
template <class C, class R, class A>
struct signature<R (C::*)(A) const> : signature<R (C::*)(A)> {};
template <class C, class R, class A>
struct signature<R (C::*)(A) noexcept> : signature<R (C::*)(A)> {};
template <class C, class R, class A>
struct signature<R (C::*)(A) const noexcept> : signature<R (C::*)(A)> {};
template <class R, class A>
struct signature<R (*)(A)> : signature<R (signature<void>::*)(A)> {};
template <class R, class A>
struct signature<R (*)(A) noexcept> : signature<R (*)(A)> {};

template <class F, class = void>
struct call_operator {
  using type = F;  // a function pointer
};
template <class F>
struct call_operator<F, std::void_t<decltype(&F::operator())>> {
  using type = decltype(&F::operator());
};

}  // namespace detail
/// \endcond

/// What a message handler takes and returns: a lambda or function object
/// with one parameter (not a template), or a function of one parameter.
/// Defines `argument` and `result` for those, nothing for anything else.
template <class F>
struct handler_traits : detail::signature<typename detail::call_operator<std::decay_t<F>>::type> {};

/// A callable that takes one message: its parameter's type says which.
template <class F>
concept message_handler = requires { typename handler_traits<F>::argument; };

/// The message type a handler takes: `int` for `[](const int&) {...}`.
template <class F>
using message_of = std::remove_cvref_t<typename handler_traits<F>::argument>;

/// What receive() returns with these handlers.
template <class... H>
using receive_result = std::common_type_t<typename handler_traits<H>::result...>;

/// Waits for the first message, in arrival order, that one of `handlers`
/// takes (a handler takes the messages of its parameter's type), removes it
/// from the mailbox and returns what that handler returns. Messages no
/// handler takes stay in the mailbox, in order, for a later receive.
template <message_handler... H>
  requires(sizeof...(H) > 0)
receive_result<H...> receive(H&&... handlers);

/// Waits for the first message of type `M` and returns it.
template <class M>
  requires(!message_handler<M>)
M receive();

}  // namespace rdv::proc

#include "receive.ipp"  // the definitions
