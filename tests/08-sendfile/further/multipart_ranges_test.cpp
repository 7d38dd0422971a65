// Chapter 8, going further: several ranges in one request, answered with
// 206 and a multipart/byteranges body, one part per range (RFC 9110 §14.6).
// The server decides when that is not worth it: more than 16 ranges,
// overlapping ones, or parts that would add up to more than the whole file
// get the whole file (200), as RFC 9110 §14.2 allows. Run: ./course check 08 --further
#include "../static_fixture.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using rdv::test::explained_in;
using rdv::test::in_quotes;

std::string get(std::string_view target, std::string_view range) {
  return "GET " + std::string(target) + " HTTP/1.1\r\nHost: x\r\nRange: " + std::string(range) +
         "\r\n\r\n";
}

// One part of a multipart/byteranges body.
struct part {
  std::string content_type, content_range, data;
};

// The parts of `body`, delimited by `boundary`; `problem` says what is
// malformed ("" when nothing is).
std::vector<part> parts_of(std::string_view body, const std::string& boundary,
                           std::string& problem) {
  std::vector<part> parts;
  const std::string delimiter = "--" + boundary;
  if (!body.starts_with(delimiter + "\r\n")) {
    problem = "the body should start with \"--\" + boundary + CRLF";
    return parts;
  }
  std::size_t at = 0;
  while (body.substr(at).starts_with(delimiter + "\r\n")) {
    at += delimiter.size() + 2;
    part p;
    for (;;) {  // the part's header fields, up to an empty line
      const auto end = body.find("\r\n", at);
      if (end == std::string_view::npos) {
        problem = "a part's header fields do not end";
        return parts;
      }
      const std::string_view line = body.substr(at, end - at);
      at = end + 2;
      if (line.empty()) break;
      const auto colon = line.find(':');
      const std::string name(line.substr(0, colon));
      const std::string value(line.substr(line.find_first_not_of(' ', colon + 1)));
      if (rdv::test::same_ignoring_case(name, "Content-Type")) p.content_type = value;
      if (rdv::test::same_ignoring_case(name, "Content-Range")) p.content_range = value;
    }
    const auto next = body.find("\r\n" + delimiter, at);
    if (next == std::string_view::npos) {
      problem = "a part's data is not followed by CRLF and the delimiter";
      return parts;
    }
    p.data = body.substr(at, next - at);
    parts.push_back(std::move(p));
    at = next + 2;
  }
  if (body.substr(at) != delimiter + "--\r\n" && body.substr(at) != delimiter + "--") {
    problem = "the body should end with the close delimiter \"--\" + boundary + \"--\"";
  }
  return parts;
}

// The usual tree, served by sendfile or the read/write loop, and a client.
class MultipartRanges : public ::testing::TestWithParam<bool> {
protected:
  ch08::filled_root tree;
  ch08::server s{tree, GetParam()};
  rdv::test::client c{s.thread};
  const std::string big = ch08::pattern(ch08::temp_root::big_size);
  const std::string size = std::to_string(ch08::temp_root::big_size);

  // Asks for `range` of big.bin, expects a multipart answer with the parts
  // `expected` (first byte, last byte), and checks each one.
  void expect_parts(const std::string& range,
                    const std::vector<std::pair<std::size_t, std::size_t>>& expected) {
    c.send(get("/big.bin", range));
    const auto r = c.read_response();
    ASSERT_EQ(r.status, 206) << "sent Range: " << range << "; expected 206\n" << c.transcript();
    const std::string type = r.field("Content-Type");
    const std::string prefix = "multipart/byteranges; boundary=";
    ASSERT_TRUE(type.starts_with(prefix))
        << "several ranges: expected Content-Type: " << prefix << "..., got " << in_quotes(type);
    EXPECT_FALSE(r.has_field("Content-Range"))
        << "a multipart answer has Content-Range in each part, not in its head";
    std::string boundary = type.substr(prefix.size()), problem;
    if (boundary.size() >= 2 && boundary.front() == '"') {
      boundary = boundary.substr(1, boundary.size() - 2);
    }
    const auto parts = parts_of(r.body, boundary, problem);
    ASSERT_EQ(problem, "") << "Range: " << range << "; the multipart body, which begins with:\n"
                           << in_quotes(std::string_view(r.body).substr(0, 400));
    ASSERT_EQ(parts.size(), expected.size()) << "Range: " << range << ": one part per range";
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const auto [first, last] = expected[i];
      const std::string want_range =
          "bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" + size;
      EXPECT_EQ(parts[i].content_type, "application/octet-stream")
          << "part " << i << " should have the file's Content-Type";
      EXPECT_EQ(parts[i].content_range, want_range) << "part " << i << " of Range: " << range;
      ch08::expect_body(std::string_view(big).substr(first, last - first + 1), parts[i].data,
                        "part " + std::to_string(i) + " of Range: " + range);
    }
    c.send("GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n");  // the connection goes on
    EXPECT_EQ(c.read_response().body, ch08::temp_root::hello)
        << "after the multipart answer, the next response on the connection should be whole: "
           "is the multipart answer's Content-Length right?\n"
        << c.transcript();
  }
};

