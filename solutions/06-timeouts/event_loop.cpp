#include "event_loop.hpp"

#include <boost/asio/post.hpp>

#include <stdexcept>

namespace rdv::proc {

//! [attach]
void event_loop::attach(boost::asio::io_context& io) {
  io_ = &io;
  node_.on_runnable([this] {
    if (!running_now_) boost::asio::post(*io_, [this] { node_.run(); });
  });
  boost::asio::post(io, [this] { node_.run(); });  // for processes spawned before
}
//! [attach]

boost::asio::io_context& event_loop::context() const {
  if (io_ == nullptr) {
    throw std::logic_error("rdv::proc: this needs the scheduler to run in an io_context; call "
                           "rdv::proc::run_in(io, node) first");
  }
  return *io_;
}

//! [resume]
void event_loop::resume(wait_ticket ticket) {
  if (node_.in_process()) {  // it completed at once, before the process began to wait
    node_.wake(ticket);
    return;
  }
  running_now_ = true;  // the process becomes runnable: no need to post a run, ...
  const bool woken = node_.wake(ticket);
  running_now_ = false;
  if (woken) node_.run();  // ... we run it here
}
//! [resume]

void run_in(boost::asio::io_context& io, scheduler& node) { node.use<event_loop>().attach(io); }

boost::asio::io_context& current_io_context() {
  return scheduler::current().use<event_loop>().context();
}

}  // namespace rdv::proc
