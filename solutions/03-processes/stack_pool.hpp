#pragma once
/// \file
/// Stacks for processes: carved out of large reserved regions of address
/// space, so that a million of them cost a million pages, not a million
/// memory mappings.

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace rdv::proc {

/// How a scheduler lays out its processes' stacks.
struct stack_options {
  /// Address space per stack, rounded up to whole pages. Only the pages a
  /// process touches cost memory: usually one.
  std::size_t size = 64 * 1024;
  /// Whether the lowest page of each stack traps an overflow. Needs Linux 6.13
  /// or later (guard pages without a memory mapping each); on older kernels
  /// the pool works without them and guarded() says so.
  bool guard_pages = false;
};

/// Hands out stacks for processes and takes them back for reuse.
///
/// Each stack is a slot in a region reserved with one mmap(2) call. A freed
/// stack keeps its pages and goes to the front of the line, so the next
/// process gets a stack that is already in memory (and in the caches).
class stack_pool {
public:
  /// A pool of stacks laid out as `options` says.
  explicit stack_pool(stack_options options = {});
  /// Unmaps every region; no stack may be in use any more.
  ~stack_pool();
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;

  /// A stack: the most recently freed one, or a new slot.
  boost::context::stack_context allocate();
  /// Takes back a stack that allocate() returned.
  void deallocate(boost::context::stack_context& stack) noexcept;

  /// Gives back to the kernel the pages of the stack the caller runs on
  /// that lie wholly below its frame, but for a little room for the frames
  /// it calls: the dead frames of a process that is about to wait a long
  /// time. They read as zeros, and cost memory again, when the process next
  /// reaches that deep. Returns the bytes given back: 0 on a stack that is
  /// not the pool's (the thread's own), or one with nothing below its frame.
  std::size_t trim() const noexcept;

  /// Whether the stacks have guard pages.
  bool guarded() const noexcept { return guarded_; }
  /// How many stacks are handed out.
  std::size_t in_use() const noexcept { return in_use_; }
  /// The address space of one stack, guard page included.
  std::size_t slot_size() const noexcept { return slot_size_; }

  /// What boost::context::fiber takes as its stack allocator: a handle to
  /// the pool, copied into every fiber.
  class allocator {
  public:
    /// A handle to `pool`.
    explicit allocator(stack_pool& pool) noexcept : pool_(&pool) {}
    /// pool.allocate()
    boost::context::stack_context allocate() { return pool_->allocate(); }
    /// pool.deallocate(stack)
    void deallocate(boost::context::stack_context& stack) noexcept { pool_->deallocate(stack); }

  private:
    stack_pool* pool_;
  };
  /// An allocator handle for boost::context::fiber.
  allocator handle() noexcept { return allocator(*this); }

private:
  char* new_slot();  // the lowest address of a never-used slot
  boost::context::stack_context in(char* slot) const noexcept;  // the stack in a slot

  std::size_t slot_size_;
  std::size_t guard_size_ = 0;  // a page when guarded
  bool guarded_ = false;
  std::vector<char*> free_;                             // slots, the most recently freed last
  std::vector<std::pair<char*, std::size_t>> regions_;  // what to unmap
  char* unused_ = nullptr;                              // the never-used part of the newest region
  char* unused_end_ = nullptr;
  std::size_t in_use_ = 0;
};

}  // namespace rdv::proc
