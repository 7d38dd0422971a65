#include "mailbox.hpp"

#include <algorithm>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

namespace rdv::proc {

//! [take]
envelope* mailbox::take(wanted_types wanted, cursor& at) {
  // TODO(ch03.2): take the first wanted message in arrival order, leave the others
  // Hint: `at` points to a link (head_, or some envelope's `next`). What does `*at`
  //   point to, and how do you step to the following link? (more: ./course hint 03 2)
  (void)wanted; (void)at;
  throw rdv::todo("ch03.2", "take the first wanted message in arrival order, leave the others");
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
