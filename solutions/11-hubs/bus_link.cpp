#include "bus_link.hpp"

#include "after.hpp"
#include "reply_handler.hpp"
#include "request_id.hpp"

#include <algorithm>
#include <vector>

namespace rdv::hubs {

namespace {

using clock = std::chrono::steady_clock;

// Where the verdicts for the hub named `hub_id` come back: this, then the
// ticket of the routed reply (one subject per reply, one subscription for all).
std::string verdict_prefix(std::string_view hub_id) {
  return "rdv.verdict." + std::string(hub_id) + '.';
}

// What the worker gets when the verdict cannot be had: 503, and when to try
// again.
web::response unavailable(std::string_view why) {
  web::response r = web::text_response(503, why);
  r.fields.emplace_back("Retry-After", "1");
  return r;
}

}  // namespace

std::string random_hub_id() { return std::string(hub::id_source().next().text().substr(0, 8)); }

std::string hub_subject(std::string_view hub_id) { return "rdv.hub." + std::string(hub_id); }

//! [encode]
std::string encode(const routed_reply& reply) {
  std::string out(reply.id.text());
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
  //       10 exports what reads exactly that.
  // HINT: Anyone on the bus can publish. Which checks did the reply port
  //       make before it routed the reply, and which of them must the hub
  //       that takes it make again? (Chapter 10's reader makes some itself.)
  // STUB: (void)message;
  const auto newline = message.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  auto id = hub::request_id::parse(message.substr(0, newline));
  if (!id || id->hub().empty()) return std::nullopt;  // a routed reply's id names its hub
  routed_reply out{std::move(*id), {}};
  if (hub::read_http_message(message.substr(newline + 1), out.response)) {
    return std::nullopt;  // not a valid reply: the reply port would have said 400
  }
  return out;
  // END EXERCISE
}
//! [encode]

std::string_view verdict_text(hub::verdict v) { return v == hub::verdict::taken ? "204" : "404"; }

std::optional<hub::verdict> parse_verdict(std::string_view text) {
  if (text == "204") return hub::verdict::taken;
  if (text == "404") return hub::verdict::not_waiting;
  return std::nullopt;
}

bus_link::bus_link(nats_connection& bus, proc::scheduler& node, std::string hub_id)
    : bus_(bus), node_(node), name_(std::move(hub_id)) {}

void bus_link::start(hub::hub& local) {
  local_ = &local;
  bus_.subscribe(hub_subject(name_), [this](const bus_message& m) { take_routed(m); });
  bus_.subscribe(verdict_prefix(name_) + '*', [this](const bus_message& m) { take_verdict(m); });
}

//! [route]
web::response bus_link::route(const hub::request_id& id, web::response answer) {
  // EXERCISE ch11.4: send the reply to its hub, and wait for the verdict
  // HINT: The owner's subject comes from the id's hub; the verdict's, from
  //       a ticket of this hub's own that nobody else on the bus can guess,
  //       so that the answer finds the call that asked and no one can
  //       forge it. Which map tells take_verdict() that call?
  // HINT: Wait for the verdict as chapter 6 waits for the answer to a call,
  //       with verdict_patience. A verdict that comes too late must not be
  //       taken for the next reply's.
  // HINT: Without a bus, or without a verdict in time, the worker gets
  //       unavailable(...), and the failure is counted. A reply too large
  //       for the bus is another matter: would trying again help?
  // STUB: (void)id; (void)answer; (void)&unavailable; (void)&verdict_prefix; (void)tickets_;
  const std::string ticket(tickets_.next().text());
  const std::string message = encode({id, std::move(answer)});
  switch (bus_.publish(hub_subject(id.hub()), verdict_prefix(name_) + ticket, message)) {
  case nats_connection::sent::yes: break;
  case nats_connection::sent::too_large:  // trying again will not help; the holder takes it
    return web::text_response(413, "the reply is too large for the bus: post it to the hub "
                                   "that holds the client (X-Hub-Reply-To)\n");
  case nats_connection::sent::down:
    ++stats_.route_failures;
    return unavailable("the bus is down: the reply cannot reach its hub\n");
  }
  const proc::caller me{proc::self(), proc::make_ref()};
  waiting_.emplace(ticket, me);
  const auto v = proc::await_reply<hub::verdict>(me.call, clock::now() + verdict_patience);
  waiting_.erase(ticket);
  return answer_for(v);
  // END EXERCISE
}

// What the worker gets for the verdict `v`, or for none in time.
web::response bus_link::answer_for(std::optional<hub::verdict> v) {
  if (!v) {
    ++stats_.route_failures;
    return unavailable("the hub that holds the client did not answer in time\n");
  }
  ++stats_.routed_out;
  return hub::worker_answer(*v);
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
  //       The verdict goes to the message's reply subject, as
  //       verdict_text() writes it: local_->hand_over() says which.
  // STUB: (void)message; (void)node_; (void)local_;
  std::optional<routed_reply> reply = decode(message.data);
  if (!reply || reply->id.hub() != name_ || message.reply.empty()) {
    return;  // not a reply for one of ours: no verdict, and the sender times out
  }
  ++stats_.routed_in;
  node_.spawn([this, reply = std::move(*reply), to = std::string(message.reply)]() mutable {
    const hub::verdict v = local_->hand_over(reply.id, std::move(reply.response));
    (void)bus_.publish(to, "", verdict_text(v));  // lost if the bus is down
  });
  // END EXERCISE
}
//! [take_routed]

// A verdict for the ticket at the end of its subject: to the call that
// waits for it; nothing for a ticket no call waits on (late, or forged).
void bus_link::take_verdict(const bus_message& message) {
  const std::string ticket(message.subject.substr(message.subject.rfind('.') + 1));
  const auto waiter = waiting_.find(ticket);
  const auto v = parse_verdict(message.data);
  if (waiter == waiting_.end() || !v) return;
  node_.send(waiter->second.from, proc::reply<hub::verdict>{waiter->second.call, *v});
}

void bus_link::add_stats(boost::json::object& stats) const {
  stats["bus"] = {{"hub", name_},
                  {"connected", bus_.connected()},
                  {"routed_out", stats_.routed_out},
                  {"routed_in", stats_.routed_in},
                  {"route_failures", stats_.route_failures},
                  {"awaiting", waiting_.size()}};
}

}  // namespace rdv::hubs