TEST_P(MultipartRanges, SeveralRangesGetOnePartEach) {
  explained_in("ch08-further");
  expect_parts("bytes=0-9,20-29", {{0, 9}, {20, 29}});
}

TEST_P(MultipartRanges, PartsComeInTheOrderAskedInEveryForm) {
  explained_in("ch08-further");
  const std::size_t n = ch08::temp_root::big_size;
  expect_parts("bytes=1048580-, 1000-1099,0-9", {{1048580, n - 1}, {1000, 1099}, {0, 9}});
  expect_parts("bytes=-10,0-9", {{n - 10, n - 1}, {0, 9}});
}

TEST_P(MultipartRanges, SixteenRangesStillGetSixteenParts) {
  explained_in("ch08-further");
  std::string range = "bytes=";
  std::vector<std::pair<std::size_t, std::size_t>> expected;
  for (std::size_t i = 0; i < 16; ++i) {
    range += (i ? "," : "") + std::to_string(i * 1000) + "-" + std::to_string(i * 1000 + 9);
    expected.emplace_back(i * 1000, i * 1000 + 9);
  }
  expect_parts(range, expected);
}

TEST_P(MultipartRanges, MoreThanSixteenRangesGetTheWholeFile) {
  explained_in("ch08-further");
  std::string range = "bytes=";
  for (std::size_t i = 0; i < 17; ++i) {
    range += (i ? "," : "") + std::to_string(i * 1000) + "-" + std::to_string(i * 1000 + 9);
  }
  c.send(get("/big.bin", range));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << "17 ranges: more than this server answers one by one; expected 200 "
                              "with the whole file (RFC 9110 lets a server ignore Range)";
  ch08::expect_body(big, r.body, "17 ranges");
}

TEST_P(MultipartRanges, OverlappingRangesGetTheWholeFile) {
  explained_in("ch08-further");
  c.send(get("/big.bin", "bytes=0-99,50-149"));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << "Range: bytes=0-99,50-149 overlaps (a way to make a server send "
                              "the same bytes many times); expected 200 with the whole file";
  ch08::expect_body(big, r.body, "overlapping ranges");
}

TEST_P(MultipartRanges, PartsLargerThanTheFileGetTheWholeFile) {
  explained_in("ch08-further");
  c.send(get("/hello.txt", "bytes=0-1,4-5"));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 200) << "two ranges of a " << ch08::temp_root::hello.size()
                           << "-byte file: the parts' headers alone are longer than the file; "
                              "expected 200 with the whole file\n"
                           << c.transcript();
  EXPECT_EQ(r.body, ch08::temp_root::hello) << c.transcript();
}

TEST_P(MultipartRanges, OneSatisfiableRangeAmongSeveralGetsAPlain206) {
  explained_in("ch08-further");
  c.send(get("/big.bin", "bytes=10-19,99999999-"));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 206) << c.transcript();
  EXPECT_EQ(r.field("Content-Range"), "bytes 10-19/" + size)
      << "of bytes=10-19,99999999- only the first range is in the file: it is sent as a single "
         "range, with Content-Range in the head (a multipart answer of one part is not allowed)\n"
      << in_quotes(r.raw.substr(0, 300));
  EXPECT_EQ(r.body, big.substr(10, 10));
}

TEST_P(MultipartRanges, NoSatisfiableRangeGets416) {
  explained_in("ch08-further");
  c.send(get("/big.bin", "bytes=99999999-,88888888-88888889"));
  const auto r = c.read_response();
  EXPECT_EQ(r.status, 416) << "no range of bytes=99999999-,88888888-88888889 is in the file\n"
                           << in_quotes(r.raw);
  EXPECT_EQ(r.field("Content-Range"), "bytes */" + size) << in_quotes(r.raw);
}

INSTANTIATE_TEST_SUITE_P(SendfileAndCopy, MultipartRanges, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "sendfile" : "read_write";
                         });

}  // namespace
