#pragma once
// Feeds a request_parser the way a server does, in pieces, and records what
// it saw as plain strings, so that tests can compare runs with different
// splits of the same bytes.

#include "request_parser.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdv::http {

// How GoogleTest shows a parse_error in a failed comparison: by its name
// ("bare_cr"), where it would otherwise show the enum's bytes.
inline void PrintTo(parse_error error, std::ostream* out) { *out << name_of(error); }

}  // namespace rdv::http

namespace rdv::test {

// One request as the parser delivered it, copied out of the parser's views.
struct parsed_request {
  std::string method, target;
  int version = 0;
  std::vector<std::pair<std::string, std::string>> fields, trailers;
  std::string body;
  bool keep_alive = false;
};

// Everything one connection's bytes gave.
struct parse_outcome {
  std::vector<parsed_request> requests;  // the complete ones, in order
  http::parse_error error = http::parse_error::none;
  bool incomplete = false;  // the input ended inside a request
  std::string trouble;      // a broken parser contract (no progress, bad `used`), or ""
};

// Parses `input` as it would arrive in pieces ending at the offsets `cuts`
// (increasing), then at the end. Every call gets a freshly allocated copy of
// the unused bytes, so views kept from an earlier call are caught by ASan.
parse_outcome parse_in_pieces(std::string_view input, const std::vector<std::size_t>& cuts,
                              const http::limits& limits = {});

// The same, in one piece.
inline parse_outcome parse_whole(std::string_view input, const http::limits& limits = {}) {
  return parse_in_pieces(input, {}, limits);
}

// One line per request: `GET /x HTTP/1.1 [Host: a] [Accept: */*] body=<hello>`.
std::string summary(const parsed_request& request);
// Every request's summary, then the error or "incomplete", separated by " || ".
std::string summary(const parse_outcome& outcome);

// The name of an error as written in C++ ("bare_cr"), for messages.
std::string error_name(http::parse_error error);

}  // namespace rdv::test
