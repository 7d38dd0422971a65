#pragma once
/// \file
/// Links a test to the book section that explains the behaviour it checks.

#include <gtest/gtest.h>

namespace rdv::test {

/// Records that the current test's behaviour is explained in the book under
/// `anchor` (a section id such as "ch01-spawn-bug"); `./course check` prints
/// the link next to a failure, and `./course verify` checks the anchor exists.
inline void explained_in(const char* anchor) { ::testing::Test::RecordProperty("book", anchor); }

}  // namespace rdv::test
