// Chapter 10: request ids, the names under which held clients wait.
#include "request_id.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using rdv::test::explained_in;

TEST(RequestIds, AreThirtyTwoLowercaseHexDigitsAndAllDifferent) {
  explained_in("ch10-ids");
  rdv::hub::id_source ids;
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {  // past one batch of random bytes (256 ids)
    const std::string id = ids.next();
    ASSERT_TRUE(rdv::hub::is_request_id(id))
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
    const std::string id = ids.next();
    for (std::size_t at = 0; at < id.size() && at < digits.size(); ++at) digits[at].insert(id[at]);
  }
  for (std::size_t at = 0; at < digits.size(); ++at) {
    EXPECT_EQ(digits[at].size(), 16u)
        << "position " << at << " of 1000 ids used only " << digits[at].size()
        << " of the 16 hex digits: are the ids made from getrandom(2)'s bytes?";
  }
}

TEST(RequestIds, OnlyTheHubsOwnFormIsAnId) {
  explained_in("ch10-ids");
  EXPECT_TRUE(rdv::hub::is_request_id("0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(rdv::hub::is_request_id("0123456789ABCDEF0123456789ABCDEF")) << "uppercase";
  EXPECT_FALSE(rdv::hub::is_request_id("0123456789abcdef0123456789abcde")) << "31 digits";
  EXPECT_FALSE(rdv::hub::is_request_id("0123456789abcdef0123456789abcdef0")) << "33 digits";
  EXPECT_FALSE(rdv::hub::is_request_id("0123456789abcdef0123456789abcdeg")) << "not hex";
  EXPECT_FALSE(rdv::hub::is_request_id("../../../etc/passwd/0123456789ab")) << "a path";
}

}  // namespace
