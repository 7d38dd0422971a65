#include "body_decoder.hpp"

#include <algorithm>

namespace rdv::http {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
  return -1;
}

}  // namespace

//! [parse_chunk_size]
parse_error parse_chunk_size(std::string_view line, std::uint64_t& size) {
  // EXERCISE ch02.4: read the size of a chunk
  // HINT: chunk-size is one or more hex digits. What should happen when
  //       the digits no longer fit in 64 bits, and why is wrapping around
  //       the most dangerous answer?
  // HINT: After the digits come the extensions, none or several. You keep
  //       none of them, but each must follow the grammar on the page: what in
  //       http_lines.hpp reads a token, and what a quoted-string?
  // HINT: Whitespace may come before a `;` or an `=`, and after one; where
  //       may it not?
  // STUB: (void)line; (void)size; (void)&hex_digit;
  const char* p = line.data();
  const char* const end = p + line.size();
  size = 0;
  for (int digit; p != end && (digit = hex_digit(*p)) >= 0; ++p) {
    if (size >> 60 != 0) return parse_error::chunk_size_overflow;  // a 17th significant digit
    size = size * 16 + static_cast<std::uint64_t>(digit);
  }
  if (p == line.data()) return parse_error::bad_chunk_size;
  // Each extension: BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ].
  while (p != end) {
    p = std::find_if_not(p, end, is_ows);
    if (p == end || *p != ';') return parse_error::bad_chunk_size;  // "5 ", "5 5", "5;a b"
    const char* const name = std::find_if_not(p + 1, end, is_ows);
    p = find_token_end(name, end);
    if (p == name) return parse_error::bad_chunk_size;  // "5;", "5;=x"
    const char* const equals = std::find_if_not(p, end, is_ows);
    if (equals == end || *equals != '=') continue;  // a name alone
    const char* const value = std::find_if_not(equals + 1, end, is_ows);
    p = quoted_string_end(value, end);
    if (p == nullptr) p = find_token_end(value, end);
    if (p == value) return parse_error::bad_chunk_size;  // "5;a=", "5;a=\"open"
  }
  return parse_error::none;
  // END EXERCISE
}
//! [parse_chunk_size]

void body_decoder::start(framing how) {
  how_ = how;
  done_ = how.kind == body_kind::none || (how.kind == body_kind::length && how.length == 0);
  decoded_ = chunk_left_ = 0;
  state_ = chunk_state::size_line;
  lines_.start_at(0);
  trailers_.start(0, limits_.max_head);
  trailers_input_ = {};
  error_ = parse_error::none;
}

body_decoder::result body_decoder::decode(std::string_view input) {
  if (error_ != parse_error::none) return {status::failed, 0, {}};
  if (done_) return {status::done, 0, {}};
  switch (how_.kind) {
  case body_kind::length: return decode_length(input);
  case body_kind::chunked: return decode_chunked(input);
  case body_kind::until_close:
    if (input.empty()) return {status::need_more, 0, {}};
    if (input.size() > limits_.max_body - decoded_) return fail(parse_error::body_too_large);
    decoded_ += input.size();
    return {status::piece, input.size(), input};
  case body_kind::none: break;
  }
  return {status::done, 0, {}};
}

bool body_decoder::finish_at_close() {
  if (how_.kind == body_kind::until_close && error_ == parse_error::none) done_ = true;
  return done_;
}

body_decoder::result body_decoder::fail(parse_error error) {
  error_ = error;
  return {status::failed, 0, {}};
}

//! [decode_length]
body_decoder::result body_decoder::decode_length(std::string_view input) {
  if (input.empty()) return {status::need_more, 0, {}};
  const auto n =
      static_cast<std::size_t>(std::min<std::uint64_t>(how_.length - decoded_, input.size()));
  decoded_ += n;
  done_ = decoded_ == how_.length;
  return {status::piece, n, input.substr(0, n)};
}
//! [decode_length]

