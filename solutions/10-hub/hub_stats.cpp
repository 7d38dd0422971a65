#include "hub_stats.hpp"

#include "hub_link.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

namespace rdv::hub {

std::string to_json(const hub_stats& stats, const hub_link* link) {
  boost::json::object out;  // keeps the order of insertion
  out["pending"] = stats.pending;
  out["forwarded"] = stats.forwarded;
  out["replied"] = stats.replied;
  out["timed_out"] = stats.timed_out;
  out["backend_errors"] = stats.backend_errors;
  out["rejected"] = stats.rejected;
  out["late_replies"] = stats.late_replies;
  out["abandoned"] = stats.abandoned;
  out["trimmed"] = stats.trimmed;
  if (link) link->add_stats(out);
  return boost::json::serialize(out);
}

}  // namespace rdv::hub
