#pragma once
/// \file
/// Chapter 2: where a message's body ends (RFC 9112 §6.3). The header
/// fields decide it before the first body byte arrives; a message whose
/// framing is ambiguous is rejected, because two parsers that frame it
/// differently see different requests in the same bytes.

#include "http_fields.hpp"
#include "parse_error.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace rdv::http {

/// How a body is delimited.
enum class body_kind {
  none,         ///< no body: the next message starts right after the head
  length,       ///< exactly framing::length bytes (Content-Length)
  chunked,      ///< chunked transfer coding, ended by a zero-size chunk
  until_close,  ///< everything until the connection closes (responses only)
};

/// The framing of one message's body.
struct framing {
  body_kind kind = body_kind::none;  ///< how the body is delimited
  std::uint64_t length = 0;          ///< the body's size when kind is length
};

/// Parses a Content-Length value into `length`: digits only, or a list of
/// identical numbers (`42, 42`, which RFC 9110 §8.6 allows). If `length`
/// already holds a value (from an earlier Content-Length field), the new
/// one must be the same.
parse_error parse_content_length(std::string_view value, std::optional<std::uint64_t>& length);

/// Checks the Transfer-Encoding fields of a message that has some: chunked
/// must be the last coding and appear once (bad_transfer_encoding), and
/// this parser implements no other coding (unknown_transfer_coding).
parse_error check_transfer_codings(const field_list& fields);

/// How a request's body is framed, from its fields (RFC 9112 §6.3):
/// Transfer-Encoding (chunked), Content-Length, or no body at all.
parse_error request_framing(const field_list& fields, const limits& limits, framing& out);

/// How a response's body is framed. It also depends on the status (1xx,
/// 204 and 304 have no body) and on the request it answers (HEAD gets none);
/// without Content-Length or Transfer-Encoding it runs until the connection
/// closes. Ambiguous framing is rejected as for requests, even where RFC 9112
/// would let a client guess: a proxy that guesses can be made to desync.
parse_error response_framing(int status, std::string_view request_method, const field_list& fields,
                             const limits& limits, framing& out);

}  // namespace rdv::http
