#pragma once
/// \file
/// Chapter 10: the copy of a client's request that the hub sends a backend —
/// the same method, target, header fields and body, minus what belongs to
/// the client's connection only, plus the X-Hub-* fields that tell the
/// backend where the answer goes.

#include "connection_pool.hpp"
#include "http_fields.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace rdv::hub {

/// What the hub adds to a forwarded request.
struct forward_tags {
  std::string_view id;             ///< X-Hub-Request-Id: the request's id
  std::string_view reply_to;       ///< X-Hub-Reply-To up to the id: `http://HOST:PORT/reply/`
  std::chrono::milliseconds left;  ///< X-Hub-Deadline-Ms: how long the hub will wait
  boost::asio::ip::tcp::endpoint client;  ///< Forwarded: `for=` the client's address
  std::string_view host;                  ///< the Host field for a request without one (HTTP/1.0)
};

/// Whether the field `name` of a message with header fields `fields` is
/// hop-by-hop: it describes one connection and a proxy must not pass it on
/// (RFC 9110 §7.6.1). Those are Connection, every field that Connection
/// names, Keep-Alive, TE, Transfer-Encoding, Upgrade, Proxy-Authorization
/// and Proxy-Connection.
bool is_hop_by_hop(std::string_view name, const http::field_list& fields);

/// Whether the hub writes the field `name` itself, so that a client's (or a
/// worker's) own value must not pass: Content-Length (the hub frames bodies),
/// the X-Hub-* fields of the hub protocol (the book's appendix A1), and
/// Forwarded (clients connect to the hub itself: a client's own Forwarded
/// would let it pass for any address).
bool set_by_hub(std::string_view name);

/// Writes into `out` (after clearing it) the HTTP/1.1 request that forwards
/// `r` to a backend: r's method, target and end-to-end header fields, its
/// Host (`tags.host` if it has none), the X-Hub-* fields and `Forwarded` of
/// `tags`, and r's body framed by Content-Length when r framed one (even an
/// empty one); no Content-Length for a request that framed none.
void write_forward(const web::request& r, const forward_tags& tags, std::string& out);

/// A held request's forward, backend after backend: from the one the hub's
/// round gives, each backend at most once, until one answers. Each gets
/// `backend_timeout` to answer, and never more than half the time the
/// client has left, so that one silent backend cannot use up the client's
/// whole wait. The pool answers each attempt as a call (chapter 6): the
/// holding process takes the answer tagged asking(), among the other
/// messages it waits for, and hands it to answered().
class forward_attempts {
public:
  /// The clock of deadlines.
  using clock = std::chrono::steady_clock;
  /// Where the forward stands.
  enum class state {
    pending,   ///< a backend is being asked
    accepted,  ///< a backend answered 2xx: it has the job
    refused,   ///< a backend answered otherwise, or none could be reached in time
  };

  /// The forward of `request`, which stays valid while this lives, with
  /// `tags` (but `left`, written for each backend), to `backends` from
  /// `first` on, through `pool`.
  forward_attempts(connection_pool& pool,
                   const std::vector<boost::asio::ip::tcp::endpoint>& backends, std::size_t first,
                   const web::request& request, const forward_tags& tags,
                   std::chrono::milliseconds backend_timeout);

  /// Sends the forward to the next backend not asked yet, with the time
  /// the client has left until `deadline`; refused if every one was asked.
  state ask_next(clock::time_point deadline);
  /// The call whose answer is awaited: the attempt being made.
  proc::ref asking() const { return asking_; }
  /// What the pool's answer to asking() means: accepted, refused, or (a
  /// failure to reach the backend) the next one asked.
  state answered(const exchange_result& result, clock::time_point deadline);
  /// The backend being asked has had its time: the next one is asked.
  state backend_timed_out(clock::time_point deadline) { return ask_next(deadline); }
  /// When the backend being asked has had its time; clock::time_point::max()
  /// when none is being asked.
  clock::time_point backend_deadline() const { return backend_deadline_; }
  /// Where the forward stands now.
  state where() const { return state_; }
  /// A worker's reply came before the backend's answer: the backend being
  /// asked has the job. True if that is news (the forward was pending).
  bool taken();

private:
  connection_pool& pool_;
  const std::vector<boost::asio::ip::tcp::endpoint>& backends_;
  std::size_t next_;  // the next backend to ask, modulo their number
  std::size_t asked_ = 0;
  const web::request& request_;
  forward_tags tags_;
  std::chrono::milliseconds backend_timeout_;
  proc::ref asking_;
  clock::time_point backend_deadline_ = clock::time_point::max();
  state state_ = state::pending;
};

}  // namespace rdv::hub
