#include "response_parser.hpp"

namespace rdv::http {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

//! [parse_status_line]
parse_error parse_status_line(std::string_view line, response_head& out) {
  // HTTP/1.1 SP 3DIGIT SP reason, where some servers leave out the last SP
  if (line.size() < 12 || !line.starts_with("HTTP/") || !is_digit(line[5]) || line[6] != '.' ||
      !is_digit(line[7]) || line[8] != ' ' || !is_digit(line[9]) || !is_digit(line[10]) ||
      !is_digit(line[11]) || (line.size() > 12 && line[12] != ' ')) {
    return parse_error::bad_status_line;
  }
  if (line[5] != '1') return parse_error::version_not_supported;
  out.version = 10 + (line[7] - '0');
  out.status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
  if (out.status < 100) return parse_error::bad_status_line;
  out.reason = line.size() > 12 ? line.substr(13) : line.substr(12);
  return parse_error::none;
}
//! [parse_status_line]

bool keeps_alive(const response_head& head, const framing& body) {
  if (body.kind == body_kind::until_close || head.fields.has_token("connection", "close")) {
    return false;
  }
  return head.version >= 11 || head.fields.has_token("connection", "keep-alive");
}

parse_error response_parser::start_line(std::string_view line) {
  if (const parse_error e = parse_status_line(line, head_); e != parse_error::none) return e;
  reason_at_ = static_cast<std::size_t>(head_.reason.data() - line.data());
  return parse_error::none;
}

parse_error response_parser::head_done(std::string_view line, const field_list& fields,
                                       framing& out) {
  head_.reason = line.substr(reason_at_);
  head_.fields = fields;
  return response_framing(head_.status, request_method_, fields, limits_in_force(), out);
}

}  // namespace rdv::http
