// Chapter 8: which bytes a Range field asks for, and the answer it gets.
#include "byte_range.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <vector>

namespace {

using rdv::http::range_decision;
using rdv::test::explained_in;
using rdv::test::in_quotes;

struct range_case {
  std::optional<std::string_view> range;
  std::uint64_t length;
  range_decision::kind what;
  std::uint64_t first = 0, last = 0;
};

const char* name(range_decision::kind k) {
  switch (k) {
  case range_decision::whole: return "whole (200)";
  case range_decision::partial: return "partial (206)";
  case range_decision::unsatisfiable: return "unsatisfiable (416)";
  }
  return "?";
}

}  // namespace

// How GoogleTest shows a decision in a failed comparison: by name, not as a
// number.
namespace rdv::http {
void PrintTo(range_decision::kind k, std::ostream* out) { *out << name(k); }
}  // namespace rdv::http

namespace {

TEST(Range, AnswersOneRangeOfEachForm) {
  explained_in("ch08-ranges");
  constexpr auto partial = range_decision::partial;
  const std::vector<range_case> cases = {
      {"bytes=0-99", 1000, partial, 0, 99},
      {"bytes=100-100", 1000, partial, 100, 100},
      {"bytes=500-", 1000, partial, 500, 999},
      {"bytes=-100", 1000, partial, 900, 999},
      {"bytes=-5000", 1000, partial, 0, 999},       // more than there is: all of it
      {"bytes=900-5000", 1000, partial, 900, 999},  // the last byte cut to the end
      {"bytes=0-1000", 1000, partial, 0, 999},      // byte 1000 is past it too
      {"bytes=999-1000", 1000, partial, 999, 999},
      {"bytes=0-18446744073709551616", 1000, partial, 0, 999},  // past 64 bits
      {"BYTES=0-0", 1000, partial, 0, 0},
      {"bytes= 0-9 ", 1000, partial, 0, 9},
      {"bytes=0-9, ", 1000, partial, 0, 9},  // empty list elements do not count
      {"bytes=999-", 1000, partial, 999, 999},
  };
  for (const auto& c : cases) {
    const auto d = rdv::http::decide_range(c.range, c.length);
    EXPECT_EQ(d.what, c.what) << in_quotes(*c.range) << " of " << c.length
                              << " bytes: " << name(d.what);
    EXPECT_EQ(d.first, c.first) << in_quotes(*c.range) << " of " << c.length << " bytes";
    EXPECT_EQ(d.last, c.last) << in_quotes(*c.range) << " of " << c.length << " bytes";
  }
}

TEST(Range, RefusesRangesOutsideTheFileWith416) {
  explained_in("ch08-ranges");
  for (const auto& [range, length] : std::vector<std::pair<std::string_view, std::uint64_t>>{
           {"bytes=1000-", 1000},
           {"bytes=1000-2000", 1000},
           {"bytes=-0", 1000},
           {"bytes=-0", 0},
           {"bytes=0-", 0},
           {"bytes=18446744073709551616-", 1000}}) {
    EXPECT_EQ(rdv::http::decide_range(range, length).what, range_decision::unsatisfiable)
        << in_quotes(range) << " of " << length << " bytes";
  }
  EXPECT_EQ(rdv::http::content_range({range_decision::unsatisfiable}, 1000), "bytes */1000");
  EXPECT_EQ(rdv::http::content_range({range_decision::partial, 0, 99}, 1000), "bytes 0-99/1000");
}

TEST(Range, SendsTheWholeFileForWhatItIgnores) {
  explained_in("ch08-ranges");
  const std::vector<std::optional<std::string_view>> ignored = {
      std::nullopt,  "",           "bytes=",        "bytes=0-1,5-6", "bytes=0-1, -5",
      "items=0-5",   "bytes 0-5",  "bytes=5-1",     "bytes=a-5",     "bytes=5-b",
      "bytes=-",     "bytes=--5",  "bytes=0x10-20", "bytes=1-2-3",   "bytes=,",
      "bytes=0 - 4", "bytes=1 -2", "bytes=0- 4",    "bytes=+1-2",
  };
  for (const auto& range : ignored) {
    EXPECT_EQ(rdv::http::decide_range(range, 1000).what, range_decision::whole)
        << (range ? in_quotes(*range) : "no Range field") << ": ignored, the whole file";
  }
  EXPECT_EQ(rdv::http::decide_range("bytes=-5", 0).what, range_decision::whole)
      << "the last 5 bytes of an empty file: the whole (empty) file";
  EXPECT_EQ(rdv::http::decide_range("bytes=5-3", 2).what, range_decision::whole)
      << "a range whose last byte comes before its first is not one, though its first is past "
         "the end: ignored, the whole file";
}

}  // namespace
