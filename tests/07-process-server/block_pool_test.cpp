// Chapter 7: the pool of first buffers — a page goes back to the kernel once
// every buffer on it is given back, and a connection's buffer that shrinks
// to its message gives its block back.
#include "block_pool.hpp"
#include "connection_buffer.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using rdv::test::explained_in;
using rdv::web::block_pool;

// Whether the page that holds `p` is resident, as mincore(2) says.
bool resident(const void* p) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  unsigned char in_core = 0;
  void* start = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) & ~(page - 1));
  EXPECT_EQ(::mincore(start, page, &in_core), 0) << std::strerror(errno);
  return (in_core & 1) != 0;
}

TEST(BlockPool, APageGoesBackOnceEveryBlockOnItIsBack) {
  explained_in("ch07-give-back");
  block_pool pool(0);  // keeps no free block resident
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<char*> blocks;
  for (std::size_t i = 0; i < page / block_pool::block_size; ++i) {
    blocks.push_back(static_cast<char*>(pool.take()));
    std::memset(blocks.back(), 'x', block_pool::block_size);  // resident now
  }
  const auto page_of = [page](const char* p) { return reinterpret_cast<std::uintptr_t>(p) / page; };
  for (const char* b : blocks)
    ASSERT_EQ(page_of(b), page_of(blocks.front())) << "one page, in order";
  for (std::size_t i = 0; i + 1 < blocks.size(); ++i) {
    pool.give(blocks[i]);
    EXPECT_EQ(pool.pages_given_back(), 0u) << "a page goes back only with its last block";
  }
  EXPECT_TRUE(resident(blocks.back()));
  pool.give(blocks.back());
  EXPECT_EQ(pool.pages_given_back(), 1u);
  EXPECT_FALSE(resident(blocks.front())) << "the page went back to the kernel";
  // Taken again, it comes back, zeroed by the kernel.
  char* again = static_cast<char*>(pool.take());
  EXPECT_EQ(pool.pages_given_back(), 0u);
  EXPECT_EQ(again[0], 0);
  pool.give(again);
}

TEST(BlockPool, ThePoolKeepsTheFreeBlocksItWasToldToKeep) {
  explained_in("ch07-give-back");
  block_pool pool(8);
  std::vector<void*> blocks;
  for (int i = 0; i < 16; ++i) blocks.push_back(pool.take());
  for (std::size_t i = 0; i < 8; ++i) pool.give(blocks[i]);
  EXPECT_EQ(pool.pages_given_back(), 0u) << "within the reserve, no page goes back";
  for (std::size_t i = 8; i < 16; ++i) pool.give(blocks[i]);
  EXPECT_GT(pool.pages_given_back(), 0u) << "past the reserve, pages go back";
}

TEST(BlockPool, ABufferThatShrinksToItsMessageGivesItsBlockBack) {
  explained_in("ch07-give-back");
  // Enough buffers that their blocks pass the shared pool's reserve.
  const rdv::http::limits limits;
  std::vector<std::unique_ptr<rdv::web::connection_buffer>> buffers;
  for (int i = 0; i < 1024; ++i) {
    auto& in = *buffers.emplace_back(std::make_unique<rdv::web::connection_buffer>(limits));
    ASSERT_EQ(in.capacity(), block_pool::block_size);
    const std::string_view request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    std::memcpy(in.room().data(), request.data(), request.size());
    in.received(request.size());
  }
  const std::size_t before = block_pool::shared().pages_given_back();
  for (auto& in : buffers) {
    ASSERT_TRUE(in->shrink_to_message());
    EXPECT_EQ(in->unparsed(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  }
  EXPECT_GE(block_pool::shared().pages_given_back(), before + 100)
      << "1,024 blocks back, past a reserve of 256, should give back hundreds of pages";
}

}  // namespace
