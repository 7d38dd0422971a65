// Chapter 3's mailbox tests: the mailbox on its own, without a scheduler
// (exercise ch03.2), then pids and messages.
#include "mailbox.hpp"
#include "message.hpp"
#include "pid.hpp"

#include "rdv/test/book.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace rdv::proc;
using rdv::test::explained_in;

// A mailbox and the pool its envelopes come from, with helpers to post
// messages and take them back, and a summary for failure messages.
class Mailbox : public ::testing::Test {
protected:
  message_pool pool;
  mailbox box;

  ~Mailbox() override { box.clear(pool); }

  template <class M>
  void post(M message) {
    box.push(make_letter(pool, std::move(message)));
  }

  // Takes the first message of a type in `wanted` and describes it
  // ("int 1", "string a"), or returns "nothing".
  std::string take(std::initializer_list<const message_type*> wanted, mailbox::cursor& at) {
    envelope* e = box.take({wanted.begin(), wanted.size()}, at);
    if (e == nullptr) return "nothing";
    envelope_owner owner(e, pool);
    if (e->next != nullptr) return "an envelope still linked to the mailbox";
    if (e->type == &message_type_of<int>) return "int " + std::to_string(message_in<int>(e));
    if (e->type == &message_type_of<std::string>) return "string " + message_in<std::string>(e);
    return "something else";
  }
  std::string take(std::initializer_list<const message_type*> wanted) {
    mailbox::cursor at = box.front();
    return take(wanted, at);
  }
};

constexpr const message_type* any_int = &message_type_of<int>;
constexpr const message_type* any_string = &message_type_of<std::string>;

TEST_F(Mailbox, TakesTheOldestMessageOfAWantedType) {
  explained_in("ch03-mailbox");
  post(1);
  post(2);
  EXPECT_EQ(take({any_int}), "int 1") << "messages come out in the order they arrived";
  EXPECT_EQ(take({any_int}), "int 2");
  EXPECT_EQ(take({any_int}), "nothing") << "the mailbox should be empty now";
  EXPECT_TRUE(box.empty());
}

TEST_F(Mailbox, SkipsMessagesOfOtherTypesAndLeavesThemQueuedInOrder) {
  explained_in("ch03-mailbox");
  post(std::string("a"));
  post(1);
  post(std::string("b"));
  post(2);
  EXPECT_EQ(take({any_int}), "int 1") << "the first int, behind a string";
  EXPECT_EQ(box.size(), 3u) << "the string before it must stay in the mailbox";
  EXPECT_EQ(take({any_string}), "string a") << "skipped messages keep their place";
  EXPECT_EQ(take({any_string}), "string b");
  EXPECT_EQ(take({any_string}), "nothing");
  EXPECT_EQ(take({any_int}), "int 2");
}

TEST_F(Mailbox, TakesWhicheverWantedTypeArrivedFirst) {
  explained_in("ch03-mailbox");
  post(std::vector<int>{});
  post(std::string("x"));
  post(7);
  EXPECT_EQ(take({any_int, any_string}), "string x") << "arrival order decides, not the order "
                                                        "of the wanted types";
  EXPECT_EQ(take({any_int, any_string}), "int 7");
}

TEST_F(Mailbox, AppendsAfterTakingTheLastMessage) {
  explained_in("ch03-mailbox");
  post(std::string("first"));
  post(1);
  EXPECT_EQ(take({any_int}), "int 1");  // the last one: the tail must move back
  post(2);
  post(std::string("second"));
  EXPECT_EQ(take({any_int}), "int 2") << "a message posted after taking the last one was lost: "
                                         "does take() update the tail?";
  EXPECT_EQ(take({any_string}), "string first");
  EXPECT_EQ(take({any_string}), "string second");
  EXPECT_TRUE(box.empty());
}

