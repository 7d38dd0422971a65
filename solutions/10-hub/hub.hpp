#pragma once
/// \file
/// Chapter 10: the hub — the front port's handler, which forwards each
/// request and holds its client, and the reply port's handler, which hands
/// workers' replies to the held clients.

#include "connection_pool.hpp"
#include "hold.hpp"
#include "hub_link.hpp"
#include "hub_stats.hpp"
#include "request_id.hpp"
#include "web.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace rdv::hub {

/// How a hub is set up: the protocol's flags, and its own addresses.
struct hub_options {
  /// Where requests are forwarded, in turn (round robin).
  std::vector<boost::asio::ip::tcp::endpoint> backends;
  /// How long a client is held at most (`--timeout-ms`).
  std::chrono::milliseconds timeout{5000};
  /// How long a backend may take to answer a forward before the next one is
  /// asked (`--backend-timeout-ms`; never more than half the client's time).
  std::chrono::milliseconds backend_timeout{1000};
  /// How long a client is held before its process gives back the pages of
  /// its stack that the wait does not use (`--trim-after-ms`).
  std::chrono::milliseconds trim_after{1000};
  /// How many clients may be held at once; more get 503 (`--max-pending`).
  std::size_t max_pending = 10000;
  /// If not empty, replies need `Authorization: Bearer <reply_token>`.
  std::string reply_token;
  /// The reply listener's URL up to the id: `http://HOST:PORT/reply/`.
  std::string reply_to;
  /// The front listener's `HOST:PORT`: the Host of a request that has none.
  std::string front_host;
  /// What joins this hub to others (chapter 11); none for a lone hub. Its
  /// ids then begin with link->hub_name(), and a reply for another hub's
  /// id goes to link->route().
  hub_link* link = nullptr;
};

/// The hub's state and its two handlers. Both run in connection processes of
/// one scheduler, so they share this object on one thread, without a lock.
class hub {
public:
  /// A hub set up as `options` says.
  explicit hub(hub_options options);

  /// Handles a client's request on the front port: forwards it to a backend,
  /// then holds the client until the reply, the timeout, or its leaving.
  web::response front(web::request& r);
  /// Handles a request on the reply port: `POST /reply/<id>` and `GET /stats`.
  web::response reply(web::request& r);

  /// Hands `answer`, a valid reply for `id`, one of this hub's own ids, to
  /// the client held under it, and returns the verdict: not_waiting (the
  /// worker gets 404) is counted as a late reply. reply() calls it for the
  /// replies posted here; chapter 11's link, for those that reached another
  /// hub. Call it in a process.
  verdict hand_over(const request_id& id, web::response answer);

  /// The counters.
  const hub_stats& stats() const { return stats_; }

private:
  web::response take_reply(web::request& r);
  web::response answer(hold_end end, hold& held);

  hub_options options_;
  hub_stats stats_;
  id_source ids_;
  connection_pool backends_;
  std::size_t next_backend_ = 0;  // round robin: the first backend a forward asks
};

}  // namespace rdv::hub
