// Chapter 7: the connection's buffer — bytes read in at the end, parsed from
// the front, moved down when it is full, and grown when the reads fill it.
#include "connection_buffer.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using rdv::test::explained_in;

// Fills what room `in` has with copies of `request`, cut where the room ends.
std::string fill(rdv::web::connection_buffer& in, std::string_view request) {
  const auto room = in.room();
  std::string bytes;
  while (bytes.size() < room.size()) bytes += request;
  bytes.resize(room.size());
  std::copy(bytes.begin(), bytes.end(), static_cast<char*>(room.data()));
  in.received(bytes.size());
  return bytes;
}

TEST(ConnectionBuffer, GrowsWhenTheReadsFillItWithPipelinedRequests) {
  explained_in("ch07-buffer");
  const rdv::http::limits limits;
  rdv::web::connection_buffer in(limits);
  const std::size_t first = in.capacity();
  const std::string_view request = "POST /reply HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
  const std::string bytes = fill(in, request);
  const std::size_t whole = bytes.size() / request.size() * request.size();
  in.used(whole);  // every whole request parsed; the last one cut short
  in.next_message();
  ASSERT_TRUE(in.make_room());
  EXPECT_GT(in.capacity(), first)
      << "a read that fills the buffer says the client sends more than it holds: the next read "
         "should have room for more than the first size";
  EXPECT_EQ(in.unparsed(), bytes.substr(whole)) << "the unparsed bytes move to the front, intact";
}

TEST(ConnectionBuffer, GrowsBackToItsFirstSizeAfterShrinkingToItsMessage) {
  explained_in("ch07-give-back");
  const rdv::http::limits limits;
  rdv::web::connection_buffer in(limits);
  const std::size_t first = in.capacity();
  const std::string_view request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  std::copy(request.begin(), request.end(), static_cast<char*>(in.room().data()));
  in.received(request.size());
  ASSERT_TRUE(in.shrink_to_message());
  ASSERT_LT(in.capacity(), first) << "a buffer that shrinks to its message holds little";
  in.used(request.size());
  in.next_message();
  fill(in, request);  // the next request fills what little there is
  ASSERT_TRUE(in.make_room());
  EXPECT_EQ(in.capacity(), first)
      << "the next request grows the small buffer back to its first size at once (and gets "
         "its block from the pool again), not by doubling the small one";
}

TEST(ConnectionBuffer, NeverGrowsPastWhatTheLimitsAllow) {
  explained_in("ch07-buffer");
  const rdv::http::limits limits;
  rdv::web::connection_buffer in(limits);
  for (int i = 0; i < 64; ++i) {
    fill(in, "GET / HTTP/1.1\r\n\r\n");
    in.used(in.unparsed().size());
    in.next_message();
    ASSERT_TRUE(in.make_room());
  }
  EXPECT_EQ(in.capacity(), rdv::web::connection_buffer::most(limits));
}

}  // namespace
