#include "block_pool.hpp"

#include <sanitizer/asan_interface.h>  // free blocks poisoned under ASan; nothing otherwise
#include <sys/mman.h>
#include <unistd.h>

namespace rdv::web {

block_pool& block_pool::shared() {
  static block_pool* const pool = new block_pool;  // never destroyed: buffers may outlive main()
  return *pool;
}

block_pool::~block_pool() {
  for (auto& [base, r] : regions_) ::munmap(r.base, region_size);
}

// A region aligned to its size: mapped twice as large, then trimmed at both
// ends, so that a block's region is its address rounded down.
void block_pool::map_region() {
  if (page_ == 0) page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* mapped =
      ::mmap(nullptr, 2 * region_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t base = (start + region_size - 1) & ~(region_size - 1);
  if (base > start) ::munmap(mapped, base - start);
  if (const std::uintptr_t end = start + 2 * region_size; end > base + region_size) {
    ::munmap(reinterpret_cast<void*>(base + region_size), end - (base + region_size));
  }
  region r{reinterpret_cast<char*>(base), std::vector<bool>(region_size / block_size, true),
           std::vector<bool>(region_size / page_, false),
           std::vector<bool>(region_size / page_, false)};
  for (std::size_t i = region_size / block_size; i-- > 0;) free_.push_back(r.base + i * block_size);
  ASAN_POISON_MEMORY_REGION(r.base, region_size);
  regions_.emplace(base, std::move(r));
}

block_pool::region& block_pool::region_of(const void* block) {
  return regions_.at(reinterpret_cast<std::uintptr_t>(block) & ~(region_size - 1));
}

//! [take]
void* block_pool::take() {
  const std::lock_guard lock(mutex_);
  if (free_.empty()) map_region();
  char* block = static_cast<char*>(free_.back());
  free_.pop_back();
  region& r = region_of(block);
  const auto offset = static_cast<std::size_t>(block - r.base);
  r.free[offset / block_size] = false;
  const std::size_t page = offset / page_;
  if (r.resident[page]) {
    --free_resident_;
  } else {  // the kernel maps the page, zeroed, at the first write: its other blocks come too
    r.resident[page] = true;
    free_resident_ += page_ / block_size - 1;
    if (r.given_back[page]) {
      r.given_back[page] = false;
      --pages_given_back_;
    }
  }
  ASAN_UNPOISON_MEMORY_REGION(block, block_size);
  return block;
}
//! [take]

//! [give]
void block_pool::give(void* block) noexcept {
  const std::lock_guard lock(mutex_);
  region& r = region_of(block);
  const auto offset = static_cast<std::size_t>(static_cast<char*>(block) - r.base);
  r.free[offset / block_size] = true;
  ASAN_POISON_MEMORY_REGION(block, block_size);
  free_.push_back(block);                      // never grows past the blocks mapped: no allocation
  if (++free_resident_ <= keep_free_) return;  // the next connections will want them
  const std::size_t first = offset / page_ * page_;
  for (std::size_t b = first / block_size; b < (first + page_) / block_size; ++b) {
    if (!r.free[b]) return;  // another buffer on the page is in use
  }
  ::madvise(r.base + first, page_, MADV_DONTNEED);
  r.resident[first / page_] = false;
  r.given_back[first / page_] = true;
  free_resident_ -= page_ / block_size;
  ++pages_given_back_;
}
//! [give]

std::size_t block_pool::pages_given_back() const {
  const std::lock_guard lock(mutex_);
  return pages_given_back_;
}

}  // namespace rdv::web
