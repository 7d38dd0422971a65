#include "alarm_clock.hpp"

#include "event_loop.hpp"

#include <utility>

namespace rdv::proc {

alarm_clock::alarm::alarm(ref tag)
    : clock_(scheduler::current().use<alarm_clock>()), owner_(self()), tag_(tag) {}

void alarm_clock::alarm::ring() { clock_.node_.send(owner_, rang{tag_}); }

//! [set]
void alarm_clock::alarm::set(clock::time_point at) {
  if (at == at_) return;  // set for it already, or rang for it
  clear();
  at_ = at;
  if (at != clock::time_point::max()) clock_.insert(*this);
}

void alarm_clock::alarm::set_after(clock::duration limit) {
  const clock::time_point now = clock::now();
  set(limit < clock::time_point::max() - now ? now + limit : clock::time_point::max());
}

void alarm_clock::alarm::clear() noexcept {
  if (place_ != unset) clock_.erase(*this);
  at_ = clock::time_point::max();
}
//! [set]

alarm_clock::alarm_clock(scheduler& node) : node_(node), timer_(node.use<event_loop>().context()) {}

alarm_clock::~alarm_clock() {
  *alive_ = false;  // a completion already on its way must not touch what is gone
}

//! [heap]
// The heap: heap_[0] is the earliest alarm's entry, and every entry is no
// later than the two below it (slots 2i+1 and 2i+2). An alarm's place knows
// its slot, so that one that is cleared leaves from the middle in O(log n):
// the last entry takes its slot and moves up or down to where it belongs.
void alarm_clock::put(entry e, std::size_t slot) noexcept {
  heap_[slot] = e;
  places_[e.place].slot = slot;
}

void alarm_clock::move_up(std::size_t slot) noexcept {
  const entry e = heap_[slot];
  while (slot > 0) {
    const std::size_t parent = (slot - 1) / 2;
    if (heap_[parent].at <= e.at) break;
    put(heap_[parent], slot);
    slot = parent;
  }
  put(e, slot);
}

void alarm_clock::move_down(std::size_t slot) noexcept {
  const entry e = heap_[slot];
  for (;;) {
    std::size_t child = 2 * slot + 1;
    if (child >= heap_.size()) break;
    if (child + 1 < heap_.size() && heap_[child + 1].at < heap_[child].at) ++child;
    if (e.at <= heap_[child].at) break;
    put(heap_[child], slot);
    slot = child;
  }
  put(e, slot);
}

void alarm_clock::insert(alarm& a) {
  if (free_place_ == alarm::unset) {  // none free: one more, free for now
    places_.push_back({nullptr, alarm::unset});
    free_place_ = places_.size() - 1;
  }
  heap_.push_back({a.at_, free_place_});  // if this throws, the place stays free
  const std::size_t p = free_place_;
  free_place_ = places_[p].slot;
  places_[p].a = &a;
  a.place_ = p;
  move_up(heap_.size() - 1);
  if (places_[p].slot == 0) set_timer();  // the earliest now
}

void alarm_clock::erase(alarm& a) noexcept {
  const std::size_t p = a.place_;
  const std::size_t slot = places_[p].slot;
  a.place_ = alarm::unset;
  places_[p] = {nullptr, free_place_};
  free_place_ = p;
  const entry last = heap_.back();
  heap_.pop_back();
  if (last.place != p) {
    heap_[slot] = last;
    if (slot > 0 && last.at < heap_[(slot - 1) / 2].at) {
      move_up(slot);
    } else {
      move_down(slot);
    }
  }
  // A timer set for an earlier alarm than the earliest left fires early and
  // sets itself again: cheaper than setting it on every erase. With no alarm
  // left, though, it must go: a wait would keep the io_context running.
  if (heap_.empty()) set_timer();
}
//! [heap]

//! [timer]
void alarm_clock::set_timer() {
  if (heap_.empty()) {
    if (waits_ > 0) timer_.cancel();
    timer_at_ = clock::time_point::max();  // no wait of the timer will ring
    return;
  }
  const clock::time_point earliest = heap_.front().at;
  if (waits_ > 0 && timer_at_ <= earliest) return;  // it fires in time, and comes back here
  timer_.expires_at(earliest);                      // cancels a wait set for later
  timer_at_ = earliest;
  ++waits_;
  timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!*alive) return;
    --waits_;
    if (!ec) ring_due();
  });
}

// Rings every alarm that is due, each taken from the heap first, then sets
// the timer for the earliest left.
void alarm_clock::ring_due() {
  const clock::time_point now = clock::now();
  while (!heap_.empty() && heap_.front().at <= now) {
    alarm& due = *places_[heap_.front().place].a;
    erase(due);
    due.ring();
  }
  set_timer();
}
//! [timer]

}  // namespace rdv::proc
