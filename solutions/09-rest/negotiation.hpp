#pragma once
/// \file
/// Chapter 9: choosing the representation a client prefers among those a
/// resource offers (proactive content negotiation, RFC 9110, section 12.1).

#include "media_type.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace rdv::rest {

/// How much the client wants `offered`: the weight of the most specific
/// range of `accept` that matches it, or 0 if none does. A more specific
/// range wins over a wildcard, so `*/*, text/xml;q=0` refuses XML.
quality quality_of(const accept_list& accept, media_type offered);

/// Which of `offered` (the server's media types, in its order of preference)
/// to send: the one the client weighs highest, the server's order breaking
/// ties; std::nullopt when every one weighs 0 (answer 406). A request
/// without an Accept field accepts anything (pass std::nullopt), and so does
/// one whose Accept field has no valid element: RFC 9110 lets a server
/// disregard a field it cannot use rather than refuse the request.
std::optional<std::size_t> negotiate(const std::optional<accept_list>& accept,
                                     std::span<const std::string_view> offered);

}  // namespace rdv::rest
