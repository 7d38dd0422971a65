// The definition of make_letter(), declared in message.hpp.
#pragma once

#include "message.hpp"

#include <new>
#include <type_traits>
#include <utility>

namespace rdv::proc {

//! [make_letter]
template <class T>
envelope* make_letter(message_pool& pool, T&& value) {
  using M = std::decay_t<T>;
  static_assert(std::is_move_constructible_v<M>, "a message must be movable");
  if constexpr (fits_block<M>) {
    void* block = pool.allocate(size_class_of<M>);
    try {
      return new (block) letter<M>{{nullptr, &message_type_of<M>}, std::forward<T>(value)};
    } catch (...) {
      pool.deallocate(block, size_class_of<M>);
      throw;
    }
  } else {
    return new letter<M>{{nullptr, &message_type_of<M>}, std::forward<T>(value)};
  }
}
//! [make_letter]

}  // namespace rdv::proc
