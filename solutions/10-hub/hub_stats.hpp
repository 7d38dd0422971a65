#pragma once
/// \file
/// Chapter 10: what the hub counts, and the JSON that `GET /stats` returns.

#include <cstdint>
#include <string>

namespace rdv::hub {

// [hub_stats]
/// The hub's counters. Every process of the hub runs on one scheduler, so
/// on one thread: they share this object without a lock.
///
/// Each request that reaches the front handler ends as exactly one of
/// rejected, backend_errors, replied, timed_out or abandoned; `pending` is
/// how many have not ended yet. So, whenever the hub is idle,
/// forwarded = replied + timed_out + abandoned, less the requests whose
/// deadline passed while they were being forwarded (504, never forwarded).
struct hub_stats {
  std::uint64_t pending = 0;         ///< clients held now (forwarding or waiting)
  std::uint64_t forwarded = 0;       ///< requests a backend accepted (2xx)
  std::uint64_t replied = 0;         ///< clients answered with a worker's reply
  std::uint64_t timed_out = 0;       ///< clients answered 504
  std::uint64_t backend_errors = 0;  ///< clients answered 502
  std::uint64_t rejected = 0;        ///< clients answered 503 (too many held)
  std::uint64_t late_replies = 0;    ///< replies answered 404: nobody waits under that id
  std::uint64_t abandoned = 0;       ///< clients that left while held
  std::uint64_t trimmed = 0;         ///< holds that gave back their stack's unused pages
};
// [hub_stats]

class hub_link;

/// The counters as one JSON object, in the order the hub protocol lists them
/// (then `abandoned`, which this hub adds so that the counters add up, and
/// `trimmed`), and what `link`, if any, adds (chapter 11).
std::string to_json(const hub_stats& stats, const hub_link* link = nullptr);

}  // namespace rdv::hub
