#include "negotiation.hpp"

namespace rdv::rest {

//! [quality_of]
quality quality_of(const accept_list& accept, media_type offered) {
  // EXERCISE ch09.2: weigh one offered type by the most specific matching range
  // HINT: Which ranges match application/json? Think of */*, application/*,
  //       application/json, and text/html.
  // HINT: When several ranges match, which one speaks for the type? What
  //       does media_range::specificity() tell you?
  // STUB: (void)accept; (void)offered;
  int best_specificity = -1;
  quality weight = 0;
  for (const media_range& range : accept.ranges) {
    const bool matches =
        range.type == "*" ||
        (range.type == offered.type && (range.subtype == "*" || range.subtype == offered.subtype));
    // We offer types without parameters, so a range with parameters never matches.
    if (!matches || !range.parameters.empty()) continue;
    if (range.specificity() > best_specificity) {
      best_specificity = range.specificity();
      weight = range.weight;
    }
  }
  return weight;
  // END EXERCISE
}
//! [quality_of]

//! [negotiate]
std::optional<std::size_t> negotiate(const std::optional<accept_list>& accept,
                                     std::span<const std::string_view> offered) {
  // EXERCISE ch09.3: pick the representation the client weighs highest
  // HINT: Without an Accept field, what does the client accept?
  // HINT: Ties go to the server's order. And what if every weight is zero?
  // STUB: (void)accept; (void)offered;
  if (offered.empty()) return std::nullopt;
  if (!accept || accept->ranges.empty()) return 0;  // no usable Accept: anything goes
  std::optional<std::size_t> chosen;
  quality chosen_weight = 0;
  for (std::size_t i = 0; i < offered.size(); ++i) {
    const quality weight = quality_of(*accept, media_type::of(offered[i]));
    if (weight > chosen_weight) {  // strictly greater: earlier offers win ties
      chosen = i;
      chosen_weight = weight;
    }
  }
  return chosen;
  // END EXERCISE
}
//! [negotiate]

}  // namespace rdv::rest
