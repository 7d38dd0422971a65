// Chapter 8: what the server says about a file — its type and dates — and
// how it answers conditional requests.
#include "content_type.hpp"
#include "http_date.hpp"
#include "preconditions.hpp"

#include "rdv/test/book.hpp"
#include "rdv/test/escape.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace std::chrono;
using rdv::test::explained_in;
using rdv::test::in_quotes;

// RFC 9110's example date, 1994-11-06 08:49:37 UTC.
constexpr sys_seconds example = sys_days(1994y / November / 6) + 8h + 49min + 37s;

TEST(ContentType, FollowsTheExtensionIgnoringCase) {
  explained_in("ch08-metadata");
  const std::vector<std::pair<std::string_view, std::string_view>> cases = {
      {"index.html", "text/html; charset=utf-8"},
      {"docs/INDEX.HTM", "text/html; charset=utf-8"},
      {"book.css", "text/css; charset=utf-8"},
      {"menu.js", "text/javascript; charset=utf-8"},
      {"logo.PNG", "image/png"},
      {"diagram.svg", "image/svg+xml"},
      {"search/all.json", "application/json"},
      {"notes.txt", "text/plain; charset=utf-8"},
      {"big.bin", "application/octet-stream"},
      {"Makefile", "application/octet-stream"},
      {".profile", "application/octet-stream"},
      {"dir.d/file", "application/octet-stream"},
      {"trailing.", "application/octet-stream"},
      {"archive.verylongextension", "application/octet-stream"},
  };
  for (const auto& [name, type] : cases) {
    EXPECT_EQ(rdv::files::content_type_for(name), type) << "for " << in_quotes(name);
  }
}

