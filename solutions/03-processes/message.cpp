#include "message.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace rdv::proc {

namespace {

constexpr std::size_t lines_per_chunk = 1024;  // 64 KiB at a time, of one block size

// In AddressSanitizer builds a free block is poisoned, so that a message used
// after it was received is still reported, pool or not.
void poison(void* memory, std::size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  ASAN_POISON_MEMORY_REGION(memory, size);
#else
  (void)memory, (void)size;
#endif
}

void unpoison(void* memory, std::size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  ASAN_UNPOISON_MEMORY_REGION(memory, size);
#else
  (void)memory, (void)size;
#endif
}

}  // namespace

message_pool::~message_pool() {
  for (auto& chunk : chunks_) unpoison(chunk.get(), lines_per_chunk * block_align);
}

void* message_pool::allocate(std::size_t size_class) {
  free_block*& list = free_[size_class];
  if (list == nullptr) return grow(size_class);
  free_block* taken = list;
  unpoison(taken, block_sizes[size_class]);
  list = taken->next;
  return taken;
}

void message_pool::deallocate(void* memory, std::size_t size_class) noexcept {
  auto* freed = static_cast<free_block*>(memory);
  freed->next = free_[size_class];
  free_[size_class] = freed;
  poison(freed, block_sizes[size_class]);
}

void* message_pool::grow(std::size_t size_class) {
  chunks_.push_back(std::make_unique<line[]>(lines_per_chunk));
  line* chunk = chunks_.back().get();
  const std::size_t step = block_sizes[size_class] / block_align;  // lines per block
  for (std::size_t i = lines_per_chunk - step; i > 0; i -= step) deallocate(&chunk[i], size_class);
  return &chunk[0];
}

}  // namespace rdv::proc
