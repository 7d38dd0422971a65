// Chapter 3's stack pool (exercise ch03.1): stacks carved side by side out of
// reserved address space, a new reservation when one is used up, the most
// recently freed stack handed out first, and memory committed only for the
// pages a process touches.
#include "scheduler.hpp"
#include "stack_pool.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using boost::context::stack_context;
using rdv::proc::stack_pool;
using rdv::test::explained_in;

constexpr std::size_t stack_size = 64 * 1024;

std::uintptr_t top(const stack_context& s) { return reinterpret_cast<std::uintptr_t>(s.sp); }

// How many of the `bytes` below `s`'s top are in memory (mincore(2)).
std::size_t resident_pages(const stack_context& s, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core(bytes / page);
  if (::mincore(reinterpret_cast<char*>(top(s) - bytes), bytes, in_core.data()) != 0) {
    ADD_FAILURE() << "mincore failed: the stack's pages are not mapped";
    return in_core.size();
  }
  return static_cast<std::size_t>(
      std::count_if(in_core.begin(), in_core.end(), [](unsigned char c) { return c & 1; }));
}

TEST(StackPool, CarvesStacksSideBySideOutOfOneReservation) {
  explained_in("ch03-stacks");
  stack_pool pool({.size = stack_size});
  std::vector<stack_context> stacks;
  for (int i = 0; i < 3; ++i) stacks.push_back(pool.allocate());
  for (const auto& s : stacks) {
    EXPECT_EQ(s.size, stack_size) << "a stack without a guard page has its whole slot";
  }
  EXPECT_EQ(top(stacks[1]) - top(stacks[0]), stack_size)
      << "the second stack should be the slot right after the first, in the same reservation";
  EXPECT_EQ(top(stacks[2]) - top(stacks[1]), stack_size);
  EXPECT_EQ(pool.in_use(), 3u);
  for (auto& s : stacks) pool.deallocate(s);
  EXPECT_EQ(pool.in_use(), 0u);
}

TEST(StackPool, ReservesMoreWhenAReservationIsUsedUp) {
  explained_in("ch03-stacks");
  stack_pool pool({.size = stack_size});
  std::vector<stack_context> stacks;
  for (int i = 0; i < 4096 + 10; ++i) stacks.push_back(pool.allocate());  // past one reservation
  std::vector<std::uintptr_t> tops;
  for (const auto& s : stacks) tops.push_back(top(s));
  std::sort(tops.begin(), tops.end());
  for (std::size_t i = 1; i < tops.size(); ++i) {
    ASSERT_GE(tops[i] - tops[i - 1], stack_size)
        << "two stacks overlap: stack " << i << " starts less than a slot after the one before";
  }
  EXPECT_TRUE(std::all_of(stacks.begin(), stacks.end(),
                          [](const stack_context& s) { return s.size == stack_size; }));
  for (auto& s : stacks) pool.deallocate(s);
}

TEST(StackPool, HandsOutTheMostRecentlyFreedStackFirst) {
  explained_in("ch03-stacks");
  stack_pool pool({.size = stack_size});
  stack_context a = pool.allocate();
  stack_context b = pool.allocate();
  const auto a_top = top(a), b_top = top(b);
  pool.deallocate(a);
  pool.deallocate(b);
  stack_context again = pool.allocate();
  EXPECT_EQ(top(again), b_top) << "the stack freed last is the one still warm in the caches";
  stack_context then = pool.allocate();
  EXPECT_EQ(top(then), a_top);
  pool.deallocate(again);
  pool.deallocate(then);
}

TEST(StackPool, CommitsMemoryOnlyForThePagesAProcessTouches) {
  explained_in("ch03-stacks");
  stack_pool pool({.size = stack_size});
  stack_context s = pool.allocate();
  EXPECT_EQ(resident_pages(s, stack_size), 0u)
      << "a new stack should be reserved address space, not memory (MAP_NORESERVE)";
  volatile char* near_top = static_cast<char*>(s.sp) - 100;
  *near_top = 1;  // a process's first frame
  EXPECT_EQ(resident_pages(s, stack_size), 1u) << "touching one byte should commit one page";
  pool.deallocate(s);
}

// Touches `depth` KiB of stack below the caller, one frame per KiB, and
// returns a sum that depends on every byte, so that no frame is optimised out.
[[gnu::noinline]] int touch_stack(int depth) {
  volatile char frame[1024];
  for (std::size_t i = 0; i < sizeof frame; ++i) frame[i] = static_cast<char>(depth + i);
  return depth == 0 ? frame[7] : frame[depth % 1024] + touch_stack(depth - 1);
}

TEST(StackPool, TrimGivesBackThePagesBelowTheRunningFrame) {
  explained_in("ch03-stacks");
  rdv::proc::scheduler node({.stacks = {.size = stack_size}});
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t given_back = 0, resident_after_trim = 99, resident_again = 0;
  int first = 0, again = 0;
  node.spawn([&] {
    char here = 0;
    const auto at = reinterpret_cast<std::uintptr_t>(&here) & ~(page - 1);
    // How many of the four pages from two to five pages under the one of
    // `here` are in memory (the page just under it may hold trim's frame).
    const auto below = [&] {
      std::vector<unsigned char> in_core(4);
      ::mincore(reinterpret_cast<void*>(at - 5 * page), 4 * page, in_core.data());
      return static_cast<std::size_t>(
          std::count_if(in_core.begin(), in_core.end(), [](unsigned char c) { return c & 1; }));
    };
    first = touch_stack(24);  // 24 KiB deeper: six pages or so
    given_back = rdv::proc::scheduler::current().trim_stack();
    resident_after_trim = below();
    again = touch_stack(24);  // the same frames again, on fresh zero pages
    resident_again = below();
    here = 1;
  });
  node.run();
  EXPECT_GE(given_back, 5 * page) << "the pages the deep calls touched should go back";
  EXPECT_EQ(resident_after_trim, 0u) << "the pages under the running frame should be given back";
  EXPECT_EQ(resident_again, 4u) << "calling deep again should commit them again";
  EXPECT_EQ(again, first) << "the process should run on as before after the trim";
  EXPECT_EQ(rdv::proc::scheduler::current().trim_stack(), 0u)
      << "outside a process there is no pool stack to trim";
}

}  // namespace
