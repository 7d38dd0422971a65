"""Reading GoogleTest's runs (tools/course/gtest.py): skips and stubs."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import gtest  # noqa: E402  (after the path is set)

OUTPUT = """[ RUN      ] Stacks.AGuardPageStopsAStackOverflow
/work/tests/03-processes/behaviour_test.cpp:254: Skipped
this kernel has no MADV_GUARD_INSTALL (Linux 6.13 or later)

[  SKIPPED ] Stacks.AGuardPageStopsAStackOverflow (0 ms)
[ RUN      ] Stacks.Other
[       OK ] Stacks.Other (0 ms)
"""


def test(name: str, passed: bool = True, failures: list[str] | None = None, skipped: str = "") -> gtest.Test:
    return gtest.Test("Suite", name, passed, failures or [], "", 0.0, skipped)


class Skips(unittest.TestCase):
    def test_the_reason_comes_from_the_output(self):
        self.assertEqual(gtest.skip_reason(OUTPUT, "Stacks.AGuardPageStopsAStackOverflow"),
                         "this kernel has no MADV_GUARD_INSTALL (Linux 6.13 or later)")
        self.assertEqual(gtest.skip_reason(OUTPUT, "Stacks.Other"), "")

    def test_a_skip_is_counted_apart_not_as_a_pass(self):
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from course import main
        run = gtest.Run("ch03", [test("A"), test("B", skipped="no guard pages"), test("C", False, ["x"])])
        self.assertEqual(main._counts(run), "1/2 tests pass, 1 skipped here")


class Stubs(unittest.TestCase):
    def test_the_first_failing_tests_stub_is_named_thrown_or_reported(self):
        thrown = test("A", False, ['C++ exception with description "TODO(ch01.1): decide whether the '
                                   'connection stays open" thrown in the test body.'])
        reported = test("B", False, ["the code under test reached an exercise not done yet: "
                                     "TODO(ch03.5, part 2 of 2): restart a crashed process "
                                     "(hints: ./course hint 03 5)"])
        self.assertEqual(gtest.first_stub(gtest.Run("ch01", [test("Z"), thrown, reported]))["id"], "ch01.1")
        stub = gtest.first_stub(gtest.Run("ch03", [reported]))
        self.assertEqual(stub["id"], "ch03.5")
        self.assertTrue(stub["todo"].startswith("TODO(ch03.5, part 2 of 2): restart a crashed process"))

    def test_no_stub_no_name(self):
        self.assertIsNone(gtest.first_stub(gtest.Run("ch01", [test("A", False, ["expected 1, got 2"])])))


if __name__ == "__main__":
    unittest.main()
