#include "hold.hpp"

#include "address.hpp"
#include "after.hpp"
#include "hangup_watch.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace rdv::hub {

using tcp = boost::asio::ip::tcp;

namespace {

//! [peek_client]
// What a client's readable socket says.
enum class peeked { left, more_requests, nothing };

// Looks at the client's socket without taking anything from it: an end of
// stream or an error means the client left; bytes are its next (pipelined)
// request, so it is still there; nothing at all was a false alarm.
peeked peek_client(tcp::socket& client) {
  char byte;
  const ssize_t n = ::recv(client.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0) return peeked::more_requests;
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return peeked::nothing;
  return peeked::left;  // 0: end of stream; or ECONNRESET and the like
}
//! [peek_client]

}  // namespace

//! [register]
hold::hold(request_id id, tcp::socket& client, hub_stats& stats,
           std::chrono::milliseconds trim_after, std::function<void()> release_buffer)
    : id_(std::move(id)), client_(client), stats_(stats), trim_after_(trim_after),
      release_buffer_(std::move(release_buffer)) {
  // EXERCISE ch10.2: hold the client: be found under the request's id, and take the reply
  // HINT: The reply handler will find the held client by its id alone.
  //       Which chapter 4 call makes a name lead to this process?
  // HINT: forget() undoes this: what must it find in registered_ and in
  //       stats_.pending?
  proc::register_name(std::string(id_.text()), proc::self());
  registered_ = true;
  ++stats_.pending;
  // END EXERCISE
}
//! [register]

hold::~hold() { forget(); }

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
  watch_client();
  if (forward_) note(forward_->ask_next(deadline_));
  while (!end_) {
    alarm_.set(next_alarm());
    proc::receive([this](delivery& d) { take(d); },
                  proc::on_reply<exchange_result>(
                      forward_ ? forward_->asking() : proc::ref{},
                      [this](exchange_result&& r) { note(forward_->answered(r, deadline_)); }),
                  [this](const proc::completed<client_watch>& c) { client_readable(c); },
                  [this](const hung_up& h) {
                    if (h.tag == tag_) end_ = hold_end::client_gone;  // it pipelined, then left
                  },
                  [this](const proc::rang& r) { rung(r); });
  }
  alarm_.clear();
  if (end_ == hold_end::replied && forward_ && forward_->taken()) {
    ++stats_.forwarded;  // a worker answered before the backend did: a backend had the job
  }
  if (pipelined_) proc::scheduler::current().use<hangup_watch>().forget(client_);
  // The socket's wait may stay armed: it completes when the client sends its
  // next request (or leaves), and the hold then (if any) drops it as stale.
  forget();
  return *end_;
}
//! [wait]

//! [take]
void hold::take(delivery& d) {
  // EXERCISE ch10.2, part 2: take the first reply for the id, and tell the worker so
  // HINT: A delivery is a call (chapter 6): answer it with a verdict.
  //       When must the name go, so that a second reply cannot also be
  //       taken?
  // HINT: A worker may answer before the backend has (the forward is
  //       still pending): the reply is no less the client's answer.
  // STUB: (void)d; (void)answer_;
  if (d.id != id_) return proc::answer(d.from, verdict::not_waiting);  // not ours (never)
  answer_ = std::move(d.answer);
  forget();  // from now on, other replies for the id get 404
  proc::answer(d.from, verdict::taken);
  end_ = hold_end::replied;
  // END EXERCISE
}
//! [take]

//! [client_readable]
// The client's socket becomes readable when the client leaves, or sends its
// next request; notify() turns that into a message to this process.
void hold::watch_client() {
  client_.async_wait(tcp::socket::wait_read, proc::notify(proc::self(), client_watch{tag_}));
}

void hold::client_readable(const proc::completed<client_watch>& c) {
  // EXERCISE ch10.3: notice a held client that leaves, and only that
  // HINT: Readable may mean the client left, or that it sent its next
  //       request: peek_client() tells which, without taking a byte.
  //       Which of the three things it can find ends the wait, and
  //       what must happen for the others?
  // HINT: The socket's wait can outlive the hold (cancelling it would
  //       cost a round trip); its completion then arrives during a
  //       later hold of the same connection. What in the message
  //       tells a hold its own wait from a stale one?
  // HINT: A client whose next request waits unread keeps its socket
  //       readable: a wait for readability can no longer tell when it
  //       leaves. Who can (see hangup_watch)?
  // STUB: (void)c; (void)&peek_client; (void)pipelined_;
  if (!(c.tag.hold == tag_)) return;  // an earlier hold's wait: stale news
  switch (c.error ? peeked::left : peek_client(client_)) {
  case peeked::left: end_ = hold_end::client_gone; break;
  case peeked::nothing: watch_client(); break;
  case peeked::more_requests:  // still there; its next request waits its turn
    proc::scheduler::current().use<hangup_watch>().watch(client_, tag_);
    pipelined_ = true;
    break;
  }
  // END EXERCISE
}
//! [client_readable]

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
