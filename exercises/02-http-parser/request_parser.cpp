#include "request_parser.hpp"

#include <algorithm>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::http {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

//! [parse_request_line]
parse_error parse_request_line(std::string_view line, request_head& out) {
  // TODO(ch02.1): split the request line into method, target and version
  // Hint: The line is `method SP request-target SP HTTP-version`, with exactly one
  //   space between the parts. What may each part contain? (more: ./course hint 02 1)
  (void)line; (void)out; (void)&is_digit;
  throw rdv::todo("ch02.1", "split the request line into method, target and version");
}
//! [parse_request_line]

//! [keeps_alive]
bool keeps_alive(const request_head& head) {
  if (head.fields.has_token("connection", "close")) return false;
  if (head.version >= 11) return true;
  // HTTP/1.0: only on request, and never after a body framed in a way
  // HTTP/1.0 does not know (RFC 9112 §6.1).
  return head.fields.has_token("connection", "keep-alive") &&
         !head.fields.find("transfer-encoding");
}
//! [keeps_alive]

parse_error request_parser::start_line(std::string_view line) {
  if (const parse_error e = parse_request_line(line, head_); e != parse_error::none) return e;
  method_size_ = head_.method.size();
  target_at_ = static_cast<std::size_t>(head_.target.data() - line.data());
  target_size_ = head_.target.size();
  return parse_error::none;
}

//! [head_done]
parse_error request_parser::head_done(std::string_view line, const field_list& fields,
                                      framing& out) {
  head_.method = line.substr(0, method_size_);  // the same bytes, maybe moved since start_line()
  head_.target = line.substr(target_at_, target_size_);
  head_.fields = fields;
  const std::size_t hosts = fields.count("host");  // RFC 9112 §3.2
  if (hosts > 1) return parse_error::duplicate_host;
  if (hosts == 0 && head_.version >= 11) return parse_error::missing_host;
  return request_framing(fields, limits_in_force(), out);
}
//! [head_done]

}  // namespace rdv::http
