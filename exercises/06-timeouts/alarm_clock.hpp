#pragma once
/// \file
/// One timer for every deadline of a scheduler's processes — Erlang's
/// `erlang:send_after`, kept as a heap of alarms under one Asio timer set
/// for the earliest: the deadlines of use_process.within(), and chapter
/// 10's held clients.

#include "call.hpp"
#include "extension.hpp"
#include "processes.hpp"

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

namespace rdv::proc {

/// The message an alarm sends when its time comes.
struct rang {
  ref tag;  ///< the alarm's tag: tells its news from an earlier alarm's
};

/// The alarms of one scheduler's processes, under one Asio timer. An Asio
/// timer per deadline costs a completion handler on the heap for as long as
/// it waits, and the timer's own bookkeeping each time it is set and
/// cancelled; a server sets a deadline for every read. Here each alarm lives
/// in its process's memory, and the clock keeps the times of those that are
/// set in a heap of its own; the one timer waits for the earliest and, when
/// it fires, rings every alarm that is due. One per scheduler
/// (scheduler::use<alarm_clock>()).
class alarm_clock : public extension {
public:
  /// The clock of alarms.
  using clock = std::chrono::steady_clock;

  /// An alarm of the calling process: unset at first; set(t) makes it ring
  /// at `t` (never before), once, which sends rang{tag} to that process. It
  /// forgets itself when destroyed, so it lives where its process can see
  /// it: a member of chapter 10's hold, or a frame of the process's stack.
  class alarm {
  public:
    /// An unset alarm of the calling process, on the current scheduler's clock.
    explicit alarm(ref tag);
    virtual ~alarm() { clear(); }
    alarm(const alarm&) = delete;
    alarm& operator=(const alarm&) = delete;

    /// Makes the alarm ring at `at` (clock::time_point::max(): never), in
    /// place of any earlier setting; does nothing if it is set for `at`
    /// already, or has rung for `at`.
    void set(clock::time_point at);
    /// Makes the alarm ring `limit` from now (never, if that is past the
    /// clock's end of time).
    void set_after(clock::duration limit);
    /// Unsets the alarm: it does not ring. Its rang message, if it has rung
    /// already, may be in the mailbox; the tag tells such news stale.
    void clear() noexcept;

  protected:
    /// An unset alarm on `clock` that rings in its own way (ring() overridden).
    explicit alarm(alarm_clock& clock) noexcept : clock_(clock) {}

    /// What ringing does: sends rang{tag} to the alarm's process. The clock
    /// calls it from its timer's handler, outside every process, once the
    /// alarm has left the heap.
    virtual void ring();

  private:
    friend class alarm_clock;
    static constexpr std::size_t unset = static_cast<std::size_t>(-1);

    alarm_clock& clock_;
    pid owner_{};
    ref tag_{};
    clock::time_point at_ = clock::time_point::max();
    std::size_t place_ = unset;  // its place in the clock's table; unset when not set
  };

  /// The alarm clock of `node`, whose event loop its timer waits in.
  explicit alarm_clock(scheduler& node);
  ~alarm_clock() override;
  alarm_clock(const alarm_clock&) = delete;
  alarm_clock& operator=(const alarm_clock&) = delete;

  /// How many alarms are set.
  std::size_t size() const noexcept { return heap_.size(); }

  /// Nothing to do: an alarm forgets itself when its owner's stack unwinds.
  void process_exited(pid, const exit_reason&) override {}

private:
  // A set alarm's place in the clock: the alarm, and the slot of the heap
  // that holds its time. The places are the clock's own, in one table (a
  // free one chains to the next free through `slot`), so that putting the
  // heap in order writes only the clock's memory, never the stacks of the
  // processes the alarms belong to.
  struct place {
    alarm* a;
    std::size_t slot;
  };
  // A slot of the heap: an alarm's time, and its place.
  struct entry {
    clock::time_point at;
    std::size_t place;
  };

  void insert(alarm& a);
  void erase(alarm& a) noexcept;
  void move_up(std::size_t slot) noexcept;
  void move_down(std::size_t slot) noexcept;
  void put(entry e, std::size_t slot) noexcept;
  void set_timer();
  void ring_due();

  scheduler& node_;
  boost::asio::steady_timer timer_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::size_t waits_ = 0;                                  // of the timer, not yet completed
  clock::time_point timer_at_ = clock::time_point::max();  // what the last wait was set for
  std::vector<entry> heap_;                                // the earliest first
  std::vector<place> places_;                              // by number: alarm::place_
  std::size_t free_place_ = alarm::unset;                  // the first free place, if any
};

}  // namespace rdv::proc
