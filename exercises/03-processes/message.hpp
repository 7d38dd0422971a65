#pragma once
/// \file
/// Messages in flight: any movable C++ value, in an envelope that a mailbox
/// can chain, allocated from a per-scheduler pool of small blocks.

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

/// Memory for envelopes, in blocks of one cache line, recycled: after warming
/// up, sending a small message allocates nothing.
class message_pool {
public:
  /// The size of a block; a letter that fits gets one, a bigger one uses new.
  static constexpr std::size_t block_size = 64;

  message_pool() = default;
  /// Frees every block at once; the messages in them must be gone already.
  ~message_pool();
  message_pool(const message_pool&) = delete;
  message_pool& operator=(const message_pool&) = delete;

  /// A block of block_size bytes, aligned to block_size.
  void* allocate();
  /// Takes back a block that allocate() returned.
  void deallocate(void* block) noexcept;

private:
  struct free_block {
    free_block* next;
  };
  struct alignas(block_size) block {
    std::byte bytes[block_size];
  };
  void* grow();  // a new chunk of blocks; returns one of them

  free_block* free_ = nullptr;
  std::vector<std::unique_ptr<block[]>> chunks_;
};

/// Whether a letter of `M` fits a pool block.
template <class M>
inline constexpr bool fits_block =
    sizeof(letter<M>) <= message_pool::block_size && alignof(letter<M>) <= message_pool::block_size;

/// Destroys the letter of `M` in `e` and frees its memory.
template <class M>
void destroy_letter(envelope* e, message_pool& pool) noexcept {
  auto* l = static_cast<letter<M>*>(e);
  if constexpr (fits_block<M>) {
    l->~letter();
    pool.deallocate(l);
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
