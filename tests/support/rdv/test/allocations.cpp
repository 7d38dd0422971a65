#include "rdv/test/allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<long> count{0};
std::atomic<long> failing{-1};  // the count at which an allocation fails; -1: none

void* allocate_or_null(std::size_t size) noexcept {
  long due = ++count;
  if (failing.compare_exchange_strong(due, -1)) return nullptr;
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate(std::size_t size) {
  if (void* p = allocate_or_null(size)) return p;
  throw std::bad_alloc();
}

}  // namespace

namespace rdv::test {

long allocations() noexcept { return count; }

void fail_allocation(long skip) noexcept { failing = skip < 0 ? -1 : count + skip + 1; }

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
