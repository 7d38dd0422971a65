#pragma once
/// \file
/// Counting allocations. A test program that links rdv_test_allocations
/// (DEPENDS in rdv_add_chapter_tests) has its global operator new replaced
/// by one that counts every call, on every thread.

namespace rdv::test {

/// How many times operator new (any form) has been called in this program.
long allocations() noexcept;

}  // namespace rdv::test
