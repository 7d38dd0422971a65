// Chapter 2: the parser copies nothing and, once warm, allocates nothing
// (counted by rdv_test_allocations, which replaces operator new).
#include "request_parser.hpp"

#include "rdv/test/allocations.hpp"
#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

namespace {

using rdv::test::allocations;
using rdv::test::explained_in;

// Parses every request of `stream`; returns how many it completed.
int parse_all(rdv::http::request_parser& parser, std::string_view stream) {
  int requests = 0;
  for (;;) {  // until the parser needs more: then every request is complete
    const auto s = parser.next(stream);
    if (s.what == rdv::http::event::error || s.what == rdv::http::event::need_more) break;
    if (s.what == rdv::http::event::end) ++requests;
    stream.remove_prefix(s.used);
  }
  return requests;
}

TEST(ZeroCopy, ParsesAWarmConnectionWithoutAllocating) {
  explained_in("ch02-zero-copy");
  const std::string_view stream =
      "GET /index.html HTTP/1.1\r\nHost: example.com\r\nUser-Agent: test\r\nAccept: */*\r\n"
      "Accept-Language: en\r\nAccept-Encoding: gzip\r\nCookie: a=1; b=2\r\nConnection: keep-alive"
      "\r\nX-1: 1\r\nX-2: 2\r\nX-3: 3\r\nX-4: 4\r\nX-5: 5\r\nX-6: 6\r\nX-7: 7\r\nX-8: 8\r\n\r\n"
      "POST /form HTTP/1.1\r\nHost: example.com\r\nContent-Length: 7\r\n\r\na=1&b=2"
      "PUT /upload HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4\r\nabcd\r\n3;x=y\r\nefg\r\n0\r\nX-Checksum: 7\r\n\r\n";
  const long start = allocations();
  rdv::http::request_parser parser;
  ASSERT_EQ(parse_all(parser, stream), 3) << "the warm-up round should parse three requests";
  ASSERT_GT(allocations() - start, 0) << "the first round grows the parser's buffers";
  const long before = allocations();
  const int parsed = parse_all(parser, stream);
  const long allocated = allocations() - before;
  EXPECT_EQ(parsed, 3);
  EXPECT_EQ(allocated, 0) << "parsing three requests on a warm parser allocated " << allocated
                          << " times; buffers that keep their capacity allocate nothing";
}

}  // namespace
