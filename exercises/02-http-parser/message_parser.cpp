#include "message_parser.hpp"

namespace rdv::http {

message_parser::message_parser(const limits& limits) : limits_(limits), body_(limits) {}

void message_parser::reset() {
  state_ = state::start_line;
  lines_.start_at(0);
  fields_ = {};
  error_ = parse_error::none;
}

//! [next]
step message_parser::next(std::string_view input) {
  switch (state_) {
  case state::start_line:
  case state::fields: return parse_head(input);
  case state::body: {
    const body_decoder::result r = body_.decode(input);
    switch (r.what) {
    case body_decoder::status::piece: return {event::body, r.used, r.data};
    case body_decoder::status::need_more: return {event::need_more, r.used, {}};
    case body_decoder::status::failed: return fail(body_.error());
    case body_decoder::status::done: break;
    }
    state_ = state::start_line;  // pipelining: the next message may follow at once
    lines_.start_at(0);
    return {event::end, r.used, {}};
  }
  case state::failed: break;
  }
  return {event::error, 0, {}};
}
//! [next]

//! [parse_head]
step message_parser::parse_head(std::string_view input) {
  if (state_ == state::start_line) {
    std::string_view line;
    do {  // a server ignores empty lines before a request line (RFC 9112 §2.2)
      switch (lines_.next(input, limits_.max_start_line, line, error_)) {
      case line_status::incomplete: return {};
      case line_status::invalid: return fail(error_);
      case line_status::too_long: return fail(parse_error::start_line_too_long);
      case line_status::complete: break;
      }
      if (lines_.line_at() > limits_.max_head) return fail(parse_error::head_too_large);
    } while (line.empty());
    if (const parse_error e = start_line(line); e != parse_error::none) return fail(e);
    line_at_ = static_cast<std::size_t>(line.data() - input.data());
    line_size_ = line.size();
    block_.start(lines_.line_at(), limits_.max_head - lines_.line_at());
    state_ = state::fields;
  }
  switch (block_.parse(input, limits_)) {  // one field line after another, up to the blank line
  case parse_status::need_more: return {};
  case parse_status::failed: return fail(block_.error());
  case parse_status::done: break;
  }
  fields_ = block_.fields(input);
  framing how;
  const parse_error e = head_done(input.substr(line_at_, line_size_), fields_, how);
  if (e != parse_error::none) return fail(e);
  body_.start(how);
  state_ = state::body;
  return {event::head, block_.end(), {}};
}
//! [parse_head]

step message_parser::fail(parse_error error) {
  error_ = error;
  state_ = state::failed;
  return {event::error, 0, {}};
}

}  // namespace rdv::http
