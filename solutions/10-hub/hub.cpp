#include "hub.hpp"

#include "forward.hpp"
#include "pending_reply.hpp"
#include "reply_handler.hpp"

#include <charconv>
#include <optional>

namespace rdv::hub {

using clock = std::chrono::steady_clock;

namespace {

//! [hold_limit]
// How long to hold this client: --timeout-ms, or less if it asks with
// X-Hub-Timeout-Ms. Nothing if what it asks is not a number of milliseconds.
std::optional<std::chrono::milliseconds> hold_limit(const http::request_head& head,
                                                    std::chrono::milliseconds most) {
  const auto asked = head.fields.find("X-Hub-Timeout-Ms");
  if (!asked) return most;
  long long ms = 0;
  const auto [end, ec] = std::from_chars(asked->data(), asked->data() + asked->size(), ms);
  if (ec != std::errc() || end != asked->data() + asked->size() || ms < 1) return std::nullopt;
  return std::min(most, std::chrono::milliseconds(ms));
}
//! [hold_limit]

web::response status_with(int status, std::string_view field, std::string_view value,
                          std::string_view text = {}) {
  web::response r = web::text_response(status, text);
  r.fields.emplace_back(field, value);
  return r;
}

}  // namespace

hub::hub(hub_options options) : options_(std::move(options)) {}

//! [front]
web::response hub::front(web::request& r) {
  if (stats_.pending >= options_.max_pending) {
    ++stats_.rejected;
    return status_with(503, "Retry-After", "1");
  }
  const auto limit = hold_limit(r.head, options_.timeout);
  if (!limit) {
    return web::text_response(400, "X-Hub-Timeout-Ms must be a whole number of milliseconds, "
                                   "1 or more\n");
  }
  const auto deadline = clock::now() + *limit;
  // Registered before the forward: a reply may beat the 202.
  pending_reply hold(
      options_.link ? std::string(options_.link->id_prefix()) + ids_.next() : ids_.next(), stats_);
  forward_attempts forward(backends_, options_.backends, next_backend_++, r,
                           {.id = hold.id(),
                            .reply_to = options_.reply_to,
                            .left = *limit,
                            .client = r.peer,
                            .host = options_.front_host},
                           options_.backend_timeout);
  web::response answer;
  switch (hold.wait(r.socket, deadline, answer, &forward)) {
  case hold_end::replied: ++stats_.replied; return answer;
  case hold_end::timed_out: ++stats_.timed_out; return web::text_response(504);
  case hold_end::refused: ++stats_.backend_errors; return web::text_response(502);
  case hold_end::client_gone: break;
  }
  ++stats_.abandoned;
  boost::system::error_code ignored;
  r.socket.close(ignored);  // nobody to answer: free the descriptor now
  answer.close = true;
  return answer;
}
//! [front]

//! [reply_port]
web::response hub::reply(web::request& r) {
  const std::string_view target = r.head.target, method = r.head.method;
  if (target == "/stats") {
    if (method != "GET" && method != "HEAD") return status_with(405, "Allow", "GET, HEAD");
    web::response json;
    json.fields.emplace_back("Content-Type", "application/json");
    json.body = to_json(stats_, options_.link);
    return json;
  }
  if (!target.starts_with("/reply/")) {
    return web::text_response(404, "the reply port serves POST /reply/<id> and GET /stats\n");
  }
  if (method != "POST") return status_with(405, "Allow", "POST");
  if (!options_.reply_token.empty() && !authorized(r.head.fields, options_.reply_token)) {
    return status_with(401, "WWW-Authenticate", "Bearer", "expected Authorization: Bearer TOKEN\n");
  }
  return take_reply(r);
}
//! [reply_port]

//! [take_reply]
// POST /reply/<id>: a well-formed reply goes to the client held as <id>.
web::response hub::take_reply(web::request& r) {
  const std::string_view id = r.head.target.substr(std::string_view("/reply/").size());
  // With a link (chapter 11), an id may begin with the name of its hub.
  const std::string_view owner = options_.link ? options_.link->prefix_of(id) : "";
  if (!is_request_id(id.substr(owner.size()))) {
    return web::text_response(400, "expected /reply/ and an id of 32 lowercase hex digits, found " +
                                       std::string(r.head.target) + "\n");
  }
  web::response answer;
  if (const auto wrong = read_reply(r.head.fields, r.body, answer)) {
    return web::text_response(400, *wrong + "\n");
  }
  if (!owner.empty() && owner != options_.link->id_prefix()) {
    return options_.link->route(id, std::move(answer));  // another hub's client
  }
  return hand_over(id, std::move(answer));
}
//! [take_reply]

web::response hub::hand_over(std::string_view id, web::response answer) {
  if (!deliver(id, std::move(answer))) {
    ++stats_.late_replies;
    return web::text_response(404, "no client waits under that id: unknown, answered already, "
                                   "timed out, or gone\n");
  }
  web::response taken;
  taken.status = 204;  // and no body
  return taken;
}

}  // namespace rdv::hub
