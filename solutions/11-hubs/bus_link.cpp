#include "bus_link.hpp"

#include "after.hpp"
#include "reply_handler.hpp"
#include "request_id.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

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
  // EXERCISE ch11.3: read a routed reply back, trusting nothing in it
  // HINT: The id ends at the first newline; what follows is a whole
  //       response, as a worker's message/http reply carries one. Chapter
  //       10 has a function that reads exactly that, given the fields a
  //       worker's message/http reply has (message_http_fields()).
  // HINT: Anyone on the bus can publish. Which checks did the reply port
  //       make before it routed the reply, and which of them must the hub
  //       that takes it make again?
  // STUB: (void)message; (void)&message_http_fields;
  const auto newline = message.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  routed_reply out{std::string(message.substr(0, newline)), {}};
  if (hub::read_reply(message_http_fields(), message.substr(newline + 1), out.response)) {
    return std::nullopt;  // not a valid reply: the reply port would have said 400
  }
  return out;
  // END EXERCISE
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
  // EXERCISE ch11.2: find the hub an id names, as a pid names its node
  // HINT: An id of a hub on the bus is its hub's name, a dot, and 32 hex
  //       digits; the prefix is the name and the dot, as id_prefix() writes
  //       its own.
  // HINT: The id comes from a worker's URL. What must hold of the name
  //       before the hub takes it for one?
  // STUB: (void)id;
  const auto dot = id.find('.');
  if (dot == std::string_view::npos || !is_hub_id(id.substr(0, dot))) return {};
  return id.substr(0, dot + 1);
  // END EXERCISE
}
//! [prefix_of]

//! [route]
web::response bus_link::route(std::string_view id, web::response answer) {
  // EXERCISE ch11.4: send the reply to its hub, and wait for the verdict
  // HINT: The owner's subject comes from the id's prefix; the verdict's,
  //       from a ticket of this hub's own, so that the answer finds the
  //       process that asked. Which map tells take_verdict() that process?
  // HINT: Wait for the verdict as chapter 6 waits for anything, with a
  //       timeout (verdict_patience). A verdict that comes too late may
  //       still be in the mailbox when this process routes its next reply:
  //       how does that reply tell its own verdict from a stale one?
  // HINT: Without a bus, or without a verdict in time, the worker gets
  //       unavailable(...), and the failure is counted. A reply too large
  //       for the bus is another matter: would trying again help?
  // STUB: (void)id; (void)answer; (void)&unavailable; (void)&verdict_prefix;
  const std::string_view owner = prefix_of(id);
  const std::uint64_t ticket = ++next_ticket_;
  const std::string reply_to = verdict_prefix(name_) + std::to_string(ticket);
  const std::string message = encode({std::string(id), std::move(answer)});
  switch (bus_.publish(hub_subject(owner.substr(0, owner.size() - 1)), reply_to, message)) {
  case nats_connection::sent::yes: break;
  case nats_connection::sent::too_large:  // trying again will not help; the holder takes it
    return web::text_response(413, "the reply is too large for the bus: post it to the hub "
                                   "that holds the client (X-Hub-Reply-To)\n");
  case nats_connection::sent::down:
    ++stats_.route_failures;
    return unavailable("the bus is down: the reply cannot reach its hub\n");
  }
  waiting_[ticket] = proc::self();
  const auto deadline = clock::now() + verdict_patience;
  int status = 0;
  while (status == 0 && clock::now() < deadline) {
    proc::receive(
        [&](const bus_verdict& v) {
          if (v.ticket == ticket) status = v.status;  // else a stale one: dropped
        },
        proc::after(deadline - clock::now(), [] {}));
  }
  waiting_.erase(ticket);
  if (status == 0) {
    ++stats_.route_failures;
    return unavailable("the hub that holds the client did not answer in time\n");
  }
  ++stats_.routed_out;
  if (status == 404) {
    return web::text_response(404, "no client waits under that id at its hub: unknown, answered "
                                   "already, timed out, or gone\n");
  }
  web::response taken;
  taken.status = 204;
  return taken;
  // END EXERCISE
}
//! [route]

//! [take_routed]
void bus_link::take_routed(const bus_message& message) {
  // EXERCISE ch11.5: deliver a reply that another hub routed here, and answer with the verdict
  // HINT: This runs in a handler of the io_context, not in a process, and
  //       delivering waits for the held process's verdict: where can it
  //       wait? (Copy what you need first: `message` lives only as long as
  //       this call.)
  // HINT: A reply for an id this hub did not make is none of its business.
  //       The verdict goes to the message's reply subject, as "204" or
  //       "404": local_->hand_over() says which.
  // STUB: (void)message; (void)node_; (void)local_;
  std::optional<routed_reply> reply = decode(message.data);
  if (!reply || prefix_of(reply->id) != prefix_ ||
      !hub::is_request_id(std::string_view(reply->id).substr(prefix_.size())) ||
      message.reply.empty()) {
    return;  // not a reply for one of ours: no verdict, and the sender times out
  }
  ++stats_.routed_in;
  node_.spawn([this, reply = std::move(*reply), to = std::string(message.reply)]() mutable {
    const web::response verdict = local_->hand_over(reply.id, std::move(reply.response));
    (void)bus_.publish(to, "", std::to_string(verdict.status));  // lost if the bus is down
  });
  // END EXERCISE
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
