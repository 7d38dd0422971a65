// The scheduler's templates: spawn() and the life of a process, send(), and
// use(). Included by scheduler.hpp; not part of the API reference, which
// documents their declarations there.
#pragma once

#include "scheduler.hpp"

#include <stdexcept>
#include <type_traits>
#include <utility>

namespace rdv::proc {

//! [spawn]
template <class F>
pid scheduler::spawn(F&& body) {
  static_assert(std::is_invocable_v<std::decay_t<F>&>, "spawn() takes a function of no arguments");
  if (shutting_down_) throw std::logic_error("rdv::proc: spawn() while the scheduler shuts down");
  process& p = table_.acquire();
  try {
    // EXERCISE ch03.3: give the new process a fiber on a pooled stack, and queue it to run
    // HINT: boost::context::fiber's constructor takes std::allocator_arg, a stack
    //       allocator and a function. Which member hands out pooled stacks?
    // HINT: The fiber's function is given the fiber that switched to it and returns
    //       the fiber to switch to when it ends; start() does all of that. What
    //       must your lambda capture to call it?
    // HINT: A new process runs when the scheduler gets to it. What puts it in line?
    // STUB: (void)body;
    p.context = boost::context::fiber(
        std::allocator_arg, stacks_.handle(),
        [this, &p, body = std::forward<F>(body)](boost::context::fiber&& from) mutable {
          return start(p, std::move(from), body);
        });
    make_runnable(p);
    // END EXERCISE
  } catch (...) {
    table_.release(p);
    throw;
  }
  return p.id;
}
//! [spawn]

//! [start]
// The whole life of a process, on its own stack.
template <class F>
boost::context::fiber scheduler::start(process& p, boost::context::fiber&& from, F& body) {
  if (shutting_down_) return std::move(from);  // destroyed before it ever ran
  arrived(std::move(from));
  return finish(p, run_body(body));
}

template <class F>
exit_reason scheduler::run_body(F& body) {
  try {
    auto own = std::move(body);  // so that what it captured dies when it ends
    own();
    return {};
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // the scheduler is being destroyed: Boost.Context unwinds this stack
  } catch (...) {
    return exit_reason::from(std::current_exception());
  }
}
//! [start]

//! [send]
template <class M>
bool scheduler::send(pid to, M&& message) {
  ++sends_;
  process* p = table_.find(to);
  if (p == nullptr || shutting_down_) return false;
  p->inbox.push(make_letter(messages_, std::forward<M>(message)));
  if (p->state == process_state::waiting_message || p->state == process_state::waiting_either) {
    make_runnable(*p);
  }
  return true;
}
//! [send]

template <class E>
E& scheduler::use() {
  static_assert(std::is_base_of_v<extension, E>, "use<E>() needs E derived from extension");
  static constexpr char key = 0;  // one address per E
  for (auto& [k, e] : extensions_) {
    if (k == &key) return static_cast<E&>(*e);
  }
  auto made = std::make_unique<E>(*this);
  E& made_ref = *made;
  extensions_.emplace_back(&key, std::move(made));
  return made_ref;
}

}  // namespace rdv::proc
