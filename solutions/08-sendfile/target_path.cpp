#include "target_path.hpp"

#include "http_fields.hpp"

#include <optional>

namespace rdv::files {

namespace {

std::optional<int> hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

local_path refuse(int status, std::string_view why) {
  local_path p;
  p.status = status;
  p.why = why;
  return p;
}

// The path of an absolute-form target (`http://host:port/path`), which a
// server must accept (RFC 9112 §3.2.2); other targets are returned as they are.
std::string_view path_of(std::string_view target) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (target.size() >= scheme.size() && http::iequals(target.substr(0, scheme.size()), scheme)) {
      const auto slash = target.find('/', scheme.size());
      return slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
    }
  }
  return target;
}

// Whether a path names a directory by its form: its last segment is empty
// (`/docs/`) or `.`, spelled plainly or percent-encoded (`/docs/.`, `/docs/%2e`).
bool ends_as_directory(std::string_view path) {
  const std::string_view last = path.substr(path.rfind('/') + 1);
  return last.empty() || last == "." || http::iequals(last, "%2e");
}

// Whether `c` may stand in a path segment as it is (RFC 3986 §3.3, pchar):
// unreserved characters, sub-delims, ':' and '@'.
bool plain_in_segment(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("-._~!$&'()*+,;=:@").find(c) != std::string_view::npos;
}

}  // namespace

//! [local_path_for]
local_path local_path_for(std::string_view target) {
  std::string_view path = path_of(target);
  path = path.substr(0, path.find('?'));
  if (!path.starts_with('/')) return refuse(400, "the target is not a path starting with '/'");
  local_path out;
  out.trailing_slash = ends_as_directory(path);
  // EXERCISE ch08.1: decode each segment once, and refuse the ones that could leave the root
  // HINT: Why split at '/' *before* decoding? What would "a%2f..%2fb" become
  //       if you decoded first?
  // HINT: Which decoded segments are refused (and with which status), and which
  //       are merely skipped? local_path_for's comment in target_path.hpp lists them.
  // STUB: (void)hex_value;
  std::string segment;
  while (!path.empty()) {
    path.remove_prefix(1);  // the '/'
    const std::string_view raw = path.substr(0, path.find('/'));
    path.remove_prefix(raw.size());
    segment.clear();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (c == '%') {
        const auto high = i + 1 < raw.size() ? hex_value(raw[i + 1]) : std::nullopt;
        const auto low = i + 2 < raw.size() ? hex_value(raw[i + 2]) : std::nullopt;
        if (!high || !low) return refuse(400, "a '%' is not followed by two hexadecimal digits");
        c = static_cast<char>(*high * 16 + *low);
        i += 2;
        if (c == '/') return refuse(403, "an encoded '/' (%2f) would hide a separator");
      }
      if (c == '\0') return refuse(400, "a file name cannot hold a NUL byte");
      segment += c;
    }
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") return refuse(403, "a '..' segment would climb out of the root");
    if (!out.relative.empty()) out.relative += '/';
    out.relative += segment;
  }
  // END EXERCISE
  return out;
}
//! [local_path_for]

std::string directory_target(const local_path& p) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out = "/";
  for (const char c : p.relative) {
    if (c == '/' || plain_in_segment(c)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += digits[byte >> 4];
      out += digits[byte & 0xF];
    }
  }
  if (!p.relative.empty()) out += '/';
  return out;
}

}  // namespace rdv::files
