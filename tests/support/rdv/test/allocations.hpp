#pragma once
/// \file
/// Counting allocations. A test program that links rdv_test_allocations
/// (DEPENDS in rdv_add_chapter_tests) has its global operator new replaced
/// by one that counts every call, on every thread, and can be told to fail.

namespace rdv::test {

/// How many times operator new (any form) has been called in this program.
long allocations() noexcept;

/// Makes `count` allocations in a row fail, from the one after the next
/// `skip`: the throwing forms of operator new throw std::bad_alloc, the
/// nothrow ones return null. A negative `skip` ends the failures, due or not.
void fail_allocations(long skip, long count = 1) noexcept;

}  // namespace rdv::test
