// The main() of every test program: GoogleTest's, plus the watch for
// exercise stubs (unsolved.hpp). Each test starts with nothing reached, and
// a stub reached anywhere in the process is noted the moment it is made.
#include "rdv/test/unsolved.hpp"
#include "rdv/todo.hpp"

#include <gtest/gtest.h>

namespace {

class forget_between_tests : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override { rdv::test::forget_todo(); }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new forget_between_tests);
  rdv::todo::observe([](const std::string& message) noexcept { rdv::test::note_todo(message); });
  return RUN_ALL_TESTS();
}
