#pragma once
/// \file
/// The scheduler's record of one process, and the queue of those ready to run.

#include "mailbox.hpp"
#include "pid.hpp"

#include <boost/context/fiber.hpp>

#include <cstdint>

namespace rdv::proc {

/// Where a process is in its life, as the scheduler sees it.
enum class process_state : std::uint8_t {
  free,             ///< the slot holds no process
  runnable,         ///< in the run queue
  running,          ///< on the CPU
  waiting_message,  ///< in receive(), until a message arrives
  waiting_wake,     ///< waiting for wake() with its ticket (an I/O completion, a timer)
  waiting_either,   ///< either of the two above
};

/// One process's record in the scheduler's table: the rest of the process is
/// its stack. Exactly one cache line, so that a million of them take 64 MB
/// and touching one costs one cache miss.
struct alignas(64) process {
  boost::context::fiber context;     ///< where it stopped (empty while it runs)
  process* next_runnable = nullptr;  ///< the run queue's link
  mailbox inbox;                     ///< messages not yet received
  void* resume_hint = nullptr;       ///< near its saved registers, to prefetch before resuming it
  pid id;                            ///< its pid
  std::uint32_t wait_serial = 0;     ///< counts its wake()-able waits; see wait_ticket
  process_state state = process_state::free;  ///< where it is in its life
  bool woken = false;                         ///< whether wake() ended its current wait
};
static_assert(sizeof(process) == 64, "a process record should fill one cache line");

/// The processes ready to run, first in first out: an intrusive list through
/// process::next_runnable, so queueing never allocates.
class run_queue {
public:
  run_queue() = default;
  run_queue(const run_queue&) = delete;
  run_queue& operator=(const run_queue&) = delete;

  /// Appends `p`.
  void push(process* p) noexcept {
    p->next_runnable = nullptr;
    *tail_ = p;
    tail_ = &p->next_runnable;
  }
  /// Removes and returns the first process, or nullptr.
  process* pop() noexcept {
    process* p = head_;
    if (p != nullptr && (head_ = p->next_runnable) == nullptr) tail_ = &head_;
    return p;
  }
  /// Whether no process is ready.
  bool empty() const noexcept { return head_ == nullptr; }

private:
  process* head_ = nullptr;
  process** tail_ = &head_;
};

}  // namespace rdv::proc
