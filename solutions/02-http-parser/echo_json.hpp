#pragma once
/// \file
/// Chapter 2: how `echo` shows a request as JSON: method, target, version,
/// the header fields in order, how the body was framed, the body itself
/// (text, or base64 when it is not UTF-8) and the trailer fields.

#include "body_framing.hpp"
#include "http_fields.hpp"
#include "request_parser.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

/// Chapter 2's `echo` program: answers every request with what the parser saw.
namespace rdv::echo {

/// Whether `bytes` are well-formed UTF-8 (no overlong forms, no surrogates).
bool is_utf8(std::string_view bytes);

/// `bytes` in base64 (RFC 4648, with padding).
std::string base64(std::string_view bytes);

/// The head of a request as JSON: method, target, version, fields, framing.
boost::json::object describe_head(const http::request_head& head, const http::framing& framing);

/// Adds the body (as "body" and "body_encoding") and the trailer fields to a
/// description made by describe_head().
void describe_body(boost::json::object& description, std::string_view body,
                   const http::field_list& trailers);

/// A rejected request as JSON: the error, its status, and why.
boost::json::object describe_error(http::parse_error error);

}  // namespace rdv::echo
