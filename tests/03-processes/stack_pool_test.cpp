// Chapter 3's stack pool (exercise ch03.1): stacks carved side by side out of
// reserved address space, a new reservation when one is used up, the most
// recently freed stack handed out first, and memory committed only for the
// pages a process touches, and every stack below its guard page, or an error.
#include "scheduler.hpp"
#include "stack_pool.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/proc_status.hpp"

#include <gtest/gtest.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
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
  stacks.reserve(4096 + 10);
  constexpr double region = 4096.0 * stack_size, slack = region / 4;  // for the test's own mappings
  const double before = rdv::test::status_bytes("VmSize");
  for (int i = 0; i < 4096; ++i) stacks.push_back(pool.allocate());  // one reservation, full
  const double one = rdv::test::status_bytes("VmSize") - before;
  EXPECT_GE(one, region - slack);
  EXPECT_LE(one, region + slack) << "4,096 stacks took " << one / region
                                 << " reservations of address space where one holds them: the "
                                    "next is reserved only when a stack needs it";
  for (int i = 0; i < 10; ++i) stacks.push_back(pool.allocate());  // past one reservation
  EXPECT_GE(rdv::test::status_bytes("VmSize") - before, 2 * region - slack)
      << "a second reservation, for the rest";
  EXPECT_EQ(top(stacks[4095]) - top(stacks[0]), 4095 * stack_size)
      << "a reservation holds 4,096 stacks side by side: the 4,096th is its last slot";
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

// The flags the kernel keeps for the mapping that holds `address` (the
// VmFlags line of /proc/self/smaps: "nr" no reserve, "nh" no huge pages).
std::string mapping_flags(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t first = 0, end = 0;
    char dash = 0;
    if (std::istringstream range(line); range >> std::hex >> first >> dash >> end && dash == '-') {
      inside = first <= address && address < end;
    } else if (inside && line.starts_with("VmFlags:")) {
      return line.substr(8) + " ";
    }
  }
  return "(no mapping)";
}

std::string first_line_of(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(StackPool, ReservesAddressSpaceInSmallPagesNotMemory) {
  explained_in("ch03-stacks");
  stack_pool pool({.size = stack_size});
  std::vector<stack_context> stacks;
  for (int i = 0; i < 3; ++i) stacks.push_back(pool.allocate());
  // The last of the three: a region marked in part is two mappings.
  const std::string flags = mapping_flags(top(stacks.back()) - 1);
  // With vm.overcommit_memory = 2 the kernel reserves memory for every
  // mapping, MAP_NORESERVE or not, and says so.
  if (first_line_of("/proc/sys/vm/overcommit_memory") != "2") {
    EXPECT_NE(flags.find(" nr "), std::string::npos)
        << "the region should be reserved with MAP_NORESERVE, so that it counts against no "
           "commit limit; its VmFlags in /proc/self/smaps are:"
        << flags;
  }
  if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    EXPECT_NE(flags.find(" nh "), std::string::npos)
        << "the region should refuse huge pages (MADV_NOHUGEPAGE), or a 2 MiB page makes 32 "
           "stacks cost 64 KiB each where THP is \"always\"; its VmFlags in /proc/self/smaps are:"
        << flags;
  }
  for (auto& s : stacks) pool.deallocate(s);
}

TEST(StackPool, GivesItsReservationsBackWhenItGoes) {
  explained_in("ch03-stacks");
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::uintptr_t last_page = 0;
  {
    stack_pool pool({.size = stack_size});
    std::vector<stack_context> stacks;
    for (int i = 0; i < 3; ++i) stacks.push_back(pool.allocate());
    last_page = (top(stacks.back()) - 1) & ~(page - 1);
    for (auto& s : stacks) pool.deallocate(s);
  }
  unsigned char in_core = 0;
  EXPECT_NE(::mincore(reinterpret_cast<void*>(last_page), page, &in_core), 0)
      << "the third stack's page is still mapped after the pool went: its whole reservation "
         "should be unmapped, not its first slot";
  EXPECT_EQ(errno, ENOMEM);
}

