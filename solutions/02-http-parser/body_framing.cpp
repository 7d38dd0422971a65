#include "body_framing.hpp"

#include <algorithm>
#include <charconv>

namespace rdv::http {

namespace {

// Calls `each` with every element of the comma-separated `list` (see
// any_element()) until it returns an error, and returns that.
template <class Each>
parse_error for_each_element(std::string_view list, Each each) {
  parse_error error = parse_error::none;
  any_element(list, [&](std::string_view element) {
    error = each(element);
    return error != parse_error::none;
  });
  return error;
}

//! [decimal]
// `digits` as a number, if they are one: decimal digits only (no sign, no
// space), and within 64 bits.
std::optional<std::uint64_t> decimal(std::string_view digits) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  return n;  // "+5", "-1", "5 5", "0x10", "" and 2^64 are none
}
//! [decimal]

}  // namespace

//! [parse_content_length]
parse_error parse_content_length(std::string_view value, std::optional<std::uint64_t>& length) {
  const auto agree = [&length](std::uint64_t n) {  // with the number before it, if any
    if (length && *length != n) return parse_error::conflicting_content_length;
    length = n;
    return parse_error::none;
  };
  // Nearly always a single number: taken as it is, without walking a list.
  if (const auto n = decimal(value)) return agree(*n);
  if (trim_ows(value).empty()) return parse_error::bad_content_length;
  return for_each_element(value, [&](std::string_view number) {
    const auto n = decimal(number);
    return n ? agree(*n) : parse_error::bad_content_length;
  });
}
//! [parse_content_length]

//! [check_transfer_codings]
parse_error check_transfer_codings(const field_list& fields) {
  bool chunked_last = false, other = false;
  for (const field f : fields) {
    if (!iequals(f.name, "transfer-encoding")) continue;
    const parse_error e = for_each_element(f.value, [&](std::string_view coding) {
      const bool chunked = iequals(coding, "chunked");
      if (chunked && chunked_last) return parse_error::bad_transfer_encoding;   // twice
      if (!chunked && chunked_last) return parse_error::bad_transfer_encoding;  // not last
      chunked_last = chunked;
      other |= !chunked;
      return parse_error::none;
    });
    if (e != parse_error::none) return e;
  }
  if (!chunked_last) return parse_error::bad_transfer_encoding;  // no way to find the end
  return other ? parse_error::unknown_transfer_coding : parse_error::none;
}
//! [check_transfer_codings]

//! [request_framing]
parse_error request_framing(const field_list& fields, const limits& limits, framing& out) {
  // EXERCISE ch02.3: decide where the request's body ends
  // HINT: Which fields can announce a body? Look for them by name, ignoring
  //       case; parse_content_length() reads a Content-Length value.
  // HINT: Two Content-Length fields that disagree, or a Content-Length next
  //       to a Transfer-Encoding: what would a proxy in front of you do with
  //       them, and what if it chose differently?
  // HINT: A request that announces neither has no body at all. Which limit
  //       can you enforce before reading a single byte of the body?
  // STUB: (void)fields; (void)limits; (void)out;
  std::optional<std::uint64_t> length;
  bool transfer_encoding = false;
  for (const field f : fields) {
    if (iequals(f.name, "content-length")) {
      if (const parse_error e = parse_content_length(f.value, length); e != parse_error::none) {
        return e;
      }
    } else if (iequals(f.name, "transfer-encoding")) {
      transfer_encoding = true;
    }
  }
  if (transfer_encoding && length) return parse_error::length_and_transfer_encoding;
  if (transfer_encoding) {
    out = {body_kind::chunked, 0};
    return check_transfer_codings(fields);
  }
  if (length > limits.max_body) return parse_error::body_too_large;
  out = length ? framing{body_kind::length, *length} : framing{body_kind::none, 0};
  return parse_error::none;
  // END EXERCISE
}
//! [request_framing]

parse_error response_framing(int status, std::string_view request_method, const field_list& fields,
                             const limits& limits, framing& out) {
  out = {body_kind::none, 0};
  if (request_method == "HEAD" || status / 100 == 1 || status == 204 || status == 304) {
    return parse_error::none;  // whatever the fields say (RFC 9112 §6.3, rules 1 and 2)
  }
  if (request_method == "CONNECT" && status / 100 == 2) return parse_error::none;  // a tunnel
  // A response is framed like a request, except that it may also run until
  // the connection closes.
  const parse_error e = request_framing(fields, limits, out);
  if (e == parse_error::none && out.kind == body_kind::none) out.kind = body_kind::until_close;
  return e;
}

}  // namespace rdv::http
