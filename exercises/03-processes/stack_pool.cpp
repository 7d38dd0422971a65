#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <new>
#include <system_error>
#include "rdv/todo.hpp"  // exercise stubs throw rdv::todo

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13; older C libraries do not name it
#endif

namespace rdv::proc {

namespace {

constexpr std::size_t slots_per_region = 4096;  // 256 MiB of address space at 64 KiB a stack

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_up(std::size_t n, std::size_t unit) { return (n + unit - 1) / unit * unit; }

// Whether this kernel can make a page a guard page without a mapping of its own.
bool kernel_has_guard_pages() {
  void* probe =
      ::mmap(nullptr, page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) return false;
  const bool works = ::madvise(probe, page_size(), MADV_GUARD_INSTALL) == 0;
  ::munmap(probe, page_size());
  return works;
}

}  // namespace

stack_pool::stack_pool(stack_options options)
    : slot_size_(round_up(std::max(options.size, 4 * page_size()), page_size())),
      guarded_(options.guard_pages && kernel_has_guard_pages()) {
  if (guarded_) guard_size_ = page_size();
}

stack_pool::~stack_pool() {
  for (auto [base, bytes] : regions_) ::munmap(base, bytes);
}

boost::context::stack_context stack_pool::allocate() {
  // Room for every stack to come back, so that deallocate() never allocates.
  if (const std::size_t all = in_use_ + free_.size() + 1; free_.capacity() < all) {
    free_.reserve(2 * all);
  }
  char* slot = nullptr;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = new_slot();
  }
  ++in_use_;
  return in(slot);
}

void stack_pool::deallocate(boost::context::stack_context& stack) noexcept {
  char* top = static_cast<char*>(stack.sp);
  free_.push_back(top - stack.size - guard_size_);
  --in_use_;
}

//! [new_slot]
char* stack_pool::new_slot() {
  // TODO(ch03.1): carve a new slot out of the newest region, reserving another when it is full
  // Hint: unused_ and unused_end_ bound the part of the newest region that no stack has
  //   had yet. What does it mean when they are equal (also at the start)? (more:
  //   ./course hint 03 1)
  (void)slots_per_region;
  throw rdv::todo("ch03.1", "carve a new slot out of the newest region, reserving another when it is full");
}
//! [new_slot]

//! [trim]
std::size_t stack_pool::trim() const noexcept {
  // Room below this frame for the frames still to come: madvise(2)'s, and
  // the sanitizers' when they are built in.
  constexpr std::uintptr_t callee_room = 512;
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  for (const auto& [base, bytes] : regions_) {
    const auto first = reinterpret_cast<std::uintptr_t>(base);
    if (here < first || here >= first + bytes) continue;
    const std::uintptr_t slot = first + (here - first) / slot_size_ * slot_size_;
    const std::uintptr_t lowest = slot + guard_size_;  // the guard page stays as it is
    const std::uintptr_t below = (here - callee_room) & ~(page_size() - 1);
    if (below <= lowest) return 0;
    if (::madvise(reinterpret_cast<void*>(lowest), below - lowest, MADV_DONTNEED) != 0) return 0;
    return below - lowest;
  }
  return 0;
}
//! [trim]

boost::context::stack_context stack_pool::in(char* slot) const noexcept {
  boost::context::stack_context stack;
  stack.sp = slot + slot_size_;  // stacks grow down from the top of their slot
  stack.size = slot_size_ - guard_size_;
  return stack;
}

}  // namespace rdv::proc
