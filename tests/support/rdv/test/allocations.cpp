#include "rdv/test/allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>

namespace {

std::atomic<long> count{0};
std::atomic<long> first_failing{0}, end_of_failing{0};  // allocations that fail: [first, end)

void* allocate_or_null(std::size_t size) noexcept {
  const long made = ++count;
  if (made >= first_failing && made < end_of_failing) return nullptr;
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate(std::size_t size) {
  if (void* p = allocate_or_null(size)) return p;
  throw std::bad_alloc();
}

}  // namespace

namespace rdv::test {

long allocations() noexcept { return count; }

void fail_allocations(long skip, long how_many) noexcept {
  end_of_failing = 0;
  if (skip < 0 || how_many <= 0) return;
  const long first = count + skip + 1;
  first_failing = first;
  end_of_failing = how_many > std::numeric_limits<long>::max() - first
                       ? std::numeric_limits<long>::max()
                       : first + how_many;
}

}  // namespace rdv::test

// Every form that the deletes below must free, the nothrow ones included:
// some GoogleTest builds allocate with new (std::nothrow), and memory from
// the sanitizer's own operator new must not reach our free().
void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
