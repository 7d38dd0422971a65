#include "web.hpp"

#include <charconv>

namespace rdv::web {

response text_response(int status, std::string_view text) {
  response r;
  r.status = status;
  r.fields.emplace_back("Content-Type", "text/plain; charset=utf-8");
  r.body = text.empty() ? std::string(http::reason_phrase(status)) + "\n" : std::string(text);
  return r;
}

//! [write_head]
void write_head(const response& r, bool keep_alive, std::string& out) {
  out.clear();
  out += "HTTP/1.1 ";
  append_number(out, static_cast<std::uint64_t>(r.status));
  out += ' ';
  out += r.reason.empty() ? http::reason_phrase(r.status) : std::string_view(r.reason);
  out += "\r\n";
  for (const auto& [name, value] : r.fields) append_field(out, name, value);
  // 1xx and 204 have no body and no length (RFC 9110, 8.6); nor does a 304
  // unless its writer gives the length the 200 would have had (chapter 8).
  if (r.status >= 200 && r.status != 204 && (r.status != 304 || r.writer)) {
    out += "Content-Length: ";
    append_number(out, r.writer ? r.writer->length : r.body.size());
    out += "\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
}
//! [write_head]

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += ": ";
  out += value;
  out += "\r\n";
}

void append_number(std::string& out, std::uint64_t n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

}  // namespace rdv::web
