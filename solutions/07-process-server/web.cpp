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
  char digits[24];
  out.clear();
  out += "HTTP/1.1 ";
  out.append(digits, std::to_chars(digits, digits + sizeof digits, r.status).ptr);
  out += ' ';
  out += r.reason.empty() ? http::reason_phrase(r.status) : std::string_view(r.reason);
  out += "\r\n";
  for (const auto& [name, value] : r.fields) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  if (r.status >= 200 && r.status != 204) {  // 1xx and 204 have no body, and no length (RFC 9110 §8.6)
    const auto length = r.write_body ? r.body_length : r.body.size();
    out += "Content-Length: ";
    out.append(digits, std::to_chars(digits, digits + sizeof digits, length).ptr);
    out += "\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
}
//! [write_head]

}  // namespace rdv::web
