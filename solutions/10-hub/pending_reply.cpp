#include "pending_reply.hpp"

#include "address.hpp"
#include "after.hpp"
#include "hangup_watch.hpp"
#include "notify.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <optional>

namespace rdv::hub {

using tcp = boost::asio::ip::tcp;

namespace {

//! [peek_client]
// Tags the wait for the client's socket to become readable with the hold
// it is for (16 of the id's random hex digits): a wait that a hold leaves
// armed completes during a later one, which must know it is not its own.
struct client_spoke {
  std::uint64_t hold;
};

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
pending_reply::pending_reply(std::string id, hub_stats& stats) : id_(std::move(id)), stats_(stats) {
  // EXERCISE ch10.2: hold the client: be found under the request's id, and take the reply
  // HINT: The reply handler will find the held client by its id alone.
  //       Which chapter 4 call makes a name lead to this process?
  // HINT: forget() undoes this: what must it find in registered_ and in
  //       stats_.pending?
  proc::register_name(id_, proc::self());
  registered_ = true;
  ++stats_.pending;
  // END EXERCISE
}
//! [register]

pending_reply::~pending_reply() { forget(); }

//! [forget]
void pending_reply::forget() {
  if (!registered_) return;
  proc::unregister_name(id_);
  registered_ = false;
  --stats_.pending;
  // No delivery for the id can come now (the name is gone); refuse those that came.
  while (proc::receive_now([](const delivery& d) { proc::send(d.from, verdict{false}); })) {}
}
//! [forget]

//! [wait]
hold_end pending_reply::wait(tcp::socket& client, clock::time_point deadline, web::response& answer,
                             forward_attempts* forward) {
  // The client's socket becomes readable when the client leaves, or sends
  // its next request; notify() turns that into a message to this process.
  // The watch's tag: 16 of the id's random digits, its last 32 (chapter 11
  // puts its hub's name before them).
  const client_spoke mine{std::stoull(id_.substr(id_.size() - 32, 16), nullptr, 16)};
  const auto watch = [&] {
    client.async_wait(tcp::socket::wait_read, proc::notify(proc::self(), mine));
  };
  watch();
  std::optional<hold_end> end;
  bool pipelined = false;  // the client's next request is here: the hang-up watch took over
  if (forward && forward->ask_next(deadline) == forward_attempts::state::refused) {
    end = hold_end::refused;
  }
  while (!end) {
    proc::receive(
        [&](delivery& d) {
          // EXERCISE ch10.2, part 2: take the first reply for the id, and tell the worker so
          // HINT: A delivery is answered with a verdict to d.from: true when
          //       this client takes it. When must the name go, so that a
          //       second reply cannot also be taken?
          // HINT: A worker may answer before the backend has (the forward is
          //       still pending): the reply is no less the client's answer.
          // STUB: (void)d; (void)answer;
          if (d.id != id_) return void(proc::send(d.from, verdict{false}));  // not ours (never)
          answer = std::move(d.answer);
          forget();  // from now on, other replies for the id get 404
          proc::send(d.from, verdict{true});
          end = hold_end::replied;
          // END EXERCISE
        },
        [&](const connection_pool::done& d) {
          if (!forward) return;  // nothing forwarded here: not ours
          switch (forward->answered(d, deadline)) {
          case forward_attempts::state::accepted: ++stats_.forwarded; break;
          case forward_attempts::state::refused: end = hold_end::refused; break;
          case forward_attempts::state::pending: break;  // the next backend's turn, or stale news
          }
        },
        [&](const proc::completed<client_spoke>& c) {
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
          // STUB: (void)c; (void)&peek_client; (void)watch; (void)pipelined;
          if (c.tag.hold != mine.hold) return;  // an earlier hold's wait: stale news
          switch (c.error ? peeked::left : peek_client(client)) {
          case peeked::left: end = hold_end::client_gone; break;
          case peeked::nothing: watch(); break;
          case peeked::more_requests:  // still there; its next request waits its turn
            proc::scheduler::current().use<hangup_watch>().watch(client, mine.hold);
            pipelined = true;
            break;
          }
          // END EXERCISE
        },
        [&](const hung_up& h) {
          if (h.tag == mine.hold) end = hold_end::client_gone;  // it pipelined, then left
        },
        proc::after(
            std::min(deadline, forward ? forward->backend_deadline() : deadline) - clock::now(),
            [&] {
              if (clock::now() >= deadline) {
                end = hold_end::timed_out;
              } else if (forward->backend_timed_out(deadline) == forward_attempts::state::refused) {
                end = hold_end::refused;  // every backend was asked, none answered in time
              }
            }));
  }
  if (end == hold_end::replied && forward && forward->where() == forward_attempts::state::pending) {
    ++stats_.forwarded;  // a worker answered before the backend did: a backend had the job
  }
  if (pipelined) proc::scheduler::current().use<hangup_watch>().forget(client);
  // The wait may stay armed: it completes when the client sends its next
  // request (or leaves), and the hold then (if any) drops it as stale.
  forget();
  return *end;
}
//! [wait]

}  // namespace rdv::hub
