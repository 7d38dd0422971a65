#pragma once
/// \file
/// Chapter 10's seam for chapter 11: what joins a hub to other hubs. A lone
/// hub has no link. Chapter 11's hubs each have one, which reaches the
/// others over NATS; this chapter only says where the hub asks it.

#include "request_id.hpp"
#include "web.hpp"

#include <boost/json/object.hpp>

#include <string_view>

namespace rdv::hub {

// [hub_link]
/// How a hub reaches the other hubs it is joined to. The hub calls it from
/// its handlers, in their processes, on its one thread.
class hub_link {
public:
  virtual ~hub_link() = default;

  /// This hub's name among the others: its ids begin with it (request_id::hub()).
  virtual std::string_view hub_name() const = 0;
  /// Takes a well-formed reply for `id`, an id of another hub, to that hub
  /// and returns what the worker gets: that hub's verdict (204 or 404), or
  /// 503 with Retry-After if the verdict cannot be had in time. It may wait.
  virtual web::response route(const request_id& id, web::response answer) = 0;
  /// Adds the link's own counters to the object that `GET /stats` returns.
  virtual void add_stats(boost::json::object& stats) const = 0;
};
// [hub_link]

}  // namespace rdv::hub
