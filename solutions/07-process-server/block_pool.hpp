#pragma once
/// \file
/// Chapter 7: every connection's first buffer from pages kept for them, so
/// that buffers given back give memory back.

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <type_traits>
#include <vector>

namespace rdv::web {

/// Blocks of `block_size` bytes, several to a page, carved from regions the
/// pool maps for them. A block that is given back goes to the pool; once
/// every block of its page is back, the page goes back to the kernel
/// (`madvise(MADV_DONTNEED)`), and comes back, zeroed, when a block of it is
/// taken again. malloc cannot do that for a buffer freed among smaller
/// allocations: its page holds them too, so it stays resident. One pool for
/// the process (shared()), safe on any thread.
class block_pool {
public:
  /// The size of a block: a connection's first buffer.
  static constexpr std::size_t block_size = 2048;

  /// The process's pool.
  static block_pool& shared();

  /// A block of block_size bytes; throws std::bad_alloc when the kernel
  /// maps no more.
  void* take();
  /// Gives back a block that take() returned.
  void give(void* block) noexcept;

  /// Pages given back to the kernel so far, and not taken again.
  std::size_t pages_given_back() const;

  /// A pool that keeps up to `keep_free` free blocks resident, for the
  /// connections that come next, and gives back the pages of any more.
  explicit block_pool(std::size_t keep_free = 256) : keep_free_(keep_free) {}
  /// Unmaps every region; no block may be in use.
  ~block_pool();
  block_pool(const block_pool&) = delete;
  block_pool& operator=(const block_pool&) = delete;

private:
  struct region {
    char* base;
    std::vector<bool> free;  // by block
    std::vector<bool>
        resident;  // by page: a block of it was taken since it was mapped or given back
    std::vector<bool> given_back;  // by page
  };
  static constexpr std::size_t region_size = std::size_t{1} << 20;  // 1 MiB, aligned to its size

  void map_region();
  region& region_of(const void* block);

  mutable std::mutex mutex_;
  std::size_t keep_free_;
  std::size_t page_ = 0;                      // the page size, once known
  std::map<std::uintptr_t, region> regions_;  // by base address
  std::vector<void*> free_;                   // the most recently given back last
  std::size_t free_resident_ = 0;             // free blocks on resident pages
  std::size_t pages_given_back_ = 0;
};

/// An allocator for a connection's bytes: a request of exactly
/// block_pool::block_size comes from the shared pool, any other from the
/// heap. For `std::vector<char, first_block_allocator>`.
struct first_block_allocator {
  using value_type = char;  ///< what it allocates
  /// For chars only, which is all a vector of chars asks for.
  template <class U>
  struct rebind {
    static_assert(std::is_same_v<U, char>, "first_block_allocator allocates chars");
    using other = first_block_allocator;  ///< itself
  };
  /// Storage for `n` chars.
  char* allocate(std::size_t n) {
    if (n == block_pool::block_size) return static_cast<char*>(block_pool::shared().take());
    return static_cast<char*>(::operator new(n));
  }
  /// Gives back what allocate(n) returned.
  void deallocate(char* p, std::size_t n) noexcept {
    if (n == block_pool::block_size) return block_pool::shared().give(p);
    ::operator delete(p);
  }
  /// All such allocators are alike.
  friend bool operator==(first_block_allocator, first_block_allocator) = default;
};

}  // namespace rdv::web
