#include "request_parser.hpp"

#include <algorithm>

namespace rdv::http {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

//! [parse_request_line]
parse_error parse_request_line(std::string_view line, request_head& out) {
  // EXERCISE ch02.1: split the request line into method, target and version
  // HINT: The line is `method SP request-target SP HTTP-version`, with exactly
  //       one space between the parts. What may each part contain?
  // HINT: Which versions can this parser serve, and which error says "I
  //       understand your version, but I do not speak it"?
  // STUB: (void)line; (void)out; (void)&is_digit;
  const auto method_end =
      static_cast<std::size_t>(std::find_if_not(line.begin(), line.end(), is_tchar) - line.begin());
  if (method_end == line.size()) return parse_error::bad_request_line;  // one word: no target
  if (line[method_end] != ' ') return parse_error::bad_method;
  if (method_end == 0) return parse_error::bad_request_line;  // starts with a space
  const auto target_end = line.find(' ', method_end + 1);
  if (target_end == std::string_view::npos) return parse_error::bad_request_line;  // HTTP/0.9
  if (target_end == method_end + 1) return parse_error::bad_target;                // empty
  const std::string_view target = line.substr(method_end + 1, target_end - method_end - 1);
  // A tab in the target: a lenient reader (RFC 9112, 3) splits the line there.
  if (target.find('\t') != std::string_view::npos) return parse_error::bad_target;
  const std::string_view version = line.substr(target_end + 1);
  if (version.size() != 8 || !version.starts_with("HTTP/") || !is_digit(version[5]) ||
      version[6] != '.' || !is_digit(version[7])) {
    const bool spaced = version.find(' ') != std::string_view::npos;  // a space in the target
    return spaced ? parse_error::bad_target : parse_error::bad_version;
  }
  if (version[5] != '1') return parse_error::version_not_supported;  // HTTP/2.0, HTTP/0.9
  out.method = line.substr(0, method_end);
  out.target = target;
  out.version = 10 + (version[7] - '0');
  return parse_error::none;
  // END EXERCISE
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
