#pragma once
/// \file
/// Chapter 2: an incremental, zero-copy HTTP/1.1 request parser. It does
/// what Erlang's `{packet, http}` socket option does (a request line, then
/// header fields, then the end of the head) and also frames the body, so
/// that pipelined requests follow one another on a connection.

#include "message_parser.hpp"

#include <cstddef>
#include <string_view>

namespace rdv::http {

/// A request's head: views into the bytes the parser was given.
struct request_head {
  std::string_view method;  ///< "GET", "POST", ...: case-sensitive, any token
  std::string_view target;  ///< "/index.html?q=1", "*", "host:443", "http://host/"
  int version = 11;         ///< 11 for HTTP/1.1, 10 for HTTP/1.0 (10 × major + minor)
  field_list fields;        ///< the header fields, in order
};

/// Parses a request line (without CRLF) into `out`'s method, target and
/// version, views into `line`.
parse_error parse_request_line(std::string_view line, request_head& out);

/// Whether the connection may carry another request after this one
/// (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`, HTTP/1.0 only with
/// `Connection: keep-alive`, and never after a 1.0 request with Transfer-Encoding.
bool keeps_alive(const request_head& head);

/// Parses the requests of one connection. Usage, with `buffer` holding the
/// bytes received and not yet used:
///
///     for (;;) {
///       const auto s = parser.next(buffer);
///       // event::head: parser.head(); event::body: s.data; event::end: answer
///       // event::error: answer status_for(parser.error()), then close
///       // event::need_more: read more into buffer
///       buffer.remove_prefix(s.used);
///     }
///
/// Besides the syntax, it applies the request rules of RFC 9112: a Host
/// field (exactly one in HTTP/1.1), only HTTP/1.x, and framing that two
/// parsers cannot read differently.
class request_parser : public message_parser {
public:
  /// A parser enforcing `limits`.
  explicit request_parser(const limits& limits = {}) : message_parser(limits) {}

  /// The current request's head (after event::head, until the next call
  /// after event::end).
  const request_head& head() const { return head_; }

private:
  parse_error start_line(std::string_view line) override;
  parse_error head_done(std::string_view line, const field_list& fields, framing& out) override;

  request_head head_;
  std::size_t method_size_ = 0, target_at_ = 0, target_size_ = 0;  // in the request line
};

}  // namespace rdv::http
