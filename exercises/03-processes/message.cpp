#include "message.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace rdv::proc {

namespace {

constexpr std::size_t blocks_per_chunk = 1024;  // 64 KiB at a time

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
  for (auto& chunk : chunks_) unpoison(chunk.get(), blocks_per_chunk * block_size);
}

void* message_pool::allocate() {
  if (free_ == nullptr) return grow();
  free_block* taken = free_;
  unpoison(taken, block_size);
  free_ = taken->next;
  return taken;
}

void message_pool::deallocate(void* memory) noexcept {
  auto* freed = static_cast<free_block*>(memory);
  freed->next = free_;
  free_ = freed;
  poison(freed, block_size);
}

void* message_pool::grow() {
  chunks_.push_back(std::make_unique<block[]>(blocks_per_chunk));
  block* chunk = chunks_.back().get();
  for (std::size_t i = blocks_per_chunk - 1; i > 0; --i) deallocate(&chunk[i]);
  return &chunk[0];
}

}  // namespace rdv::proc
