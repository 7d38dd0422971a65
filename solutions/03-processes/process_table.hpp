#pragma once
/// \file
/// The table of a scheduler's processes, which turns a pid into its process.

#include "process.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rdv::proc {

/// Every process of a scheduler, in slots of stable address. A pid is a slot
/// number and the serial of the slot's current use, so finding a process is
/// an index and a comparison, and a pid of an ended process finds nothing
/// even after its slot is reused.
class process_table {
public:
  process_table() = default;
  process_table(const process_table&) = delete;
  process_table& operator=(const process_table&) = delete;

  /// The process `who` names, or nullptr if it has ended (or never was).
  process* find(pid who) const noexcept {
    if (who.number >= next_number_) return nullptr;
    process& p = slot(who.number);
    return p.state != process_state::free && p.id == who ? &p : nullptr;
  }
  /// A free slot, with a new pid; its state is still process_state::free.
  process& acquire();
  /// Frees `p`'s slot: its pid finds nothing from now on.
  void release(process& p) noexcept;
  /// How many slots hold a process.
  std::size_t live() const noexcept { return live_; }

  /// Calls `f(process&)` for every slot that holds a process.
  template <class F>
  void for_each(F f) {
    for (std::uint32_t n = 1; n < next_number_; ++n) {
      if (process& p = slot(n); p.state != process_state::free) f(p);
    }
  }

private:
  static constexpr std::uint32_t chunk_bits = 10;  // 1024 slots, 64 KiB, per chunk
  process& slot(std::uint32_t number) const noexcept {
    return chunks_[number >> chunk_bits][number & ((1u << chunk_bits) - 1)];
  }

  std::vector<std::unique_ptr<process[]>> chunks_;
  std::vector<std::uint32_t> free_numbers_;  // slots to reuse, most recent last
  std::uint32_t next_number_ = 1;            // 0 is never used: pid{} names nobody
  std::size_t live_ = 0;
};

}  // namespace rdv::proc
