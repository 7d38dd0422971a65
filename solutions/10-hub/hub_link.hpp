#pragma once
/// \file
/// Chapter 10's seam for chapter 11: what joins a hub to other hubs. A lone
/// hub has no link. Chapter 11's hubs each have one, which reaches the
/// others over NATS; this chapter only says where the hub asks it.

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

  /// What this hub's ids begin with (chapter 11: the hub's name and a dot): the hub
  /// puts it before each id it makes.
  virtual std::string_view id_prefix() const = 0;
  /// The prefix that names `id`'s hub, as id_prefix() would write it, if
  /// `id` has one in a valid form; "" if it has none.
  virtual std::string_view prefix_of(std::string_view id) const = 0;
  /// Takes a well-formed reply for `id`, an id of another hub, to that hub
  /// and returns what the worker gets: that hub's verdict (204 or 404), or
  /// 503 with Retry-After if the verdict cannot be had in time. It may wait.
  virtual web::response route(std::string_view id, web::response answer) = 0;
  /// Adds the link's own counters to the object that `GET /stats` returns.
  virtual void add_stats(boost::json::object& stats) const = 0;
};
// [hub_link]

}  // namespace rdv::hub
