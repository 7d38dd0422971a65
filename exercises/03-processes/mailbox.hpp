#pragma once
/// \file
/// A process's mailbox: its messages in arrival order, from which a selective
/// receive takes the first one of a type it wants and leaves the others.

#include "message.hpp"

#include <cstddef>
#include <span>

namespace rdv::proc {

/// The types a receive wants, in the order of its handlers.
using wanted_types = std::span<const message_type* const>;

/// One process's queue of messages, oldest first: a singly linked list of
/// envelopes with a pointer to its last link, so that appending is O(1) and
/// a message can be unlinked from the middle.
class mailbox {
public:
  /// Where a selective receive goes on looking after it has waited: the link
  /// that points to the first message it has not looked at yet. New messages
  /// are only ever appended, so a cursor stays valid while its receive waits.
  using cursor = envelope**;

  mailbox() = default;
  mailbox(const mailbox&) = delete;
  mailbox& operator=(const mailbox&) = delete;

  /// Appends `e` (whose `next` is null); the mailbox owns it from now on.
  void push(envelope* e) noexcept {
    *tail_ = e;
    tail_ = &e->next;
  }

  /// Takes the first message at or after `at`, in arrival order, whose type
  /// is one of `wanted`: unlinks it and returns it (the caller owns it now),
  /// leaving `at` where the next look should start. Returns nullptr when no
  /// message from `at` on is wanted; `at` then points to the last link, so
  /// that a second call looks only at messages that came since.
  envelope* take(wanted_types wanted, cursor& at);

  /// A cursor at the oldest message.
  cursor front() noexcept { return &head_; }
  /// Whether no message is waiting.
  bool empty() const noexcept { return head_ == nullptr; }
  /// How many messages are waiting (walks the list).
  std::size_t size() const noexcept;
  /// Destroys every message, freeing their envelopes into `pool`.
  void clear(message_pool& pool) noexcept;

private:
  envelope* head_ = nullptr;
  envelope** tail_ = &head_;  // the link a new message goes into
};

}  // namespace rdv::proc
