#include "hold.hpp"

#include "address.hpp"
#include "after.hpp"
#include "hangup_watch.hpp"
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::hub {

using tcp = boost::asio::ip::tcp;

//! [register]
hold::hold(request_id id, tcp::socket& client, hub_stats& stats,
           std::chrono::milliseconds trim_after, std::function<void()> release_buffer)
    : id_(std::move(id)), client_(client), stats_(stats), trim_after_(trim_after),
      release_buffer_(std::move(release_buffer)) {
  // TODO(ch10.2, part 1 of 2): hold the client: be found under the request's id, and take the reply
  // Hint: The reply handler will find the held client by its id alone. Which chapter 4
  //   call makes a name lead to this process? (more: ./course hint 10 2)
  throw rdv::todo("ch10.2", "hold the client: be found under the request's id, and take the reply");
}
//! [register]

hold::~hold() {
  forget();
  unwatch_client();
}

//! [forget]
void hold::forget() {
  if (!registered_) return;
  proc::unregister_name(id_.text());
  registered_ = false;
  --stats_.pending;
  // No delivery for the id can come now (the name is gone); refuse those that came.
  while (proc::receive_now([](delivery& d) { proc::answer(d.from, verdict::not_waiting); })) {}
}
//! [forget]

//! [wait]
hold_end hold::wait(clock::time_point deadline, forward_attempts* forward) {
  deadline_ = deadline;
  trim_at_ = clock::now() + trim_after_;
  forward_ = forward;
  watch_ = &proc::scheduler::current().use<hangup_watch>();
  watch_->watch(client_, tag_);
  if (forward_) note(forward_->ask_next(deadline_));
  while (!end_) {
    alarm_.set(next_alarm());
    proc::receive([this](delivery& d) { take(d); },
                  proc::on_reply<exchange_result>(
                      forward_ ? forward_->asking() : proc::ref{},
                      [this](exchange_result&& r) { note(forward_->answered(r, deadline_)); }),
                  [this](const hung_up& h) {
                    if (h.tag == tag_) end_ = hold_end::client_gone;
                  },
                  [this](const proc::rang& r) { rung(r); });
  }
  alarm_.clear();
  if (end_ == hold_end::replied && forward_ && forward_->taken()) {
    ++stats_.forwarded;  // a worker answered before the backend did: a backend had the job
  }
  unwatch_client();
  forget();
  return *end_;
}
//! [wait]

//! [take]
void hold::take(delivery& d) {
  // TODO(ch10.2, part 2 of 2): take the first reply for the id, and tell the worker so
  // Hint: A delivery is a call (chapter 6): answer it with a verdict. A second reply
  //   for the id may come before the name is gone, or wait in the mailbox: what ends
  //   the loop, and who refuses it? (more: ./course hint 10 2)
  (void)d; (void)answer_;
  throw rdv::todo("ch10.2", "take the first reply for the id, and tell the worker so");
}
//! [take]

void hold::unwatch_client() noexcept {
  if (watch_) watch_->unwatch(client_);
  watch_ = nullptr;
}

// What the forward's news means: a backend took the request (counted), or
// refused it, or none is left to ask (the client gets 502).
void hold::note(forward_attempts::state forward) {
  if (forward == forward_attempts::state::accepted) ++stats_.forwarded;
  if (forward == forward_attempts::state::refused) end_ = hold_end::refused;
}

// The alarm rang: unless it is an earlier hold's (stale news), look at the
// clock; but a reply that came as it rang wins, as in chapter 6's race.
void hold::rung(const proc::rang& r) {
  if (!(r.tag == tag_)) return;
  proc::receive_now([this](delivery& d) { take(d); });
  if (!end_) alarm();
}

//! [alarm]
// When the hold must look at the clock: the deadline, or before it the end
// of the time of the backend being asked, or the time to trim the stack.
hold::clock::time_point hold::next_alarm() const {
  const auto backend = forward_ ? forward_->backend_deadline() : clock::time_point::max();
  return std::min({deadline_, backend, trim_at_});
}

void hold::alarm() {
  const auto now = clock::now();
  if (now >= deadline_) {
    end_ = hold_end::timed_out;
  } else if (forward_ && now >= forward_->backend_deadline()) {
    note(forward_->backend_timed_out(deadline_));  // the next backend's turn, if any is left
  } else if (now >= trim_at_) {
    // A long wait: the frames below this one are dead until the reply
    // comes, and the connection's buffer is larger than the request in it.
    trim_at_ = clock::time_point::max();
    if (proc::scheduler::current().trim_stack() > 0) ++stats_.trimmed;
    if (release_buffer_) release_buffer_();
  }
}
//! [alarm]

web::response worker_answer(verdict v) {
  if (v == verdict::not_waiting) {
    return web::text_response(404, "no client waits under that id: unknown, answered already, "
                                   "timed out, or gone\n");
  }
  web::response taken;
  taken.status = 204;  // and no body
  return taken;
}

}  // namespace rdv::hub