TEST(StackPool, ARegionThatCannotBeReservedIsAnError) {
  explained_in("ch03-stacks");
  // 4,096 stacks of a TiB each: more address space than a process has.
  stack_pool pool({.size = std::size_t{1} << 40});
  for (int attempt = 1; attempt <= 2; ++attempt) {  // the first failure leaves the pool as it was
    try {
      pool.allocate();
      ADD_FAILURE() << "attempt " << attempt
                    << ": a region the kernel refuses should throw std::system_error, not hand "
                       "out a stack";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().value(), ENOMEM)
          << "attempt " << attempt << ": the error should be mmap's own errno: " << e.what();
    }
    EXPECT_EQ(pool.in_use(), 0u) << "attempt " << attempt << ": nothing was handed out";
  }
}

// Whether the byte at `address` can be read, asked of the kernel (write(2)
// from it into a pipe says EFAULT where a read would fault), so that a
// guard page is found without a crash.
bool readable(std::uintptr_t address) {
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  const bool ok = ::write(pipe_ends[1], reinterpret_cast<const void*>(address), 1) == 1;
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  return ok;
}

TEST(StackPool, EveryStackHasItsGuardPage) {
  explained_in("ch03-guard");
  stack_pool pool({.size = stack_size, .guard_pages = true});
  if (!pool.guarded()) {
    GTEST_SKIP() << "this kernel has no MADV_GUARD_INSTALL (Linux 6.13 or later)";
  }
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<stack_context> stacks;
  for (int i = 0; i < 4096 + 2; ++i) stacks.push_back(pool.allocate());  // into a second region
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const stack_context& s = stacks[i];
    ASSERT_EQ(s.size, stack_size - page) << "stack " << i << ": its slot less the guard page";
    const std::uintptr_t lowest = top(s) - s.size;
    ASSERT_TRUE(readable(lowest)) << "stack " << i << ": its own lowest byte";
    ASSERT_FALSE(readable(lowest - 1)) << "stack " << i << " has no guard page below it";
  }
  for (auto& s : stacks) pool.deallocate(s);
}

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13; older C libraries do not name it
#endif

// From now on, in this process, madvise(2) with `advice` fails with ENOMEM,
// as it does when the kernel is out of memory for the page tables it needs.
// A seccomp filter cannot be taken back: call it in a child (a death test).
void refuse_madvise(int advice) {
  // The advice is madvise's third argument; the filter reads 32 bits of it.
  const auto third = static_cast<std::uint32_t>(offsetof(seccomp_data, args[2]) +
                                                (std::endian::native == std::endian::big ? 4 : 0));
  sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_madvise, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, third),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(advice), 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOMEM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  const sock_fprog filter{static_cast<unsigned short>(std::size(program)), program};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) {
    std::perror("seccomp");
    std::_Exit(3);
  }
}

// In a child: asks a guarded pool for a stack, twice, once madvise(2) can no
// longer install guard pages, and exits with 0 if the pool refused with the
// errno both times, handing nothing out; else says what it did and exits
// with 1.
[[noreturn]] void allocate_without_guard_pages() {
  stack_pool pool({.size = stack_size, .guard_pages = true});  // finds the kernel able
  refuse_madvise(MADV_GUARD_INSTALL);
  for (const char* attempt : {"first", "second"}) {  // the first refusal keeps nothing for later
    try {
      (void)pool.allocate();
      std::fprintf(stderr,
                   "%s attempt: a stack whose guard page could not be installed was handed out "
                   "as if it had one: throw std::system_error instead (and keep no such stack "
                   "for the next allocate())\n",
                   attempt);
      std::_Exit(1);
    } catch (const std::system_error& e) {
      if (e.code().value() != ENOMEM) {
        std::fprintf(stderr, "the error should be madvise's own errno (ENOMEM): %s\n", e.what());
        std::_Exit(1);
      }
    }
  }
  if (pool.in_use() != 0) {
    std::fputs("nothing was handed out, but in_use() counts it\n", stderr);
    std::_Exit(1);
  }
  std::_Exit(0);
}

TEST(StackPool, AGuardPageThatCannotBeInstalledIsAnError) {
  explained_in("ch03-guard");
  if (!stack_pool({.size = stack_size, .guard_pages = true}).guarded()) {
    GTEST_SKIP() << "this kernel has no MADV_GUARD_INSTALL (Linux 6.13 or later)";
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(allocate_without_guard_pages(), testing::ExitedWithCode(0), "");
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
