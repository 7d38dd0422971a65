// Chapter 9: parsing Accept and choosing a representation, table-driven.
#include "negotiation.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <array>
#include <optional>

namespace {

using namespace rdv::rest;
using rdv::test::explained_in;

TEST(Quality, ReadsQvaluesIntoThousandths) {
  explained_in("ch09-accept");
  const struct {
    const char* text;
    std::optional<quality> expected;
  } cases[] = {{"1", 1000},    {"1.", 1000},   {"1.000", 1000}, {"0", 0},      {"0.5", 500},
               {"0.05", 50},   {"0.001", 1},   {"0.999", 999},  {"1.001", {}}, {"2", {}},
               {"0.5555", {}}, {".5", {}},     {"", {}},        {"0,5", {}},   {"1.0x", {}},
               {"-0", {}},     {"01", {}},     {"0.5x", {}},    {"0./", {}},   {"0.:", {}},
               {"0.", 0},      {"1.0000", {}}, {"0.-5", {}},    {"1.-0", {}},  {"0.+5", {}}};
  for (const auto& [text, expected] : cases) {
    quality q = -1;
    const bool ok = parse_quality(text, q);
    EXPECT_EQ(ok, expected.has_value()) << "parse_quality(\"" << text << "\")";
    if (ok && expected) {
      EXPECT_EQ(q, *expected) << "parse_quality(\"" << text << "\")";
    }
  }
}

TEST(Accept, ParsesRangesParametersAndWeights) {
  explained_in("ch09-accept");
  const auto list =
      parse_accept("text/html;level=1, TEXT/*;q=0.3, */*;q=0.1, application/json ;q=1");
  ASSERT_EQ(list.ranges.size(), 4u);
  EXPECT_FALSE(list.malformed);
  EXPECT_EQ(list.ranges[0].type, "text");
  EXPECT_EQ(list.ranges[0].subtype, "html");
  ASSERT_EQ(list.ranges[0].parameters.size(), 1u);
  EXPECT_EQ(list.ranges[0].parameters[0].first, "level");
  EXPECT_EQ(list.ranges[0].specificity(), 3);
  EXPECT_EQ(list.ranges[1].type, "text");
  EXPECT_EQ(list.ranges[1].weight, 300);
  EXPECT_EQ(list.ranges[1].specificity(), 1);
  EXPECT_EQ(list.ranges[2].specificity(), 0);
  EXPECT_EQ(list.ranges[3].weight, 1000);
}

TEST(Accept, SkipsMalformedElementsAndKeepsTheRest) {
  explained_in("ch09-accept");
  const auto list = parse_accept("garbage, application/xml;q=0.5, */json, text/plain;q=2, ,");
  EXPECT_TRUE(list.malformed);
  ASSERT_EQ(list.ranges.size(), 1u);
  EXPECT_EQ(list.ranges[0].subtype, "xml");
  EXPECT_EQ(list.ranges[0].weight, 500);
  const auto quoted = parse_accept(R"(text/plain;note="a, b";q=0.4)");
  ASSERT_EQ(quoted.ranges.size(), 1u) << "a comma inside a quoted string does not split the list";
  EXPECT_EQ(quoted.ranges[0].weight, 400);
}

constexpr std::array<std::string_view, 2> json_then_xml{"application/json", "application/xml"};

// Which representation the server sends for an Accept value (nullopt: none).
std::optional<std::string_view> chosen(std::optional<std::string_view> accept) {
  std::optional<accept_list> parsed;
  if (accept) parsed = parse_accept(*accept);
  const auto index = negotiate(parsed, json_then_xml);
  return index ? std::optional(json_then_xml[*index]) : std::nullopt;
}

TEST(Negotiation, WeighsEachOfferByTheMostSpecificRange) {
  explained_in("ch09-negotiation");
  const auto accept =
      parse_accept("*/*;q=0.1, application/*;q=0.5, application/xml, text/html;q=0");
  EXPECT_EQ(quality_of(accept, media_type::of("application/xml")), 1000);
  EXPECT_EQ(quality_of(accept, media_type::of("application/json")), 500);
  EXPECT_EQ(quality_of(accept, media_type::of("image/png")), 100);
  EXPECT_EQ(quality_of(accept, media_type::of("text/html")), 0);
  EXPECT_EQ(quality_of(parse_accept("text/plain"), media_type::of("application/json")), 0);
}

TEST(Negotiation, ChoosesWhatTheClientPrefers) {
  explained_in("ch09-negotiation");
  const struct {
    std::optional<std::string_view> accept;
    std::optional<std::string_view> expected;
  } cases[] = {
      {std::nullopt, "application/json"},  // no Accept: the server's first
      {"application/xml", "application/xml"},
      {"application/json", "application/json"},
      {"*/*", "application/json"},                   // a tie: the server's order
      {"*/*, application/xml", "application/json"},  // a tie still, however each is named
      {"application/xml, application/json", "application/json"},  // whatever the client's order
      {"application/*", "application/json"},
      {"application/xml;q=0.9, application/json;q=0.8", "application/xml"},
      {"application/json;q=0.2, */*;q=0.5", "application/xml"},  // */* weighs xml higher
      {"*/*, application/json;q=0", "application/xml"},          // q=0 refuses json
      {"text/html", std::nullopt},                               // 406
      {"application/*;q=0", std::nullopt},                       // 406
      {"text/html, application/xml;q=0.001", "application/xml"},
      {"text/xml", std::nullopt},  // the subtype matches only under its own type
      {"application/xml, garbage", "application/xml"},   // a bad element costs only itself
      {"text/html, garbage", std::nullopt},              // the rest still refuses both
      {"APPLICATION/XML", "application/xml"},            // case-insensitive
      {"application/json;charset=utf-8", std::nullopt},  // parameters must match
      {"application/*;charset=utf-8", std::nullopt},     // on a wildcard too
      {"*/*;level=1", std::nullopt},
      {"application/json;q=0.5, application/json;q=0", "application/json"},  // the first speaks
      {"application/json;q=0, application/json;q=0.5", std::nullopt},
      {"nonsense", "application/json"},  // nothing usable: disregarded
      {"", "application/json"},
  };
  for (const auto& [accept, expected] : cases) {
    EXPECT_EQ(chosen(accept), expected) << "Accept: " << accept.value_or("(absent)");
  }
}

TEST(Negotiation, NothingOfferedIsNothingChosen) {
  explained_in("ch09-negotiation");
  for (const std::optional<std::string_view> accept :
       {std::optional<std::string_view>(), std::optional<std::string_view>("*/*")}) {
    std::optional<accept_list> parsed;
    if (accept) parsed = parse_accept(*accept);
    EXPECT_EQ(negotiate(parsed, {}), std::nullopt)
        << "a resource with no representation has none to choose, whatever the client accepts "
           "(Accept: "
        << accept.value_or("(absent)") << ")";
  }
}

}  // namespace
