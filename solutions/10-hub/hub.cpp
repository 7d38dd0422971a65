#include "hub.hpp"

#include "forward.hpp"
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

// What a reply with a malformed id is told: the ids of a lone hub, or of a hub with a name.
web::response malformed_id(std::string_view target, bool named) {
  return web::text_response(
      400, std::string(named ? "expected /reply/ and an id: the hub's name (1 to 16 of a-z, 0-9 "
                               "and -), a dot and 32 lowercase hex digits; found "
                             : "expected /reply/ and an id of 32 lowercase hex digits, found ") +
               std::string(target) + "\n");
}

}  // namespace

hub::hub(hub_options options)
    : options_(std::move(options)),
      ids_(options_.link ? std::string(options_.link->hub_name()) : std::string()) {}

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
  // Registered before the forward: a reply may beat the 202.
  hold held(ids_.next(), r.socket, stats_, options_.trim_after, r.release_buffer);
  forward_attempts forward(backends_, options_.backends, next_backend_++, r,
                           {.id = held.id().text(),
                            .reply_to = options_.reply_to,
                            .left = *limit,
                            .client = r.peer,
                            .host = options_.front_host},
                           options_.backend_timeout);
  return answer(held.wait(clock::now() + *limit, &forward), held);
}

// The client's answer, when its hold ended as `end`.
web::response hub::answer(hold_end end, hold& held) {
  switch (end) {
  case hold_end::replied: ++stats_.replied; return std::move(held.answer());
  case hold_end::timed_out: ++stats_.timed_out; return web::text_response(504);
  case hold_end::refused: ++stats_.backend_errors; return web::text_response(502);
  case hold_end::client_gone: break;
  }
  ++stats_.abandoned;
  web::response nobody;
  nobody.hang_up = true;  // chapter 7 drops the connection; the socket is its own
  return nobody;
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
  const std::string_view target = r.head.target;
  const auto id = request_id::parse(target.substr(std::string_view("/reply/").size()));
  const bool named = !ids_.hub().empty();  // chapter 11: ids name their hub, and only then
  if (!id || id->hub().empty() == named) return malformed_id(target, named);
  web::response answer;
  if (const auto wrong = read_reply(r.head.fields, r.body, answer)) {
    return web::text_response(400, *wrong + "\n");
  }
  if (id->hub() != ids_.hub())
    return options_.link->route(*id, std::move(answer));  // another hub's
  return worker_answer(hand_over(*id, std::move(answer)));
}
//! [take_reply]

verdict hub::hand_over(const request_id& id, web::response answer) {
  const verdict v = deliver(id, std::move(answer));
  if (v == verdict::not_waiting) ++stats_.late_replies;
  return v;
}

}  // namespace rdv::hub
