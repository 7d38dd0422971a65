#pragma once
/// \file
/// Chapter 2: decoding a body as it arrives, for requests and responses
/// alike: Content-Length, chunked (with trailer fields), or until the
/// connection closes. Body bytes are handed out as views into the input.

#include "body_framing.hpp"
#include "http_fields.hpp"
#include "http_lines.hpp"
#include "parse_error.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rdv::http {

/// Parses one chunk-size line (without its CRLF): hex digits, then optional
/// chunk extensions, which are checked for syntax and otherwise ignored.
parse_error parse_chunk_size(std::string_view line, std::uint64_t& size);

/// Decodes one body, piece by piece, from input that arrives in any split.
class body_decoder {
public:
  /// What one call to decode() found.
  enum class status {
    piece,      ///< `data` holds the next body bytes; call again with the rest
    need_more,  ///< nothing more comes of this input: read more, then call again with
                ///< the bytes not `used` (a part of a line, say) and the new ones
    done,       ///< the body is complete (and so are its trailers)
    failed,     ///< the body is malformed or too large: see error()
  };
  /// The result of one call to decode().
  struct result {
    status what = status::need_more;  ///< what happened
    std::size_t used = 0;             ///< bytes of the input this call consumed
    std::string_view data;            ///< the piece of body, a view into the input
  };

  /// A decoder that enforces `limits` (max_body, and the trailer section's).
  explicit body_decoder(const limits& limits = {}) : limits_(limits) {}

  /// Starts decoding a body framed as `how`.
  void start(framing how);
  /// Decodes from `input`, which starts with the first byte that earlier
  /// calls did not use. Returns at most one piece per call.
  result decode(std::string_view input);
  /// Tells the decoder that the connection closed: completes an until_close
  /// body; returns false if the body was not complete.
  bool finish_at_close();

  /// The framing given to start().
  const framing& how() const { return how_; }
  /// How many body bytes decode() has handed out so far.
  std::uint64_t decoded() const { return decoded_; }
  /// The trailer fields of a chunked body, once decode() returned done; views
  /// into the input of that call.
  field_list trailers() const { return trailers_.fields(trailers_input_); }
  /// Why decode() failed.
  parse_error error() const { return error_; }

private:
  enum class chunk_state { size_line, data, data_end, trailers };
  result decode_length(std::string_view input);
  result decode_chunked(std::string_view input);
  // decode_chunked()'s step in each state: nothing to go on to the next.
  std::optional<result> size_line(std::string_view rest, std::size_t& used);
  std::optional<result> chunk_data(std::string_view rest, std::size_t used);
  std::optional<result> data_end(std::string_view rest, std::size_t& used);
  std::optional<result> trailer_section(std::string_view rest, std::size_t used);
  result fail(parse_error error);

  limits limits_;
  framing how_;
  bool done_ = false;
  std::uint64_t decoded_ = 0;     // body bytes handed out
  std::uint64_t chunk_left_ = 0;  // bytes of the current chunk not yet handed out
  chunk_state state_ = chunk_state::size_line;
  line_reader lines_;                // the chunk-size line, as it arrives
  field_block trailers_;             // the trailer section, as it arrives
  std::string_view trailers_input_;  // the input the trailer section was parsed in
  parse_error error_ = parse_error::none;
};

}  // namespace rdv::http
