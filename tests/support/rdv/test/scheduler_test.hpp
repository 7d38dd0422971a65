#pragma once
/// \file
/// A GoogleTest fixture for tests that run processes on a scheduler of
/// their own (chapter 3 on), and a guard that shows whether a stack unwound.
/// Header-only: include it from a chapter's tests, which link rdv::proc.

#include "processes.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <utility>

namespace rdv::test {

/// A fixture with a scheduler, `node`, whose crash reports go to `crashes`.
/// Unless a test sets `crashes_expected`, it fails at its end if a process
/// crashed, with the report: that names the exception, and so the TODO an
/// exercise stub reached.
class scheduler_test : public ::testing::Test {
protected:
  std::ostringstream crashes;
  rdv::proc::scheduler node{{.crash_log = &crashes}};
  bool crashes_expected = false;

  void TearDown() override {
    if (!crashes_expected) {
      EXPECT_EQ(crashes.str(), "") << "no process should have crashed";
    }
  }
};

/// Runs a function when it is destroyed: put one on a process's stack to
/// see whether the stack unwound, and what it left.
class on_unwind {
public:
  explicit on_unwind(std::function<void()> f) : f_(std::move(f)) {}
  ~on_unwind() { f_(); }
  on_unwind(const on_unwind&) = delete;
  on_unwind& operator=(const on_unwind&) = delete;

private:
  std::function<void()> f_;
};

}  // namespace rdv::test
