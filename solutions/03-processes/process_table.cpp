#include "process_table.hpp"

#include <stdexcept>

namespace rdv::proc {

process& process_table::acquire() {
  if (const std::size_t all = next_number_; free_numbers_.capacity() < all) {
    free_numbers_.reserve(2 * all);  // so that release() never allocates
  }
  std::uint32_t number = 0;
  if (!free_numbers_.empty()) {
    number = free_numbers_.back();
    free_numbers_.pop_back();
  } else {
    if (next_number_ == UINT32_MAX) throw std::length_error("process_table: out of pids");
    number = next_number_++;
    if ((number >> chunk_bits) == chunks_.size()) {
      chunks_.push_back(std::make_unique<process[]>(std::size_t{1} << chunk_bits));
    }
  }
  process& p = slot(number);
  p.id = {number, p.id.serial};  // the serial moved on when the slot was last released
  ++live_;
  return p;
}

void process_table::release(process& p) noexcept {
  p.state = process_state::free;
  p.id.serial += 1;
  p.wait_serial = 0;
  p.woken = false;
  p.resume_hint = nullptr;
  free_numbers_.push_back(p.id.number);
  --live_;
}

}  // namespace rdv::proc
