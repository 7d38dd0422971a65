#pragma once
/// \file
/// Chapter 2: what the HTTP parser rejects, the limits it enforces, and the
/// status code a server answers with for each error.

#include <cstddef>
#include <cstdint>
#include <string_view>

/// HTTP/1.1 messages: parsing requests and responses (chapter 2).
namespace rdv::http {

/// Why a message was rejected. Each error maps to one status (status_for());
/// the comments name the part of RFC 9112 that calls for the rejection.
enum class parse_error {
  none = 0,  ///< no error
  // The start line (RFC 9112 §3, §4)
  bad_request_line,       ///< not `METHOD SP TARGET SP HTTP-VERSION`
  bad_method,             ///< the method is not a token
  bad_target,             ///< the request-target is empty or holds a space or a tab
  bad_version,            ///< not `HTTP/DIGIT.DIGIT`
  version_not_supported,  ///< a well-formed version other than HTTP/1.x
  bad_status_line,        ///< a response's status line is malformed
  // Lines (RFC 9112 §2.2)
  bare_cr,            ///< a CR not followed by LF
  bare_lf,            ///< a LF without the CR before it
  control_character,  ///< a control character (other than HTAB) in a line
  // Field lines (RFC 9112 §5)
  obs_fold,            ///< a field line continued on the next line (obsolete line folding)
  bad_field_name,      ///< a field name that is empty or not a token
  space_before_colon,  ///< whitespace between a field name and its colon
  missing_host,        ///< an HTTP/1.1 request without a Host field
  duplicate_host,      ///< more than one Host field
  // Framing the body (RFC 9112 §6)
  bad_content_length,            ///< Content-Length is not a decimal number that fits
  conflicting_content_length,    ///< several Content-Length values that differ
  length_and_transfer_encoding,  ///< both Content-Length and Transfer-Encoding
  bad_transfer_encoding,         ///< chunked is missing, repeated or not the last coding
  unknown_transfer_coding,       ///< a transfer coding this parser does not implement
  bad_chunk_size,                ///< a chunk-size line that is not hex digits [extensions]
  chunk_size_overflow,           ///< a chunk size too big for 64 bits
  bad_chunk_end,                 ///< chunk data not followed by CRLF
  // Limits (see http::limits)
  start_line_too_long,  ///< the request line is longer than limits::max_start_line
  head_too_large,       ///< the head is longer than limits::max_head
  too_many_fields,      ///< more than limits::max_fields field lines
  body_too_large,       ///< the body is longer than limits::max_body
};

/// The status a server answers with when a request fails with `error`:
/// 400, 413, 414, 431, 501 or 505 (200 for parse_error::none).
int status_for(parse_error error);

/// The reason phrase of a status that RFC 9110 defines: "Bad Request" for
/// 400, "Not Modified" for 304, ...; "" for others.
std::string_view reason_phrase(int status);

/// One short sentence saying what was wrong, for logs and error replies.
std::string_view describe(parse_error error);

/// The error's name as written in C++, such as "bare_cr".
std::string_view name_of(parse_error error);

/// How much a client may send before the parser refuses it. The defaults
/// suit a server of this course; every limit is checked as bytes arrive, so
/// a peer that never finishes cannot make the parser buffer more.
struct limits {
  std::size_t max_start_line = 8 * 1024;  ///< request (or status) line, without CRLF: 414
  std::size_t max_head = 16 * 1024;       ///< start line, fields and blank line: 431
  std::size_t max_fields = 100;           ///< field lines in a head or a trailer section: 431
  std::uint64_t max_body = 1024 * 1024;   ///< decoded body bytes: 413
};

/// The longest chunk-size line (size and extensions) the body decoder accepts.
inline constexpr std::size_t max_chunk_line = 1024;

}  // namespace rdv::http
