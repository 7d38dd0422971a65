#pragma once
/// \file
/// Messages in flight: any movable C++ value, in an envelope that a mailbox
/// can chain, allocated from a per-scheduler pool of small blocks.

#include <array>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace rdv::proc {

class message_pool;
struct envelope;

/// What a mailbox knows of a message's type. There is one message_type object
/// per C++ type (message_type_of), so its address is the type's identity:
/// matching a message is one pointer comparison.
struct message_type {
  /// Destroys the message in `e` and gives its memory back to `pool`.
  void (*destroy)(envelope* e, message_pool& pool) noexcept;
};

/// What every message carries in a mailbox: a link and its type.
struct envelope {
  envelope* next = nullptr;            ///< the next message, in arrival order
  const message_type* type = nullptr;  ///< what the message is
};

/// An envelope with a message of type `M` in it.
template <class M>
struct letter : envelope {
  M message;  ///< the value that was sent
};

/// Memory for envelopes, in blocks of one, two or four cache lines,
/// recycled: after warming up, sending a message of up to a few hundred
/// bytes allocates nothing.
class message_pool {
public:
  /// The sizes of the blocks, smallest first: a letter gets the smallest
  /// that fits it, and one bigger than them all uses new.
  static constexpr std::array<std::size_t, 3> block_sizes{64, 128, 256};
  /// The alignment of every block: a cache line.
  static constexpr std::size_t block_align = 64;

  /// The size class of a letter of `size` bytes: the index in block_sizes
  /// of the smallest block it fits, or block_sizes.size() if none.
  static constexpr std::size_t size_class(std::size_t size) {
    std::size_t c = 0;
    while (c < block_sizes.size() && block_sizes[c] < size) ++c;
    return c;
  }

  message_pool() = default;
  /// Frees every block at once; the messages in them must be gone already.
  ~message_pool();
  message_pool(const message_pool&) = delete;
  message_pool& operator=(const message_pool&) = delete;

  /// A block of block_sizes[size_class] bytes, aligned to block_align.
  void* allocate(std::size_t size_class);
  /// Takes back a block that allocate(size_class) returned.
  void deallocate(void* block, std::size_t size_class) noexcept;

private:
  struct free_block {
    free_block* next;
  };
  struct alignas(block_align) line {
    std::byte bytes[block_align];
  };
  void* grow(std::size_t size_class);  // a new chunk of blocks; returns one of them

  std::array<free_block*, block_sizes.size()> free_{};  // one list per size
  std::vector<std::unique_ptr<line[]>> chunks_;
};

/// The size class of a letter of `M` (see message_pool::size_class()).
template <class M>
inline constexpr std::size_t size_class_of = message_pool::size_class(sizeof(letter<M>));

/// Whether a letter of `M` fits a pool block.
template <class M>
inline constexpr bool fits_block = size_class_of<M> < message_pool::block_sizes.size() &&
                                   alignof(letter<M>) <= message_pool::block_align;

/// Destroys the letter of `M` in `e` and frees its memory.
template <class M>
void destroy_letter(envelope* e, message_pool& pool) noexcept {
  auto* l = static_cast<letter<M>*>(e);
  if constexpr (fits_block<M>) {
    l->~letter();
    pool.deallocate(l, size_class_of<M>);
  } else {
    delete l;
  }
}

/// The one message_type of `M`.
template <class M>
inline constexpr message_type message_type_of{&destroy_letter<M>};

/// Puts `value` in a new envelope from `pool`; the caller owns the envelope
/// until a mailbox takes it.
template <class T>
envelope* make_letter(message_pool& pool, T&& value);

/// The message in `e`, which must hold an `M`.
template <class M>
M& message_in(envelope* e) noexcept {
  return static_cast<letter<M>*>(e)->message;
}

/// Owns an envelope taken from a mailbox until it goes out of scope.
class envelope_owner {
public:
  /// Takes ownership of `e`.
  envelope_owner(envelope* e, message_pool& pool) noexcept : envelope_(e), pool_(pool) {}
  /// Destroys the message and frees its envelope.
  ~envelope_owner() { envelope_->type->destroy(envelope_, pool_); }
  envelope_owner(const envelope_owner&) = delete;
  envelope_owner& operator=(const envelope_owner&) = delete;

private:
  envelope* envelope_;
  message_pool& pool_;
};

}  // namespace rdv::proc

#include "message.ipp"  // make_letter()
