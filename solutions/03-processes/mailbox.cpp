#include "mailbox.hpp"

#include <algorithm>

namespace rdv::proc {

//! [take]
envelope* mailbox::take(wanted_types wanted, cursor& at) {
  // EXERCISE ch03.2: take the first wanted message in arrival order, leave the others
  // HINT: `at` points to a link (head_, or some envelope's `next`). What does
  //       `*at` point to, and how do you step to the following link?
  // HINT: Unlinking a message means making the link that points to it point past it.
  //       Which other member must change when the message you take is the last one?
  // HINT: Each message's `type` is a pointer; compare it with the pointers in `wanted`.
  // STUB: (void)wanted; (void)at;
  for (; *at != nullptr; at = &(*at)->next) {
    envelope* e = *at;
    if (std::find(wanted.begin(), wanted.end(), e->type) == wanted.end()) continue;
    *at = e->next;                      // unlink it; `at` now points to the message after it
    if (tail_ == &e->next) tail_ = at;  // it was the last one
    e->next = nullptr;
    return e;
  }
  return nullptr;
  // END EXERCISE
}
//! [take]

std::size_t mailbox::size() const noexcept {
  std::size_t count = 0;
  for (const envelope* e = head_; e != nullptr; e = e->next) ++count;
  return count;
}

void mailbox::clear(message_pool& pool) noexcept {
  while (envelope* e = head_) {
    head_ = e->next;
    e->type->destroy(e, pool);
  }
  tail_ = &head_;
}

}  // namespace rdv::proc
