#include "pending_reply.hpp"

#include "address.hpp"
#include "after.hpp"
#include "hangup_watch.hpp"
#include "notify.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <optional>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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
  // TODO(ch10.2, part 1 of 2): hold the client: be found under the request's id, and take the reply
  // Hint: The reply handler will find the held client by its id alone. Which chapter 4
  //   call makes a name lead to this process? (more: ./course hint 10 2)
  throw rdv::todo("ch10.2", "hold the client: be found under the request's id, and take the reply");
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
          // TODO(ch10.2, part 2 of 2): take the first reply for the id, and tell the worker so
          // Hint: A delivery is answered with a verdict to d.from: true when this
          //   client takes it. When must the name go, so that a second reply cannot
          //   also be taken? (more: ./course hint 10 2)
          (void)d; (void)answer;
          throw rdv::todo("ch10.2", "take the first reply for the id, and tell the worker so");
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
          // TODO(ch10.3): notice a held client that leaves, and only that
          // Hint: Readable may mean the client left, or that it sent its next request:
          //   peek_client() tells which, without taking a byte. Which of the three
          //   things it can find ends the wait, and what must happen for the others?
          //   (more: ./course hint 10 3)
          (void)c; (void)&peek_client; (void)watch; (void)pipelined;
          throw rdv::todo("ch10.3", "notice a held client that leaves, and only that");
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
