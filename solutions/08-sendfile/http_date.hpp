#pragma once
/// \file
/// Chapter 8: HTTP dates (RFC 9110 §5.6.7), for Date, Last-Modified and
/// If-Modified-Since: written in IMF-fixdate, read in all three formats.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace rdv::http {

/// `t` in IMF-fixdate, the only format a sender may use:
/// `Sun, 06 Nov 1994 08:49:37 GMT` (always 29 characters).
std::string format_http_date(std::chrono::sys_seconds t);

/// Reads an HTTP date in any of the three formats a recipient must accept:
/// IMF-fixdate, the obsolete RFC 850 format (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and C's asctime() format (`Sun Nov  6 08:49:37 1994`). An RFC 850 two-digit
/// year that would lie more than 50 years after `now` is taken from the
/// century before. Returns nothing for anything else (such a field is ignored).
std::optional<std::chrono::sys_seconds>
parse_http_date(std::string_view text,
                std::chrono::sys_seconds now =
                    std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));

/// The current time as an IMF-fixdate, for the Date field; formatted once
/// per second per thread.
const std::string& http_date_now();

}  // namespace rdv::http
