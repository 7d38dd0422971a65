#include "bus_link.hpp"

#include "after.hpp"
#include "reply_handler.hpp"
#include "request_id.hpp"

#include <algorithm>
#include <charconv>
#include <vector>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::hubs {

namespace {

using clock = std::chrono::steady_clock;

// Where the verdicts for the hub named `hub_id` come back: this, then the
// ticket of the routed reply (one subject per reply, one subscription for all).
std::string verdict_prefix(std::string_view hub_id) {
  return "rdv.verdict." + std::string(hub_id) + '.';
}

// The message that takes a verdict from the bus to the process that waits
// for it.
struct bus_verdict {
  std::uint64_t ticket = 0;
  int status = 0;  // 204 or 404
};

// What the worker gets when the verdict cannot be had: 503, and when to try
// again.
web::response unavailable(std::string_view why) {
  web::response r = web::text_response(503, why);
  r.fields.emplace_back("Retry-After", "1");
  return r;
}

// The one header field of a worker's message/http reply that matters to
// read_reply(): a routed reply is read as if a worker had posted it so.
const http::field_list& message_http_fields() {
  static constexpr std::string_view text = "Content-Typemessage/http";
  static const std::vector<http::field_span> spans{{0, 12, 12, 12}};
  static const http::field_list fields(text.data(), spans);
  return fields;
}

}  // namespace

bool is_hub_id(std::string_view name) {
  return !name.empty() && name.size() <= 16 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string random_hub_id() { return hub::id_source().next().substr(0, 8); }

std::string hub_subject(std::string_view hub_id) { return "rdv.hub." + std::string(hub_id); }

//! [encode]
std::string encode(const routed_reply& reply) {
  std::string out = reply.id;
  out += '\n';
  std::string head;
  web::write_head(reply.response, true, head);  // status line, fields, Content-Length
  out += head;
  out += reply.response.body;
  return out;
}

std::optional<routed_reply> decode(std::string_view message) {
  // TODO(ch11.3): read a routed reply back, trusting nothing in it
  // Hint: The id ends at the first newline; what follows is a whole response, as a
  //   worker's message/http reply carries one. Chapter 10 has a function that reads
  //   exactly that, given the fields a worker's message/http reply has
  //   (message_http_fields()). (more: ./course hint 11 3)
  (void)message; (void)&message_http_fields;
  throw rdv::todo("ch11.3", "read a routed reply back, trusting nothing in it");
}
//! [encode]

bus_link::bus_link(nats_connection& bus, proc::scheduler& node, std::string hub_id)
    : bus_(bus), node_(node), name_(std::move(hub_id)), prefix_(name_ + '.') {}

void bus_link::start(hub::hub& local) {
  local_ = &local;
  bus_.subscribe(hub_subject(name_), [this](const bus_message& m) { take_routed(m); });
  bus_.subscribe(verdict_prefix(name_) + '*', [this](const bus_message& m) { take_verdict(m); });
}

//! [prefix_of]
std::string_view bus_link::prefix_of(std::string_view id) const {
  // TODO(ch11.2): find the hub an id names, as a pid names its node
  // Hint: An id of a hub on the bus is its hub's name, a dot, and 32 hex digits; the
  //   prefix is the name and the dot, as id_prefix() writes its own. (more:
  //   ./course hint 11 2)
  (void)id;
  throw rdv::todo("ch11.2", "find the hub an id names, as a pid names its node");
}
//! [prefix_of]

//! [route]
web::response bus_link::route(std::string_view id, web::response answer) {
  // TODO(ch11.4): send the reply to its hub, and wait for the verdict
  // Hint: The owner's subject comes from the id's prefix; the verdict's, from a ticket
  //   of this hub's own, so that the answer finds the process that asked. Which map
  //   tells take_verdict() that process? (more: ./course hint 11 4)
  (void)id; (void)answer; (void)&unavailable; (void)&verdict_prefix;
  throw rdv::todo("ch11.4", "send the reply to its hub, and wait for the verdict");
}
//! [route]

//! [take_routed]
void bus_link::take_routed(const bus_message& message) {
  // TODO(ch11.5): deliver a reply that another hub routed here, and answer with the verdict
  // Hint: This runs in a handler of the io_context, not in a process, and delivering
  //   waits for the held process's verdict: where can it wait? (Copy what you need
  //   first: `message` lives only as long as this call.) (more: ./course hint 11 5)
  (void)message; (void)node_; (void)local_;
  throw rdv::todo("ch11.5", "deliver a reply that another hub routed here, and answer with the verdict");
}
//! [take_routed]

void bus_link::take_verdict(const bus_message& message) {
  const std::string_view ticket_text = message.subject.substr(message.subject.rfind('.') + 1);
  std::uint64_t ticket = 0;
  const auto [end, ec] =
      std::from_chars(ticket_text.data(), ticket_text.data() + ticket_text.size(), ticket);
  const auto waiter = waiting_.find(ticket);
  if (ec != std::errc() || end != ticket_text.data() + ticket_text.size() ||
      waiter == waiting_.end()) {
    return;  // late: the process stopped waiting
  }
  const int status = message.data == "204" ? 204 : message.data == "404" ? 404 : 0;
  if (status != 0) node_.send(waiter->second, bus_verdict{ticket, status});
}

void bus_link::add_stats(boost::json::object& stats) const {
  stats["bus"] = {{"connected", bus_.connected()},
                  {"routed_out", stats_.routed_out},
                  {"routed_in", stats_.routed_in},
                  {"route_failures", stats_.route_failures}};
}

}  // namespace rdv::hubs
