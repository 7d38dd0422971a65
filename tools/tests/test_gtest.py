"""Reading GoogleTest's runs (tools/course/gtest.py): skips, stubs and crashes."""

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

    def test_a_stub_in_a_programs_output_ends_before_its_escaped_newline(self):
        printed = test("P", False, ['Expected equality of these values:\n  out\n    Which is: '
                                    '"TODO(ch05.1): pass the token on, once per lap\\n"'])
        stub = gtest.first_stub(gtest.Run("ch05", [printed]))
        self.assertEqual(stub["todo"], "TODO(ch05.1): pass the token on, once per lap")

    def test_no_stub_no_name(self):
        self.assertIsNone(gtest.first_stub(gtest.Run("ch01", [test("A", False, ["expected 1, got 2"])])))


CRASHED = """[ RUN      ] Mailbox.TakesInOrder
[       OK ] Mailbox.TakesInOrder (1 ms)
[ RUN      ] Mailbox.Fails
/work/tests/03-processes/mailbox_test.cpp:40: Failure
Expected equality of these values:
[  FAILED  ] Mailbox.Fails (2 ms)
[ RUN      ] Behaviour.Spawns
==77==WARNING: ASan doesn't fully support makecontext/swapcontext functions and may produce false positives in some cases!
==77==ERROR: AddressSanitizer: stack-use-after-scope on address 0x7f00 at pc 0x55 bp 0x7ffd sp 0x7ffc
READ of size 8 at 0x7f00 thread T0
""" + "".join(f"    #{i} 0x55 in frame{i} /work/x.cpp:{i}\n" for i in range(60)) + """
SUMMARY: AddressSanitizer: stack-use-after-scope /work/x.ipp:48 in run_body
==77==ABORTING
"""


class Crashes(unittest.TestCase):
    def test_the_tests_that_ended_before_a_crash_are_read_from_the_output(self):
        tests = gtest._read_output(CRASHED)
        self.assertEqual([(t.full_name, t.passed) for t in tests],
                         [("Mailbox.TakesInOrder", True), ("Mailbox.Fails", False),
                          ("Behaviour.Spawns", False)])
        self.assertIn("mailbox_test.cpp:40: Failure", tests[1].failures[0])
        self.assertIn("did not end", tests[2].failures[0])
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from course import main
        self.assertEqual(main._counts(gtest.Run("ch03", tests, "crashed")), "1/3 tests pass")

    def test_a_sanitizer_report_is_shown_from_its_first_line_with_its_summary(self):
        shown = gtest.crash_excerpt(gtest._crash_summary(CRASHED))
        self.assertEqual(shown[0], "[ RUN      ] Behaviour.Spawns")
        self.assertTrue(shown[1].startswith("==77==ERROR: AddressSanitizer: stack-use-after-scope"))
        self.assertEqual(shown[-1], "SUMMARY: AddressSanitizer: stack-use-after-scope /work/x.ipp:48 in run_body")
        self.assertFalse(any("makecontext" in line for line in shown))
        self.assertLessEqual(len(shown), 43)

    def test_utf8_in_a_failure_of_the_json_report_reads_as_it_was_written(self):
        self.assertEqual(gtest._as_utf8("N\u00c3\u0097M hops"), "N×M hops")
        self.assertEqual(gtest._as_utf8("plain"), "plain")
        self.assertEqual(gtest._as_utf8("already × decoded"), "already × decoded")

    def test_without_a_sanitizer_report_the_last_lines_are_shown(self):
        plain = "\n".join(f"line {i}" for i in range(100))
        self.assertEqual(gtest.crash_excerpt(plain), [f"line {i}" for i in range(60, 100)])


if __name__ == "__main__":
    unittest.main()
