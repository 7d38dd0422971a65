#include "byte_range.hpp"

#include "http_fields.hpp"

#include <limits>

namespace rdv::http {

namespace {

constexpr auto no_number = std::numeric_limits<std::uint64_t>::max();

// A run of decimal digits; a number too big for 64 bits saturates (it is
// past the end of any file). `ok` is false for an empty run or a non-digit.
std::uint64_t digits(std::string_view text, bool& ok) {
  std::uint64_t value = 0;
  ok = !text.empty();
  for (const char c : text) {
    if (c < '0' || c > '9') ok = false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    value = value > (no_number - digit) / 10 ? no_number : value * 10 + digit;
  }
  return value;
}

}  // namespace

//! [decide_range]
range_decision decide_range(std::optional<std::string_view> range, std::uint64_t length) {
  if (!range) return {};
  const auto equals = range->find('=');
  if (equals == std::string_view::npos || !iequals(range->substr(0, equals), "bytes")) return {};
  // EXERCISE ch08.4: parse the one range asked for, and decide between 206, 416 and 200
  // HINT: The set is a comma-separated list (with optional spaces, and empty
  //       elements to skip), which chapter 2's any_element() walks. How many
  //       ranges does it name, and what does this server do with more than one?
  // HINT: Where is the first byte of "-500" in a file of 1000 bytes? And
  //       which ranges can a file of `length` bytes not satisfy at all?
  // STUB: (void)length; (void)digits;
  std::string_view spec;
  int specs = 0;
  any_element(range->substr(equals + 1), [&](std::string_view element) {
    spec = element;
    return ++specs > 1;  // a second range: no need to look further
  });
  const auto dash = spec.find('-');
  if (specs != 1 || dash == std::string_view::npos) return {};  // several ranges, or none
  bool first_ok = false, last_ok = false;
  const std::uint64_t first = digits(spec.substr(0, dash), first_ok);
  const std::uint64_t last = digits(spec.substr(dash + 1), last_ok);
  if (!first_ok) {  // a suffix: the last `last` bytes
    if (!last_ok || dash != 0) return {};
    if (last == 0) return {range_decision::unsatisfiable};
    if (length == 0) return {};  // nothing to send: the whole (empty) file
    return {range_decision::partial, length - std::min(last, length), length - 1};
  }
  if (dash + 1 < spec.size() && (!last_ok || last < first)) return {};  // not a valid range
  if (first >= length) return {range_decision::unsatisfiable};
  return {range_decision::partial, first,
          dash + 1 == spec.size() ? length - 1 : std::min(last, length - 1)};
  // END EXERCISE
}
//! [decide_range]

std::string content_range(const range_decision& decision, std::uint64_t length) {
  if (decision.what == range_decision::unsatisfiable) return "bytes */" + std::to_string(length);
  return "bytes " + std::to_string(decision.first) + "-" + std::to_string(decision.last) + "/" +
         std::to_string(length);
}

}  // namespace rdv::http