TEST_F(Mailbox, ACursorGoesOnFromWhereItStopped) {
  explained_in("ch03-selective");
  post(std::string("a"));
  mailbox::cursor at = box.front();
  EXPECT_EQ(take({any_int}, at), "nothing");
  EXPECT_EQ(*at, nullptr) << "after finding nothing, the cursor should wait at the end";
  post(std::string("b"));
  post(3);
  EXPECT_EQ(take({any_int}, at), "int 3") << "the cursor should see messages that came later";
  EXPECT_EQ(box.size(), 2u);
}

TEST_F(Mailbox, ACursorGoesOnFromAMessageItTook) {
  explained_in("ch03-selective");
  post(1);
  post(2);
  mailbox::cursor at = box.front();
  EXPECT_EQ(take({any_int}, at), "int 1");
  EXPECT_EQ(take({any_int}, at), "int 2")
      << "after a message is taken, the cursor should be where the next look starts: at the "
         "message that followed it";
}

TEST_F(Mailbox, ACursorLooksOnlyAtAndAfterWhereItIs) {
  explained_in("ch03-selective");
  post(std::string("a"));
  post(1);
  post(std::string("b"));
  mailbox::cursor at = box.front();
  EXPECT_EQ(take({any_int}, at), "int 1");
  EXPECT_EQ(take({any_string}, at), "string b")
      << "the cursor is past \"a\" now: a take from it starts where it is, not at the oldest "
         "message (a receive looks at each message once, however often it wakes)";
  EXPECT_EQ(take({any_string}), "string a");
}

TEST(Pid, PrintsLikeErlang) {
  explained_in("ch03-pids");
  EXPECT_EQ(to_string(pid{42, 0}), "<0.42.0>");
  EXPECT_EQ(to_string(pid{7, 3}), "<0.7.3>");
  EXPECT_FALSE(pid{}) << "pid{} names nobody";
  EXPECT_TRUE((pid{1, 0}));
  EXPECT_NE((pid{1, 0}), (pid{1, 1}));
}

TEST(Messages, SmallOnesComeFromThePoolAndBigOnesFromTheHeap) {
  explained_in("ch03-messages");
  EXPECT_TRUE(fits_block<int>);
  EXPECT_TRUE(fits_block<std::string>);
  struct medium {
    char bytes[200];
  };
  EXPECT_TRUE(fits_block<medium>);  // in a block of four cache lines
  EXPECT_EQ(size_class_of<int>, 0u);
  EXPECT_EQ(size_class_of<medium>, 2u);
  struct big {
    char bytes[300];
  };
  EXPECT_FALSE(fits_block<big>);
  message_pool pool;
  mailbox box;
  box.push(make_letter(pool, big{{'x'}}));
  box.push(make_letter(pool, std::make_unique<int>(5)));
  const message_type* wanted[] = {&message_type_of<std::unique_ptr<int>>};
  mailbox::cursor at = box.front();
  envelope* e = box.take(wanted, at);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(*message_in<std::unique_ptr<int>>(e), 5);
  e->type->destroy(e, pool);
  box.clear(pool);  // frees the big one: AddressSanitizer would report a leak
}

// Makes a letter of `first`, frees it, and makes one of `second`: of the
// same size, it must get the block just freed, aligned to a cache line.
template <class M>
void expect_block_reused(message_pool& pool, M first, M second) {
  envelope* e = make_letter(pool, std::move(first));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(e) % message_pool::block_align, 0u);
  const void* where = e;
  e->type->destroy(e, pool);
  envelope* again = make_letter(pool, std::move(second));
  EXPECT_EQ(again, where) << "the block just freed is the next of its size given out";
  again->type->destroy(again, pool);
}

TEST(Messages, EachSizeOfBlockIsRecycled) {
  explained_in("ch03-messages");
  struct medium {
    char bytes[200];
  };
  message_pool pool;
  expect_block_reused(pool, 1, 2);                          // one cache line
  expect_block_reused(pool, medium{{'x'}}, medium{{'y'}});  // four
}

}  // namespace
