#pragma once
/// \file
/// Chapter 7: the bytes of one connection, read into a buffer in which
/// messages are parsed in place (chapter 2's parsers keep views into it).

#include "block_pool.hpp"
#include "parse_error.hpp"

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace rdv::web {

/// A connection's input: bytes are read in at the end (room(), received())
/// and parsed from the front (unparsed(), used()). It starts small, as most
/// heads are, and grows each time the reads fill it, up to most(): a head
/// that does not fit, or a batch of pipelined requests, needs more.
///
/// A parsed head can be *kept* (keep_head()): the views into it then stay
/// valid, because make_room() moves only the bytes after it and no longer
/// grows the buffer, which would move it. What the rest of the message
/// needs (room for a body's pieces, a whole trailer section) is asked for
/// before the head is kept, with room_after_head(); if that had to move the
/// bytes, the head is parsed again from where its message began.
class connection_buffer {
public:
  /// An empty buffer for messages within `limits`.
  explicit connection_buffer(const http::limits& limits);

  /// The largest the buffer grows for `limits`: the longest head, a whole
  /// trailer section after it, and room for a body's pieces.
  static std::size_t most(const http::limits& limits);

  /// The bytes read and not yet used by the parser.
  std::string_view unparsed() const { return {bytes_.data() + parsed_, filled_ - parsed_}; }
  /// The parser has used `n` more bytes of unparsed().
  void used(std::size_t n) { parsed_ += n; }

  /// Makes sure `room` bytes follow the head just parsed (the bytes used
  /// since the message began), compacting and growing as needed while the
  /// head is not kept yet. Returns false if it left the bytes where they
  /// were; true if it moved them, and then unparsed() starts again at the
  /// message's first byte, for the head to be parsed again.
  bool room_after_head(std::size_t room);
  /// Keeps the bytes used so far, the message's head, where they are until
  /// next_message().
  void keep_head() { kept_ = parsed_; }
  /// The message is done: the next one begins at unparsed().
  void next_message() { begin_ = kept_ = parsed_; }

  /// Makes room at the end for another read: drops what the parser has used
  /// (but a kept head), moves what it has not to follow, and, when no head
  /// is kept, grows the buffer, which the reads filled. False if there is
  /// no room left: the message cannot fit.
  bool make_room();
  /// Where the next read goes.
  boost::asio::mutable_buffer room() { return {bytes_.data() + filled_, bytes_.size() - filled_}; }
  /// `n` bytes were read into room().
  void received(std::size_t n) { filled_ += n; }
  /// Whether bytes read are waiting to be parsed (another request, say).
  bool has_unparsed() const { return filled_ > parsed_; }

  /// Moves the current message, and whatever was read after it, into a
  /// buffer just their size, and gives the larger one back: false if that
  /// would not make it smaller. If it did, unparsed() starts again at the
  /// message's first byte, for the head to be parsed again; the next
  /// make_room() grows it back to its first size.
  bool shrink_to_message();

  /// The buffer's size now.
  std::size_t capacity() const { return bytes_.size(); }

private:
  void move_down(std::size_t from, std::size_t to);  // [from, filled_) to `to`

  std::vector<char, first_block_allocator> bytes_;  // the first size from the pool's pages
  std::size_t first_;                               // its first size, the least it grows back to
  std::size_t most_;
  std::size_t begin_ = 0;   // where the current message begins
  std::size_t kept_ = 0;    // where its kept head ends (begin_: nothing kept)
  std::size_t parsed_ = 0;  // how far the parser has used the bytes
  std::size_t filled_ = 0;  // how far bytes have been read
};

}  // namespace rdv::web
