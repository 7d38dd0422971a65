#pragma once
/// \file
/// Chapter 2: the same machinery, for responses. Chapter 10's hub reads its
/// backends' answers with it: a status line instead of a request line, and
/// framing rules that depend on the request being answered.

#include "message_parser.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace rdv::http {

/// A response's head: views into the bytes the parser was given.
struct response_head {
  int version = 11;         ///< 11 for HTTP/1.1, 10 for HTTP/1.0
  int status = 0;           ///< 200, 404, ...
  std::string_view reason;  ///< "OK", "Not Found", ... (may be empty)
  field_list fields;        ///< the header fields, in order
};

/// Parses a status line (without CRLF) into `out`'s version, status and reason.
parse_error parse_status_line(std::string_view line, response_head& out);

/// Whether the connection may carry another response after this one: as for
/// requests (RFC 9112 §9.3), and never after a body that ran until the close.
bool keeps_alive(const response_head& head, const framing& body);

/// Parses the responses of one connection, like request_parser parses
/// requests. Before each response, say which request method it answers
/// (a response to HEAD has no body, whatever its fields say); a body that
/// runs until the connection closes ends with finish_at_close().
class response_parser : public message_parser {
public:
  /// A parser enforcing `limits`.
  explicit response_parser(const limits& limits = {}) : message_parser(limits) {}

  /// The method of the request that the next response answers ("GET" by default).
  void answering(std::string_view request_method) { request_method_ = request_method; }
  /// The current response's head (after event::head).
  const response_head& head() const { return head_; }
  /// Call when the connection has closed: returns whether that ended the
  /// current response's body (framing until_close), so the response is complete.
  bool finish_at_close() { return body().finish_at_close(); }

private:
  parse_error start_line(std::string_view line) override;
  parse_error head_done(std::string_view line, const field_list& fields, framing& out) override;

  response_head head_;
  std::string request_method_ = "GET";
  std::size_t reason_at_ = 0;  // in the status line
};

}  // namespace rdv::http
