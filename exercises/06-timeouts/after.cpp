#include "after.hpp"

#include <boost/asio/steady_timer.hpp>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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
  // TODO(ch06.1): wait for a wanted message or the timer, whichever comes first
  // Hint: The timer needs the io_context (node.use<event_loop>()) and a handler that
  //   can wake this wait, and only this one: what does it keep? (more:
  //   ./course hint 06 1)
  (void)wanted; (void)at; (void)limit;
  throw rdv::todo("ch06.1", "wait for a wanted message or the timer, whichever comes first");
}
//! [receive_within]

}  // namespace rdv::proc
