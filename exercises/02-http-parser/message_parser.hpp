#pragma once
/// \file
/// Chapter 2: what parsing a request and parsing a response share: a start
/// line, header fields, a blank line, a body, and then the next message on
/// the same connection. request_parser and response_parser fill in the
/// start line and the framing rules.

#include "body_decoder.hpp"
#include "body_framing.hpp"
#include "http_fields.hpp"
#include "http_lines.hpp"
#include "parse_error.hpp"

#include <cstddef>
#include <string_view>

namespace rdv::http {

/// What a call to message_parser::next() found, in the order a message
/// delivers them: one head, zero or more body pieces, one end.
enum class event {
  need_more,  ///< all useful input is used: read more, then call next() again
  head,       ///< the start line and header fields are complete
  body,       ///< a piece of the body (step::data)
  end,        ///< the message is complete; the next call starts the next one
  error,      ///< the message is invalid: see error(); give up on the connection
};

/// The result of one call to message_parser::next().
struct step {
  event what = event::need_more;  ///< what was found
  std::size_t used = 0;           ///< how many bytes of the input to drop before the next call
  std::string_view data;          ///< the piece of body, on event::body
};

/// The machinery shared by request_parser and response_parser. Feed it the
/// bytes of a connection as they arrive, in any split:
///
///     step s = parser.next(unused_bytes);   // then drop s.used bytes
///
/// The head's views (and the trailers') point into the input of the call
/// that returned them, and stay valid while those bytes stay where they are.
/// The parser keeps no copy of the input and, once warm, allocates nothing.
class message_parser {
public:
  /// A parser enforcing `limits`.
  explicit message_parser(const limits& limits);
  virtual ~message_parser() = default;
  message_parser(const message_parser&) = delete;
  message_parser& operator=(const message_parser&) = delete;

  /// Parses what it can of `input`: the bytes of the connection not yet
  /// used (dropped) after earlier steps, followed by any new ones.
  step next(std::string_view input);
  /// Starts over, for a new connection.
  void reset();

  /// The current message's header fields (after event::head).
  const field_list& fields() const { return fields_; }
  /// How the current message's body is framed (after event::head).
  const framing& body_framing() const { return body_.how(); }
  /// The trailer fields of a chunked body (after event::end).
  field_list trailers() const { return body_.trailers(); }
  /// Why the message was rejected (after event::error).
  parse_error error() const { return error_; }

protected:
  /// Called when the start line is complete (without CRLF); checks it and
  /// remembers what it needs, as offsets into `line`.
  virtual parse_error start_line(std::string_view line) = 0;
  /// Called when the head is complete, with the start line as a view into
  /// the current input: builds the head and decides the body's framing.
  virtual parse_error head_done(std::string_view line, const field_list& fields, framing& out) = 0;
  /// The limits this parser enforces.
  const limits& limits_in_force() const { return limits_; }
  /// The body decoder, for parsers that end a body at connection close.
  body_decoder& body() { return body_; }

private:
  enum class state { start_line, fields, body, failed };
  step parse_head(std::string_view input);
  step fail(parse_error error);

  limits limits_;
  state state_ = state::start_line;
  line_reader lines_;          // the start line, as it arrives
  std::size_t line_at_ = 0;    // where the start line begins (after empty lines)
  std::size_t line_size_ = 0;  // its length, without CRLF
  field_block block_;          // the header section, as it arrives
  field_list fields_;
  body_decoder body_;
  parse_error error_ = parse_error::none;
};

}  // namespace rdv::http
