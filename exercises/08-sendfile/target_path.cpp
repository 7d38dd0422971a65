#include "target_path.hpp"

#include "http_fields.hpp"

#include <optional>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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

}  // namespace

//! [local_path_for]
local_path local_path_for(std::string_view target) {
  std::string_view path = path_of(target);
  path = path.substr(0, path.find('?'));
  if (!path.starts_with('/')) return refuse(400, "the target is not a path starting with '/'");
  local_path out;
  out.trailing_slash = path.ends_with('/');
  // TODO(ch08.1): decode each segment once, and refuse the ones that could leave the root
  // Hint: Why split at '/' *before* decoding? What would "a%2f..%2fb" become if you
  //   decoded first? (more: ./course hint 08 1)
  (void)hex_value;
  throw rdv::todo("ch08.1", "decode each segment once, and refuse the ones that could leave the root");
  return out;
}
//! [local_path_for]

}  // namespace rdv::files
