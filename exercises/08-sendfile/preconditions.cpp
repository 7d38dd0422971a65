#include "preconditions.hpp"

#include "http_date.hpp"
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::http {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Whether `match(opaque_tag, weak)` holds for an entity tag of `list`. A tag
// may hold commas, so the list is read tag by tag, not split at commas; a
// malformed list matches nothing.
template <class Match>
bool any_tag(std::string_view list, Match match) {
  std::size_t i = 0;
  for (;;) {
    while (i < list.size() && (list[i] == ' ' || list[i] == '\t' || list[i] == ',')) ++i;
    if (i == list.size()) return false;
    const bool weak = list.substr(i, 2) == "W/";
    if (weak) i += 2;
    if (i >= list.size() || list[i] != '"') return false;
    const auto close = list.find('"', i + 1);
    if (close == std::string_view::npos) return false;
    if (match(list.substr(i, close - i + 1), weak)) return true;
    i = close + 1;
  }
}

std::string_view opaque(std::string_view etag) {
  return etag.starts_with("W/") ? etag.substr(2) : etag;
}

}  // namespace

conditions conditions::of(const field_list& fields) {
  return {fields.find("If-Match"), fields.find("If-None-Match"), fields.find("If-Modified-Since"),
          fields.find("If-Unmodified-Since"), fields.find("If-Range")};
}

bool weak_match(std::string_view list, std::string_view etag) {
  if (trim(list) == "*") return true;
  return any_tag(list, [&](std::string_view tag, bool) { return tag == opaque(etag); });
}

bool strong_match(std::string_view list, std::string_view etag) {
  if (trim(list) == "*") return true;
  if (etag.starts_with("W/")) return false;
  return any_tag(list, [&](std::string_view tag, bool weak) { return !weak && tag == etag; });
}

//! [evaluate]
precondition evaluate(const conditions& c, bool get_or_head, const validators& v) {
  // TODO(ch08.3): evaluate the preconditions in the order RFC 9110 gives
  // Hint: Which field wins when a request has both If-None-Match and If-Modified-Since,
  //   and why is that the better validator? (more: ./course hint 08 3)
  (void)c; (void)get_or_head; (void)v;
  throw rdv::todo("ch08.3", "evaluate the preconditions in the order RFC 9110 gives");
}
//! [evaluate]

bool range_still_applies(const conditions& c, const validators& v) {
  if (!c.if_range) return true;
  const std::string_view value = trim(*c.if_range);
  if (value.starts_with('"') || value.starts_with("W/"))
    return value == v.etag && !value.starts_with("W/");
  const auto date = parse_http_date(value);
  return date && *date == v.last_modified;
}

}  // namespace rdv::http
