#pragma once
/// \file
/// Chapter 11: the link that joins a hub to the other hubs on a NATS bus —
/// ids that name their hub, and replies routed to the hub that holds the
/// client, which answers with its verdict.

#include "call.hpp"
#include "hub.hpp"
#include "hub_link.hpp"
#include "nats_connection.hpp"
#include "processes.hpp"
#include "request_id.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rdv::hubs {

/// A name for a hub that was given none: 8 random lowercase hex digits.
std::string random_hub_id();

/// The subject on which a hub takes the replies that reached other hubs:
/// rdv.hub.NAME, NAME being `hub_id`.
std::string hub_subject(std::string_view hub_id);

/// A reply on its way to the hub that holds its client: the id, and the
/// worker's response as the client is to get it.
struct routed_reply {
  hub::request_id id;      ///< the request id, with its hub's name
  web::response response;  ///< the response for the client
};

/// The message that carries `reply` over the bus: the id on a line of its
/// own, then the response as a whole HTTP/1.1 message (message/http).
std::string encode(const routed_reply& reply);

/// Reads a message that encode() wrote; nothing if it is not one (a bus
/// carries what anyone on it publishes).
std::optional<routed_reply> decode(std::string_view message);

/// A verdict as the bus carries it: "204" (taken) or "404" (not waiting),
/// the statuses the worker gets.
std::string_view verdict_text(hub::verdict v);

/// The verdict `text` writes; nothing if it is none.
std::optional<hub::verdict> parse_verdict(std::string_view text);

/// The bus's counters, for `GET /stats`.
struct bus_stats {
  std::uint64_t routed_out = 0;      ///< replies sent to their hub, verdict received
  std::uint64_t routed_in = 0;       ///< replies that came from other hubs
  std::uint64_t route_failures = 0;  ///< replies answered 503: no bus, or no verdict in time
};

/// How long a routed reply waits for its verdict before the worker gets 503.
inline constexpr std::chrono::milliseconds verdict_patience{1000};

/// Joins one hub to the others on a NATS bus (chapter 10's extension point,
/// hub_link): the hub's ids begin with its name and a dot; a reply for an id
/// of another hub goes to that hub's subject as a NATS request, and the
/// other hub's verdict comes back as the answer, on a subject that ends
/// with a ticket nobody else on the bus can guess.
class bus_link final : public hub::hub_link {
public:
  /// A link for the hub named `hub_id`, over `bus`, whose processes run on
  /// `node`. Not listening yet: see start().
  bus_link(nats_connection& bus, proc::scheduler& node, std::string hub_id);

  /// Subscribes to this hub's subjects: from now on, replies routed here
  /// go to `local` (the hub that this link is the link of).
  void start(hub::hub& local);

  std::string_view hub_name() const override { return name_; }
  web::response route(const hub::request_id& id, web::response answer) override;
  void add_stats(boost::json::object& stats) const override;

private:
  void take_routed(const bus_message& message);
  void take_verdict(const bus_message& message);
  web::response answer_for(std::optional<hub::verdict> v);

  nats_connection& bus_;
  proc::scheduler& node_;
  std::string name_;
  hub::hub* local_ = nullptr;
  bus_stats stats_;
  hub::id_source tickets_;  // random, as request ids are: a verdict cannot be forged
  std::unordered_map<std::string, proc::caller> waiting_;  // ticket -> the routing call
};

}  // namespace rdv::hubs
