// Chapter 10: request ids, the names under which held clients wait.
#include "ids.hpp"
#include "request_id.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using rdv::test::explained_in;

TEST(RequestIds, AreThirtyTwoLowercaseHexDigitsAndAllDifferent) {
  explained_in("ch10-ids");
  rdv::hub::id_source ids;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {  // past one batch of random bytes (256 ids)
    const std::string id(ids.next().text());
    ASSERT_TRUE(ch10::is_lone_hub_id(id))
        << "an id is 32 lowercase hex digits (128 bits), but one was \"" << id << '"';
    ASSERT_TRUE(seen.insert(id).second) << "id " << id << " came twice in " << i + 1 << " ids";
  }
}

TEST(RequestIds, AreRandomNotCounted) {
  explained_in("ch10-ids");
  // Over 1000 random ids, every hex digit shows up in every position (the
  // chance that one does not is below 1e-26). A counter, a clock or a
  // repeated pattern fails this.
  rdv::hub::id_source ids;
  std::vector<std::set<char>> digits(rdv::hub::id_length);
  for (int i = 0; i < 1000; ++i) {
    const std::string id(ids.next().text());
    for (std::size_t at = 0; at < id.size() && at < digits.size(); ++at) digits[at].insert(id[at]);
  }
  for (std::size_t at = 0; at < digits.size(); ++at) {
    EXPECT_EQ(digits[at].size(), 16u)
        << "position " << at << " of 1000 ids used only " << digits[at].size()
        << " of the 16 hex digits: are the ids made from getrandom(2)'s bytes?";
  }
}

TEST(RequestIds, EveryDigitIsRandomOnItsOwn) {
  explained_in("ch10-ids");
  // Two positions of random ids hold the same digit in about one id of 16.
  // Positions that agree in most of 1000 ids come from the same random bits
  // (eight random bytes written twice, say): 64 bits, not 128.
  rdv::hub::id_source ids;
  std::vector<std::string> made;
  for (int i = 0; i < 1000; ++i) made.emplace_back(ids.next().text());
  const std::size_t length = made.front().size();
  for (std::size_t a = 0; a < length; ++a) {
    for (std::size_t b = a + 1; b < length; ++b) {
      const auto same = std::count_if(made.begin(), made.end(),
                                      [a, b](const std::string& id) { return id[a] == id[b]; });
      ASSERT_LT(same, 500) << "positions " << a << " and " << b << " hold the same digit in "
                           << same << " of 1000 ids: they come from the same random bits";
    }
  }
}

TEST(RequestIds, NoTwoIdsShareRandomBytes) {
  explained_in("ch10-ids");
  // Each half of an id is 64 random bits: among 2,000 halves, two alike
  // come from the same bytes used twice (an id made partly of the last one's).
  rdv::hub::id_source ids;
  std::set<std::string> halves;
  for (int i = 0; i < 1000; ++i) {
    const std::string id(ids.next().text());
    for (const std::size_t at : {std::size_t{0}, id.size() / 2}) {
      ASSERT_TRUE(halves.insert(id.substr(at, id.size() / 2)).second)
          << "half of id " << id
          << " was half of an earlier id too: the source used its random "
             "bytes twice";
    }
  }
}

TEST(RequestIds, OnlyTheHubsOwnFormIsAnId) {
  explained_in("ch10-ids");
  using rdv::hub::request_id;
  const std::string hex = "0123456789abcdef0123456789abcdef";
  ASSERT_TRUE(request_id::parse(hex));
  EXPECT_EQ(request_id::parse(hex)->text(), hex);
  EXPECT_EQ(request_id::parse(hex)->hub(), "") << "a lone hub's id names no hub";
  EXPECT_FALSE(request_id::parse("0123456789ABCDEF0123456789ABCDEF")) << "uppercase";
  EXPECT_FALSE(request_id::parse("0123456789abcdef0123456789abcde")) << "31 digits";
  EXPECT_FALSE(request_id::parse("0123456789abcdef0123456789abcdef0")) << "33 digits";
  EXPECT_FALSE(request_id::parse("0123456789abcdef0123456789abcdeg")) << "not hex";
  EXPECT_FALSE(request_id::parse("../../../etc/passwd/0123456789ab")) << "a path";
}

TEST(RequestIds, AnIdNamesItsHubOnlyWhenTheNameIsWellFormed) {
  explained_in("ch10-ids");
  using rdv::hub::request_id;
  const std::string hex(32, 'a');
  ASSERT_TRUE(request_id::parse("eu-west-2." + hex));
  EXPECT_EQ(request_id::parse("eu-west-2." + hex)->hub(), "eu-west-2");
  for (const std::string& bad :
       {"." + hex, "Here." + hex, "a_b." + hex, "a b." + hex, "0123456789abcdefg." + hex,
        "../x." + hex, "a*." + hex, "a>." + hex, "a.b." + hex, "a." + hex + "."}) {
    EXPECT_FALSE(request_id::parse(bad))
        << bad << ": a name that is not a hub's must not become part of a bus subject";
  }
}

TEST(RequestIds, AHubsSourceWritesItsNameBeforeEachId) {
  explained_in("ch10-ids");
  rdv::hub::id_source ids("here");
  const rdv::hub::request_id id = ids.next();
  EXPECT_EQ(id.hub(), "here");
  EXPECT_EQ(id.text().substr(0, 5), "here.");
  EXPECT_EQ(rdv::hub::request_id::parse(id.text()), id) << "an id reads back as itself";
}

TEST(RequestIds, ASourceTakesOnlyANameAHubMayHave) {
  explained_in("ch10-ids");
  const std::string longest(16, 'h');  // an id holds the longest name, a dot and 32 digits
  const rdv::hub::request_id id = rdv::hub::id_source(longest).next();
  EXPECT_EQ(id.hub(), longest);
  EXPECT_EQ(id.text().size(), 16u + 1 + rdv::hub::id_length);
  EXPECT_EQ(rdv::hub::request_id::parse(id.text()), id);
  EXPECT_THROW(rdv::hub::id_source(longest + 'h'), std::invalid_argument) << "17 characters";
  EXPECT_THROW(rdv::hub::id_source("Here"), std::invalid_argument) << "an upper-case letter";
  EXPECT_THROW(rdv::hub::id_source("he.re"), std::invalid_argument) << "a dot ends a hub's name";
}

}  // namespace
