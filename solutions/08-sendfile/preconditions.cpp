#include "preconditions.hpp"

#include "http_date.hpp"

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
  // EXERCISE ch08.3: evaluate the preconditions in the order RFC 9110 gives
  // HINT: Which field wins when a request has both If-None-Match and
  //       If-Modified-Since, and why is that the better validator?
  // HINT: Which comparison (weak or strong) does each entity-tag field use? And
  //       what does a Last-Modified *equal* to the If-Modified-Since date mean?
  // STUB: (void)c; (void)get_or_head; (void)v;
  if (c.if_match) {
    if (!strong_match(*c.if_match, v.etag)) return precondition::failed;
  } else if (c.if_unmodified_since) {
    const auto date = parse_http_date(*c.if_unmodified_since);
    if (date && v.last_modified > *date) return precondition::failed;
  }
  if (c.if_none_match) {
    if (weak_match(*c.if_none_match, v.etag)) {
      return get_or_head ? precondition::not_modified : precondition::failed;
    }
  } else if (c.if_modified_since && get_or_head) {
    const auto date = parse_http_date(*c.if_modified_since);
    if (date && v.last_modified <= *date) return precondition::not_modified;
  }
  return precondition::proceed;
  // END EXERCISE
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