//! [decode_chunked]
body_decoder::result body_decoder::decode_chunked(std::string_view input) {
  std::size_t used = 0;  // bytes of `input` consumed so far
  for (;;) {
    const std::string_view rest = input.substr(used);
    std::optional<result> over;
    switch (state_) {
    case chunk_state::size_line: over = size_line(rest, used); break;
    case chunk_state::data: over = chunk_data(rest, used); break;
    case chunk_state::data_end: over = data_end(rest, used); break;
    case chunk_state::trailers: over = trailer_section(rest, used); break;
    }
    if (over) return *over;
  }
}

// Each state's step: given `rest`, the input from where the state's part
// begins, it either consumes some (adding to `used`) and moves to the next
// state, or returns what decode_chunked() returns.
std::optional<body_decoder::result> body_decoder::size_line(std::string_view rest,
                                                            std::size_t& used) {
  // EXERCISE ch02.5: read a chunk's size line, and go on to its data or to the trailers
  // HINT: The line may still be arriving. lines_ finds a whole line in
  //       input that starts where the line starts (rest); what do you
  //       answer while it is incomplete, and what is kept for next time?
  // HINT: Which limit does every chunk bring you closer to, and when can
  //       you tell that this chunk would pass it?
  // HINT: A size of 0 is the last chunk: what comes after it?
  // STUB: (void)rest; (void)used;
  std::string_view line;
  switch (lines_.next(rest, max_chunk_line, line, error_)) {
  case line_status::incomplete: return result{status::need_more, used, {}};
  case line_status::invalid: return fail(error_);
  case line_status::too_long: return fail(parse_error::bad_chunk_size);
  case line_status::complete: break;
  }
  std::uint64_t size = 0;
  if (const parse_error e = parse_chunk_size(line, size); e != parse_error::none) return fail(e);
  if (size > limits_.max_body - decoded_) return fail(parse_error::body_too_large);
  used += line.size() + 2;
  chunk_left_ = size;
  state_ = size == 0 ? chunk_state::trailers : chunk_state::data;
  return std::nullopt;
  // END EXERCISE
}

std::optional<body_decoder::result> body_decoder::chunk_data(std::string_view rest,
                                                             std::size_t used) {
  // EXERCISE ch02.6: decode the rest of a chunked body: the data, the CRLF after it, the trailers
  // HINT: A chunk's data may come in many reads, and a read may end
  //       inside it. How much of `rest` is this chunk's, and what do
  //       you return so that the caller sees it without a copy?
  // STUB: (void)rest; (void)used;
  if (rest.empty()) return result{status::need_more, used, {}};
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk_left_, rest.size()));
  chunk_left_ -= n;
  decoded_ += n;
  if (chunk_left_ == 0) state_ = chunk_state::data_end;
  return result{status::piece, used + n, rest.substr(0, n)};
  // END EXERCISE
}

std::optional<body_decoder::result> body_decoder::data_end(std::string_view rest,
                                                           std::size_t& used) {
  // EXERCISE ch02.6, part 2: check the CRLF that ends a chunk's data
  // HINT: Only CRLF may follow the data. Which inputs are not wrong yet,
  //       only incomplete?
  // HINT: The next size line starts after the CRLF: what must lines_ forget?
  // STUB: (void)rest; (void)used;
  if (rest.empty() || rest == "\r") return result{status::need_more, used, {}};
  if (!rest.starts_with("\r\n")) return fail(parse_error::bad_chunk_end);
  used += 2;
  lines_.start_at(0);
  state_ = chunk_state::size_line;
  return std::nullopt;
  // END EXERCISE
}

std::optional<body_decoder::result> body_decoder::trailer_section(std::string_view rest,
                                                                  std::size_t used) {
  // EXERCISE ch02.6, part 3: read the trailer section, and end the body
  // HINT: Trailer fields look like header fields, and end the same way.
  //       Which member parses a field section, and what does it need to
  //       be given each time?
  // HINT: The body ends where the trailer section ends. How many bytes of
  //       `input` has the caller then consumed?
  // STUB: (void)rest; (void)used;
  switch (trailers_.parse(rest, limits_)) {
  case parse_status::need_more: return result{status::need_more, used, {}};
  case parse_status::failed: return fail(trailers_.error());
  case parse_status::done: break;
  }
  trailers_input_ = rest;
  done_ = true;
  return result{status::done, used + trailers_.end(), {}};
  // END EXERCISE
}
//! [decode_chunked]

}  // namespace rdv::http
