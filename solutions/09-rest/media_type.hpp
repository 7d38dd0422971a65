#pragma once
/// \file
/// Chapter 9: media types and the Accept header (RFC 9110, section 12.5.1).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// Chapter 9: resources, their representations, and content negotiation.
namespace rdv::rest {

/// A quality value in thousandths: `q=0.5` is 500, `q=1` (the default) 1000.
using quality = int;

/// The highest quality, which a media range has unless it says otherwise.
inline constexpr quality best = 1000;

/// One element of an Accept header, such as `text/html;level=1;q=0.7`.
struct media_range {
  std::string type;     ///< lowercase; "*" in `*/*`
  std::string subtype;  ///< lowercase; "*" in `type/*` and `*/*`
  std::vector<std::pair<std::string, std::string>> parameters;  ///< without q; names lowercase
  quality weight = best;                                        ///< the q parameter

  /// How specific the range is: 0 for `*/*`, 1 for `type/*`, 2 for
  /// `type/subtype`, 3 for `type/subtype` with parameters.
  int specificity() const;
};

/// An Accept header, parsed.
struct accept_list {
  std::vector<media_range> ranges;  ///< in the order the client sent them
  bool malformed = false;           ///< whether some element was skipped as invalid
};

/// Parses the value of an Accept field. Elements that do not parse are
/// skipped and reported in `malformed`, so one bad element does not cost the
/// client its whole preference list.
accept_list parse_accept(std::string_view value);

/// Parses one media range (without the comma list around it); false if it
/// is not a valid `type/subtype *(; parameter)`.
bool parse_media_range(std::string_view text, media_range& out);

/// Parses a qvalue (`0`, `0.5`, `1.000`, ...) into thousandths; false if it
/// does not follow the grammar `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`.
bool parse_quality(std::string_view text, quality& out);

/// A media type as the server offers it: `application/json`.
struct media_type {
  std::string_view type;     ///< lowercase
  std::string_view subtype;  ///< lowercase

  /// `text` split at its slash; `text` must be a lowercase `type/subtype`.
  static media_type of(std::string_view text);
};

}  // namespace rdv::rest
