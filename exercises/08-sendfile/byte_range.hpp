#pragma once
/// \file
/// Chapter 8: range requests (RFC 9110 §14) — which bytes of a file a
/// `Range: bytes=...` field asks for.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdv::http {

// [range_decision]
/// What to send for a request's Range field, given the file's length.
struct range_decision {
  /// The three answers a range request can get.
  enum kind {
    whole,          ///< 200 with the whole file: no Range, or one this server ignores
    partial,        ///< 206 with bytes first..last
    unsatisfiable,  ///< 416 with `Content-Range: bytes */length`
  };
  kind what = whole;        ///< which answer
  std::uint64_t first = 0;  ///< the first byte sent (partial only)
  std::uint64_t last = 0;   ///< the last byte sent, inclusive (partial only)
};

/// Decides what to send for the value of a Range field (nothing: no field)
/// for a file of `length` bytes. One range in the forms `bytes=a-b`, `a-`
/// and `-n` (the last n bytes) is answered; a last byte past the end is cut
/// to the end. Asking for several ranges gets the whole file: a server may
/// ignore Range, and a multipart/byteranges answer is seldom worth it. So do
/// other units and bad syntax, a last byte before the first among it (even
/// when the first is past the end). Unsatisfiable: a first byte at or past
/// the end, or `-0`.
range_decision decide_range(std::optional<std::string_view> range, std::uint64_t length);

/// The Content-Range value of a 206 (`bytes 0-99/1000`) or, for a 416,
/// `bytes */1000`.
std::string content_range(const range_decision& decision, std::uint64_t length);
// [range_decision]

}  // namespace rdv::http
