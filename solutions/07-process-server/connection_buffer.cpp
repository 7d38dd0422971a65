#include "connection_buffer.hpp"

#include <algorithm>

namespace rdv::web {

connection_buffer::connection_buffer(const http::limits& limits)
    : bytes_(std::min<std::size_t>(2048, most(limits))), first_(bytes_.size()),
      most_(most(limits)) {}

std::size_t connection_buffer::most(const http::limits& limits) {
  return limits.max_start_line + 2 * limits.max_head + http::max_chunk_line + 4096;
}

void connection_buffer::move_down(std::size_t from, std::size_t to) {
  const auto at = [this](std::size_t i) { return bytes_.begin() + static_cast<std::ptrdiff_t>(i); };
  std::copy(at(from), at(filled_), at(to));
  filled_ = to + (filled_ - from);
}

//! [room_after_head]
bool connection_buffer::room_after_head(std::size_t room) {
  if (bytes_.size() - parsed_ >= room) return false;  // there is room: the head stays put
  const std::size_t head = parsed_ - begin_;
  const std::size_t size = std::min(most_, std::max(bytes_.size(), head + room));
  if (begin_ == 0 && size == bytes_.size()) return false;  // as much as there can be
  move_down(begin_, 0);  // the message to the front, in a buffer big enough
  bytes_.resize(size);
  begin_ = kept_ = parsed_ = 0;  // the head's views pointed into the old place: parse it again
  return true;
}
//! [room_after_head]

//! [make_room]
bool connection_buffer::make_room() {
  if (filled_ < bytes_.size()) return true;
  if (kept_ != begin_) {  // a kept head stays; what the parser used after it goes
    move_down(parsed_, kept_);
    parsed_ = kept_;
    return filled_ < bytes_.size();
  }
  move_down(parsed_, 0);  // nothing is kept: everything used goes
  begin_ = kept_ = parsed_ = 0;
  // The reads filled it: the client sends more than it holds (a head that
  // does not fit, or pipelined requests coming faster than their answers).
  if (bytes_.size() < most_) {
    bytes_.resize(std::min(std::max(2 * bytes_.size(), first_), most_));
  }
  return filled_ < bytes_.size();
}
//! [make_room]

//! [shrink_to_message]
bool connection_buffer::shrink_to_message() {
  const std::size_t size = filled_ - begin_;
  if (size >= bytes_.size()) return false;
  const auto at = [this](std::size_t i) { return bytes_.begin() + static_cast<std::ptrdiff_t>(i); };
  std::vector<char, first_block_allocator> just_enough(at(begin_), at(filled_));
  bytes_.swap(just_enough);  // and the large one goes with just_enough
  filled_ = size;
  begin_ = kept_ = parsed_ = 0;
  return true;
}
//! [shrink_to_message]

}  // namespace rdv::web
