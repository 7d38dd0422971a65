#include "after.hpp"

#include <boost/asio/steady_timer.hpp>

namespace rdv::proc {

namespace {

// The timer's handler: a copy of the ticket, no pointer into the process.
struct on_timer {
  event_loop* loop;
  wait_ticket ticket;
  void operator()(boost::system::error_code ec) const {
    if (!ec) loop->resume(ticket);  // a stale ticket wakes nobody
  }
};

}  // namespace

//! [receive_within]
envelope* receive_within(scheduler& node, wanted_types wanted,
                         std::chrono::steady_clock::duration limit) {
  mailbox& box = node.own_mailbox();
  mailbox::cursor at = box.front();
  if (envelope* e = box.take(wanted, at)) return e;                          // no waiting, no timer
  if (limit <= std::chrono::steady_clock::duration::zero()) return nullptr;  // a poll
  // EXERCISE ch06.1: wait for a wanted message or the timer, whichever comes first
  // HINT: The timer needs the io_context (node.use<event_loop>()) and a handler
  //       that can wake this wait, and only this one: what does it keep?
  // HINT: Both can happen before this process runs again. If a wanted message is
  //       there when it does, which wins? Look at the mailbox before the clock.
  // HINT: The message won: what must happen to the timer, and to the ticket, so
  //       that nothing wakes this process later by mistake?
  // STUB: (void)wanted; (void)at; (void)limit;
  event_loop& loop = node.use<event_loop>();
  const wait_ticket ticket = node.ticket();
  boost::asio::steady_timer timer(loop.context(), limit);
  timer.async_wait(on_timer{&loop, ticket});
  for (;;) {
    const bool timer_fired = node.wait(wake_on::ticket_or_message);
    if (envelope* e = box.take(wanted, at)) {  // a message wins, even over a timer that fired
      node.retire(ticket);
      timer.cancel();
      return e;
    }
    if (timer_fired) {
      node.retire(ticket);
      return nullptr;
    }
  }
  // END EXERCISE
}
//! [receive_within]

}  // namespace rdv::proc
