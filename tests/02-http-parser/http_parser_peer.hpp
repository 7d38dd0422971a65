#pragma once
// The same bytes through http-parser (Node.js's parser before llhttp,
// Debian's libhttp-parser-dev), recorded like parse_driver records ours.

#include "parse_driver.hpp"

#include <string>
#include <string_view>

namespace rdv::test {

// What http-parser made of a stream of requests.
struct peer_outcome {
  std::vector<parsed_request> requests;  // the complete ones (keep_alive from http-parser)
  std::string error;                     // http-parser's error name ("HPE_..."), or ""
  bool incomplete = false;               // the input ended inside a request
};

// Parses `input` with http-parser, in one call.
peer_outcome parse_with_http_parser(std::string_view input);

// The outcome as a line to compare: every request's summary, then
// "rejected" or "incomplete" (the kind of error is not compared).
std::string comparable(const parse_outcome& ours);
std::string comparable(const peer_outcome& theirs);

}  // namespace rdv::test
