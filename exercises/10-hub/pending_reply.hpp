#pragma once
/// \file
/// Chapter 10: a held client — the connection's process, registered under
/// the request's id, waiting for the worker's reply, its client's leaving,
/// or the deadline, whichever comes first.

#include "forward.hpp"
#include "hub_stats.hpp"
#include "processes.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <string>

namespace rdv::hub {

// [messages]
/// A worker's reply on its way to the held client: the reply handler sends
/// it to the process registered under `id`.
struct delivery {
  std::string id;        ///< the request the reply answers
  web::response answer;  ///< what the client is to get
  proc::pid from;        ///< the reply handler, waiting for a verdict
};

/// The held process's answer to a delivery: whether the reply goes to its
/// client (the worker gets 204) or not (404).
struct verdict {
  bool taken = false;  ///< true for the one delivery the process took
};
// [messages]

/// How a hold ended.
enum class hold_end {
  replied,      ///< a worker's reply arrived: it is the client's answer
  timed_out,    ///< the deadline passed first: the client gets 504
  refused,      ///< no backend took the request: the client gets 502
  client_gone,  ///< the client closed its connection first
};

/// A client held while the hub waits for the reply to its request: made in
/// the client's connection process, it registers that process under the
/// request's id, so that the reply handler finds it with `whereis`.
///
/// Only the first delivery for an id is taken. The process gives its name up
/// the moment it takes one (or stops waiting), and then refuses every other
/// delivery in its mailbox; no further one can come, because every reply
/// handler looks the name up and sends in one step, without a suspension in
/// between, and the name is gone.
class pending_reply {
public:
  /// The clock of deadlines.
  using clock = std::chrono::steady_clock;

  /// Registers the calling process as `id`, and counts it in stats.pending.
  pending_reply(std::string id, hub_stats& stats);
  /// Forgets the id, unless that is done.
  ~pending_reply();
  pending_reply(const pending_reply&) = delete;
  pending_reply& operator=(const pending_reply&) = delete;

  /// Sends the request on with `forward`, if given (counting in
  /// stats.forwarded the backend that takes it), and waits for the first of:
  /// a delivery for the id (replied; `answer` is the worker's response,
  /// whether or not the backend has answered), `deadline` (timed_out), no
  /// backend taking the request (refused), or the client leaving, even after
  /// pipelining its next request (client_gone). Forgets the id before it
  /// returns. Without a forward, the request went on its way some other way.
  hold_end wait(boost::asio::ip::tcp::socket& client, clock::time_point deadline,
                web::response& answer, forward_attempts* forward = nullptr);

  /// Stops answering to the id: gives the name up, and refuses each
  /// delivery that arrived for it. Does nothing the second time.
  void forget();

  /// The request's id.
  const std::string& id() const { return id_; }

private:
  std::string id_;
  hub_stats& stats_;
  bool registered_ = false;
};

}  // namespace rdv::hub
