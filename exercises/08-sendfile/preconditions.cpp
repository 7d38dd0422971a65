#include "preconditions.hpp"

#include "http_date.hpp"
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::http {

namespace {

// Whether `match(opaque_tag, weak)` holds for an entity tag of `list`. A tag
// may hold commas, which any_element() leaves inside its quotes; a list with
// an element that is not an entity tag matches nothing.
template <class Match>
bool any_tag(std::string_view list, Match match) {
  bool malformed = false;
  const bool found = any_element(list, [&](std::string_view element) {
    const bool weak = element.starts_with("W/");
    const std::string_view tag = weak ? element.substr(2) : element;
    malformed = tag.size() < 2 || tag.front() != '"' || tag.find('"', 1) != tag.size() - 1;
    return malformed || match(tag, weak);
  });
  return found && !malformed;
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
  if (trim_ows(list) == "*") return true;
  return any_tag(list, [&](std::string_view tag, bool) { return tag == opaque(etag); });
}

bool strong_match(std::string_view list, std::string_view etag) {
  if (trim_ows(list) == "*") return true;
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
  const std::string_view value = trim_ows(*c.if_range);
  if (value.starts_with('"') || value.starts_with("W/"))
    return value == v.etag && !value.starts_with("W/");
  const auto date = parse_http_date(value);
  return date && *date == v.last_modified;
}

}  // namespace rdv::http
