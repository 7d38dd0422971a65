#include "body_decoder.hpp"

#include <algorithm>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

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
  // TODO(ch02.4): read the size of a chunk
  // Hint: chunk-size is one or more hex digits. What should happen when the digits no
  //   longer fit in 64 bits, and why is wrapping around the most dangerous answer?
  //   (more: ./course hint 02 4)
  (void)line; (void)size; (void)&hex_digit;
  throw rdv::todo("ch02.4", "read the size of a chunk");
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
  // TODO(ch02.5): read a chunk's size line, and go on to its data or to the trailers
  // Hint: The line may still be arriving. lines_ finds a whole line in input that
  //   starts where the line starts (rest); what do you answer while it is incomplete,
  //   and what is kept for next time? (more: ./course hint 02 5)
  (void)rest; (void)used;
  throw rdv::todo("ch02.5", "read a chunk's size line, and go on to its data or to the trailers");
}

std::optional<body_decoder::result> body_decoder::chunk_data(std::string_view rest,
                                                             std::size_t used) {
  // TODO(ch02.6, part 1 of 3): decode the rest of a chunked body: the data, the CRLF after it, the trailers
  // Hint: A chunk's data may come in many reads, and a read may end inside it. How much
  //   of `rest` is this chunk's, and what do you return so that the caller sees it
  //   without a copy? (more: ./course hint 02 6)
  (void)rest; (void)used;
  throw rdv::todo("ch02.6", "decode the rest of a chunked body: the data, the CRLF after it, the trailers");
}

std::optional<body_decoder::result> body_decoder::data_end(std::string_view rest,
                                                           std::size_t& used) {
  // TODO(ch02.6, part 2 of 3): check the CRLF that ends a chunk's data
  // Hint: Only CRLF may follow the data. Which inputs are not wrong yet, only
  //   incomplete? (more: ./course hint 02 6)
  (void)rest; (void)used;
  throw rdv::todo("ch02.6", "check the CRLF that ends a chunk's data");
}

std::optional<body_decoder::result> body_decoder::trailer_section(std::string_view rest,
                                                                  std::size_t used) {
  // TODO(ch02.6, part 3 of 3): read the trailer section, and end the body
  // Hint: Trailer fields look like header fields, and end the same way. Which member
  //   parses a field section, and what does it need to be given each time? (more:
  //   ./course hint 02 6)
  (void)rest; (void)used;
  throw rdv::todo("ch02.6", "read the trailer section, and end the body");
}
//! [decode_chunked]

}  // namespace rdv::http
