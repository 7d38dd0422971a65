#include "reply_handler.hpp"

#include "address.hpp"
#include "forward.hpp"
#include "response_parser.hpp"

#include <charconv>
#include <optional>

namespace rdv::hub {

namespace {

// Whether the media type of a Content-Type value is `type` (parameters and
// case aside): `message/http; msgtype=response` is message/http.
bool media_type_is(std::string_view content_type, std::string_view type) {
  const auto end = content_type.find(';');
  std::string_view media = content_type.substr(0, end);
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.remove_suffix(1);
  return http::iequals(media, type);
}

// What a reply whose status is not a final one (200-599) is told.
std::string final_status_please(int status) {
  return "a reply's status must be a final one, 200 to 599, not " + std::to_string(status);
}

//! [relay_fields]
// Takes a relayed response's status, reason and end-to-end header fields
// into `out`; says why not if its status is not a final one.
std::optional<std::string> take_head(const http::response_head& head, web::response& out) {
  if (head.status < 200 || head.status > 599) return final_status_please(head.status);
  out.status = head.status;
  out.reason = std::string(head.reason);
  out.fields.reserve(out.fields.size() + head.fields.size());  // one allocation, not one per few
  for (const http::field f : head.fields) {
    if (!is_hop_by_hop(f.name, head.fields) && !http::iequals(f.name, "Content-Length")) {
      out.fields.emplace_back(f.name, f.value);
    }
  }
  return std::nullopt;
}
//! [relay_fields]

}  // namespace

std::optional<std::string> read_http_message(std::string_view message, web::response& out) {
  // One parser per thread, reset for each reply: it keeps the capacity of
  // its field list, where a new one would allocate for every reply. Nothing
  // here waits, so no other process can use it in the meantime.
  thread_local http::response_parser parser;
  parser.reset();
  bool headed = false, closed = false;
  for (;;) {
    const http::step s = parser.next(message);
    message.remove_prefix(s.used);
    switch (s.what) {
    case http::event::head:  // head() views point into `message`, which stays put
      if (auto wrong = take_head(parser.head(), out)) return wrong;
      headed = true;
      break;
    case http::event::body: out.body.append(s.data); break;
    case http::event::end:
      if (!message.empty()) return "the message/http body holds more than one response";
      return std::nullopt;
    case http::event::error:
      return "the message/http body is not an HTTP/1.1 response: " +
             std::string(http::describe(parser.error()));
    case http::event::need_more:
      if (!headed) return "the message/http body ends before its header section does";
      if (closed || !parser.finish_at_close()) {
        return "the message/http body ends before the response's body does";
      }
      closed = true;  // a body that runs to the end of the message: next() ends it
      break;
    }
  }
}

//! [read_reply]
std::optional<std::string> read_reply(const http::field_list& fields, std::string_view body,
                                      web::response& out) {
  // EXERCISE ch10.5: turn the worker's reply into the client's response
  // HINT: message/http means the body is a response, bytes and all: chapter
  //       2's response_parser can read it, fed the whole body at once.
  //       read_http_message() does that; which Content-Type values mean it?
  // HINT: Otherwise the body is the body. Where do its status and its
  //       Content-Type come from, and what makes X-Hub-Status invalid?
  // HINT: Whichever the form, the client must get exactly one response.
  //       Which statuses never have a body, and what would the client make
  //       of the bytes of one sent after their head?
  // STUB: (void)fields; (void)body; (void)out; (void)&read_http_message; (void)&media_type_is;
  const std::string_view content_type = fields.find("Content-Type").value_or("");
  if (media_type_is(content_type, "message/http")) {
    if (auto wrong = read_http_message(body, out)) return wrong;
  } else {
    out.status = 200;
    if (const auto status = fields.find("X-Hub-Status")) {
      const auto [end, ec] =
          std::from_chars(status->data(), status->data() + status->size(), out.status);
      if (ec != std::errc() || end != status->data() + status->size() || status->size() != 3) {
        return "X-Hub-Status must be three digits, not \"" + std::string(*status) + '"';
      }
      if (out.status < 200 || out.status > 599) return final_status_please(out.status);
    }
    if (!content_type.empty()) out.fields.emplace_back("Content-Type", content_type);
    out.body = body;
  }
  // A 204 or 304 has no body (RFC 9110, 15.3.5 and 15.4.5): the hub would
  // write the head, and the client read the body as a second response.
  if ((out.status == 204 || out.status == 304) && !out.body.empty()) {
    return "a " + std::to_string(out.status) + " response has no body; this one has " +
           std::to_string(out.body.size()) + " bytes";
  }
  return std::nullopt;
  // END EXERCISE
}
//! [read_reply]

//! [deliver]
verdict deliver(const request_id& id, web::response answer) {
  // EXERCISE ch10.4: hand the reply to the client held under the id, and learn if it took it
  // HINT: whereis() (chapter 4) turns the id into a pid, or nothing: a
  //       request that ended has given its name up.
  // HINT: The process may end, or stop waiting, before it sees the reply;
  //       and a verdict may come after you stopped listening. Chapter 6
  //       has a way to ask a process something that copes with all three.
  // STUB: (void)id; (void)answer;
  const std::optional<proc::pid> held = proc::whereis(id.text());
  if (!held) return verdict::not_waiting;
  const auto made = [&](proc::caller me) { return delivery{id, std::move(answer), me}; };
  return proc::call<verdict>(*held, made).value_or(verdict::not_waiting);  // empty: it ended
  // END EXERCISE
}
//! [deliver]

//! [authorized]
bool authorized(const http::field_list& fields, std::string_view token) {
  constexpr std::string_view scheme = "Bearer ";
  const std::string_view given = fields.find("Authorization").value_or("");
  if (given.size() != scheme.size() + token.size() ||
      !http::iequals(given.substr(0, scheme.size()), scheme)) {
    return false;
  }
  unsigned char differ = 0;  // every byte compared, whatever the first difference
  for (std::size_t i = 0; i < token.size(); ++i) {
    differ |= static_cast<unsigned char>(given[scheme.size() + i] ^ token[i]);
  }
  return differ == 0;
}
//! [authorized]

}  // namespace rdv::hub