TEST(HttpDate, WritesImfFixdate) {
  explained_in("ch08-metadata");
  EXPECT_EQ(rdv::http::format_http_date(example), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(rdv::http::format_http_date(sys_days(2000y / February / 29) + 0s),
            "Tue, 29 Feb 2000 00:00:00 GMT");
  EXPECT_EQ(rdv::http::format_http_date(sys_seconds{}), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(rdv::http::http_date_now().size(), 29u);
}

TEST(HttpDate, ReadsTheThreeFormatsRfc9110Requires) {
  explained_in("ch08-metadata");
  const sys_seconds now = sys_days(2025y / March / 1) + 0s;
  for (const char* text : {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                           "Sun Nov  6 08:49:37 1994"}) {
    const auto parsed = rdv::http::parse_http_date(text, now);
    ASSERT_TRUE(parsed) << in_quotes(text) << " is a valid HTTP date";
    EXPECT_EQ(*parsed, example) << in_quotes(text);
  }
  EXPECT_EQ(rdv::http::parse_http_date("Thu Nov 16 08:49:37 1994", now),
            sys_days(1994y / November / 16) + 8h + 49min + 37s);
  // A two-digit year more than 50 years ahead is the century before.
  EXPECT_EQ(rdv::http::parse_http_date("Tuesday, 01-Jan-80 00:00:00 GMT", now),
            sys_days(1980y / January / 1) + 0s);
  EXPECT_EQ(rdv::http::parse_http_date("Monday, 01-Jan-70 00:00:00 GMT", now),
            sys_days(2070y / January / 1) + 0s);
  EXPECT_EQ(rdv::http::parse_http_date("Monday, 01-Jan-35 00:00:00 GMT", now),
            sys_days(2035y / January / 1) + 0s);
  EXPECT_EQ(rdv::http::parse_http_date("Wednesday, 01-Jan-75 00:00:00 GMT", now),
            sys_days(2075y / January / 1) + 0s)
      << "fifty years ahead, and no more: this century";
  EXPECT_EQ(rdv::http::parse_http_date("Thursday, 01-Jan-76 00:00:00 GMT", now),
            sys_days(1976y / January / 1) + 0s)
      << "more than fifty years ahead: the century before";
}

TEST(HttpDate, RejectsWhatIsNotADate) {
  explained_in("ch08-metadata");
  for (const char* text :
       {"", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT ", "sun, 06 nov 1994 08:49:37 GMT", "Sun Nov 06 08:49:37 94",
        "1994-11-06T08:49:37Z"}) {
    EXPECT_FALSE(rdv::http::parse_http_date(text)) << in_quotes(text) << " is not an HTTP date";
  }
}

TEST(EntityTags, WeakComparisonIgnoresTheWeakMarkStrongDoesNot) {
  explained_in("ch08-conditional");
  using rdv::http::strong_match;
  using rdv::http::weak_match;
  EXPECT_TRUE(weak_match("\"v1\"", "\"v1\""));
  EXPECT_TRUE(weak_match("W/\"v1\"", "\"v1\""));
  EXPECT_TRUE(weak_match("\"v0\", W/\"v1\"", "\"v1\""));
  EXPECT_TRUE(weak_match(" * ", "\"v1\""));
  EXPECT_TRUE(weak_match("\"a,b\", \"v1\"", "\"v1\"")) << "a tag may hold a comma";
  EXPECT_FALSE(weak_match("\"a,\"v1\"\"", "\"v1\""));
  EXPECT_FALSE(weak_match("\"v2\"", "\"v1\""));
  EXPECT_FALSE(weak_match("v1", "\"v1\"")) << "an entity tag is quoted";
  EXPECT_TRUE(strong_match("\"v1\"", "\"v1\""));
  EXPECT_TRUE(strong_match("*", "\"v1\""));
  EXPECT_FALSE(strong_match("W/\"v1\"", "\"v1\""));
  EXPECT_FALSE(strong_match("\"v1\"", "W/\"v1\""));
}

struct conditional_case {
  const char* what;
  rdv::http::conditions conditions;
  bool get_or_head;
  rdv::http::precondition expected;
};

TEST(Preconditions, FollowTheOrderOfRfc9110) {
  explained_in("ch08-conditional");
  using rdv::http::precondition;
  const rdv::http::validators file{"\"abc\"", example};
  const std::string_view same = "Sun, 06 Nov 1994 08:49:37 GMT",
                         before = "Sun, 06 Nov 1994 08:49:36 GMT",
                         after = "Sun, 06 Nov 1994 08:49:38 GMT";
  const std::vector<conditional_case> cases = {
      {"no condition", {}, true, precondition::proceed},
      {"If-None-Match with the current tag",
       {.if_none_match = "\"abc\""},
       true,
       precondition::not_modified},
      {"If-None-Match with a weak tag of it",
       {.if_none_match = "W/\"abc\""},
       true,
       precondition::not_modified},
      {"If-None-Match: *", {.if_none_match = "*"}, true, precondition::not_modified},
      {"If-None-Match with an old tag", {.if_none_match = "\"old\""}, true, precondition::proceed},
      {"If-None-Match matching, not GET or HEAD",
       {.if_none_match = "\"abc\""},
       false,
       precondition::failed},
      {"If-Modified-Since the Last-Modified date",
       {.if_modified_since = same},
       true,
       precondition::not_modified},
      {"If-Modified-Since later", {.if_modified_since = after}, true, precondition::not_modified},
      {"If-Modified-Since earlier", {.if_modified_since = before}, true, precondition::proceed},
      {"If-Modified-Since not a date", {.if_modified_since = "soon"}, true, precondition::proceed},
      {"If-Modified-Since, not GET or HEAD",
       {.if_modified_since = same},
       false,
       precondition::proceed},
      {"If-None-Match beats If-Modified-Since (tag differs)",
       {.if_none_match = "\"old\"", .if_modified_since = after},
       true,
       precondition::proceed},
      {"If-None-Match beats If-Modified-Since (tag matches)",
       {.if_none_match = "\"abc\"", .if_modified_since = before},
       true,
       precondition::not_modified},
      {"If-Match with the current tag", {.if_match = "\"abc\""}, true, precondition::proceed},
      {"If-Match with an old tag", {.if_match = "\"old\""}, true, precondition::failed},
      {"If-Match with a weak tag", {.if_match = "W/\"abc\""}, true, precondition::failed},
      {"If-Unmodified-Since earlier", {.if_unmodified_since = before}, true, precondition::failed},
      {"If-Unmodified-Since the same", {.if_unmodified_since = same}, true, precondition::proceed},
      {"If-Unmodified-Since earlier, not GET or HEAD (for any method)",
       {.if_unmodified_since = before},
       false,
       precondition::failed},
      {"If-Match with an old tag, not GET or HEAD (for any method)",
       {.if_match = "\"old\""},
       false,
       precondition::failed},
      {"If-Match beats If-Unmodified-Since",
       {.if_match = "\"abc\"", .if_unmodified_since = before},
       true,
       precondition::proceed},
      {"If-Match holds, then If-None-Match",
       {.if_match = "\"abc\"", .if_none_match = "\"abc\""},
       true,
       precondition::not_modified},
      {"If-Match fails, whatever If-None-Match says",
       {.if_match = "\"old\"", .if_none_match = "\"abc\""},
       true,
       precondition::failed},
      {"If-Unmodified-Since fails, whatever If-Modified-Since says",
       {.if_modified_since = same, .if_unmodified_since = before},
       true,
       precondition::failed},
      {"If-Unmodified-Since not a date",
       {.if_unmodified_since = "soon"},
       true,
       precondition::proceed},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(rdv::http::evaluate(c.conditions, c.get_or_head, file), c.expected) << c.what;
  }
}

TEST(Preconditions, IfRangeKeepsTheRangeOnlyForTheSameFile) {
  explained_in("ch08-ranges");
  const rdv::http::validators file{"\"abc\"", example};
  using rdv::http::range_still_applies;
  EXPECT_TRUE(range_still_applies({}, file));
  EXPECT_TRUE(range_still_applies({.if_range = "\"abc\""}, file));
  EXPECT_FALSE(range_still_applies({.if_range = "\"old\""}, file));
  EXPECT_FALSE(range_still_applies({.if_range = "W/\"abc\""}, file))
      << "If-Range compares strongly";
  EXPECT_TRUE(range_still_applies({.if_range = "Sun, 06 Nov 1994 08:49:37 GMT"}, file));
  EXPECT_FALSE(range_still_applies({.if_range = "Sun, 06 Nov 1994 08:49:38 GMT"}, file));
  EXPECT_FALSE(range_still_applies({.if_range = "not a date"}, file));
}

}  // namespace
