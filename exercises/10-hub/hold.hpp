#pragma once
/// \file
/// Chapter 10: a held client — the connection's process, registered under
/// the request's id, waiting for the worker's reply, its client's leaving,
/// or the deadline, whichever comes first, while its forward finds a
/// backend.

#include "alarm_clock.hpp"
#include "call.hpp"
#include "forward.hpp"
#include "hub_stats.hpp"
#include "request_id.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <functional>
#include <optional>

namespace rdv::hub {

// [messages]
/// A worker's reply on its way to the held client: the reply handler calls
/// the process registered under `id` with it (chapter 6's call).
struct delivery {
  request_id id;         ///< the request the reply answers
  web::response answer;  ///< what the client is to get
  proc::caller from;     ///< the reply handler, waiting for a verdict
};

/// The held process's answer to a delivery: the worker gets 204 or 404.
enum class verdict {
  taken,        ///< the reply goes to the client: the one delivery the process took
  not_waiting,  ///< nobody waits under the id any more (or never did)
};
// [messages]

/// What the worker that posted a reply is told of its verdict: 204 No
/// Content when the client took it, 404 with a line saying why not.
web::response worker_answer(verdict v);

/// How a hold ended.
enum class hold_end {
  replied,      ///< a worker's reply arrived: it is the client's answer
  timed_out,    ///< the deadline passed first: the client gets 504
  refused,      ///< no backend took the request: the client gets 502
  client_gone,  ///< the client closed its connection first: the hub hangs up
};

class hangup_watch;

/// A client held while the hub waits for the reply to its request: made in
/// the client's connection process, it registers that process under the
/// request's id, so that the reply handler finds it with `whereis`.
///
/// Only the first delivery for an id is taken. The process gives its name up
/// the moment it takes one (or stops waiting), and then refuses every other
/// delivery in its mailbox; no further one can come, because every reply
/// handler looks the name up and sends in one step, without a suspension in
/// between, and the name is gone.
class hold {
public:
  /// The clock of deadlines.
  using clock = std::chrono::steady_clock;

  /// Registers the calling process as `id`, counted in stats.pending, for
  /// the client at the other end of `client`. Once the hold has waited
  /// `trim_after`, the process gives back the pages of its stack that the
  /// wait does not use (counted in stats.trimmed), and calls
  /// `release_buffer` (web::request's), if given.
  hold(request_id id, boost::asio::ip::tcp::socket& client, hub_stats& stats,
       std::chrono::milliseconds trim_after = std::chrono::seconds(1),
       std::function<void()> release_buffer = {});
  /// Forgets the id, unless that is done.
  ~hold();
  hold(const hold&) = delete;
  hold& operator=(const hold&) = delete;

  /// Waits for the first of: a delivery for the id (replied; answer() is
  /// the worker's response, whether or not a backend has answered),
  /// `deadline` (timed_out), `forward` refused by every backend (refused),
  /// or the client leaving, even after pipelining its next request
  /// (client_gone). Drives `forward`, if given, meanwhile; without one the
  /// request went on its way some other way. Forgets the id before it
  /// returns.
  hold_end wait(clock::time_point deadline, forward_attempts* forward = nullptr);

  /// Stops answering to the id: gives the name up, and refuses each
  /// delivery that arrived for it. Does nothing the second time.
  void forget();

  /// The request's id.
  const request_id& id() const { return id_; }
  /// The reply the hold took, once wait() has returned replied.
  web::response& answer() { return answer_; }

private:
  void take(delivery& d);
  void unwatch_client() noexcept;
  void note(forward_attempts::state forward);
  void rung(const proc::rang& r);
  clock::time_point next_alarm() const;
  void alarm();

  request_id id_;
  boost::asio::ip::tcp::socket& client_;
  hub_stats& stats_;
  proc::ref tag_ = proc::make_ref();  // tells this hold's news (its client, its alarm) from others'
  proc::alarm_clock::alarm alarm_{tag_};  // at next_alarm(): one timer for all, not one per hold
  bool registered_ = false;
  hangup_watch* watch_ = nullptr;  // while it tells this process if the client leaves
  clock::time_point deadline_{};
  std::chrono::milliseconds trim_after_;
  std::function<void()> release_buffer_;
  clock::time_point trim_at_ = clock::time_point::max();  // max once trimmed
  forward_attempts* forward_ = nullptr;
  std::optional<hold_end> end_;
  web::response answer_;
};

}  // namespace rdv::hub
