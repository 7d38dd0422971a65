"""The one-line changes ./course verify --mutants makes of the exercises'
reference code (tools/course/mutants.py)."""

from __future__ import annotations

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import mutants, regions  # noqa: E402  (after the path is set)


def kinds(line: str) -> list[tuple[str, str]]:
    return mutants.line_mutants(line)


class LineMutants(unittest.TestCase):
    def test_a_statement_is_deleted(self) -> None:
        self.assertEqual(kinds("  sent.clear();"), [("delete", "")])
        self.assertEqual(kinds("  ++stats_.pending;"), [("delete", "")])

    def test_declarations_returns_and_braces_are_not_deleted(self) -> None:
        for line in ("  const auto n = size();", "  std::deque<job> again;", "  auto& w = by_fd_[fd];",
                     "  return e;", "  }", "  case line_status::complete: break;", "  // a comment;"):
            self.assertNotIn("delete", [k for k, _ in kinds(line)], line)

    def test_an_if_is_made_never_and_always_true_instead(self) -> None:
        self.assertEqual(kinds("  if (ec) return read_result::closed;"), [
            ("if-never", "  if (false) if (ec) return read_result::closed;"),
            ("if-always", "  if (true || ec) return read_result::closed;"),
        ])
        self.assertEqual([k for k, _ in kinds("  } else if (x) {")], ["if-never", "if-always"])

    def test_an_if_with_an_initialiser_is_left_alone(self) -> None:
        self.assertEqual(kinds("  if (const auto n = size(); n) {"), [])

    def test_each_comparison_flips_on_its_own(self) -> None:
        self.assertEqual(kinds("  x = a < b && c != d;"), [
            ("delete", ""),
            ("flip", "  x = a <= b && c != d;"),
            ("flip", "  x = a < b && c == d;"),
            ("flip", "  x = a < b || c != d;"),
        ])

    def test_off_by_one_and_booleans(self) -> None:
        self.assertIn(("drop", "  n = size;"), kinds("  n = size + 1;"))
        self.assertEqual(kinds("  return true;"), [("drop", "  return false;")])

    def test_what_follows_a_comment_is_not_code(self) -> None:
        self.assertEqual(kinds("  // if (a < b) c;"), [])


class RegionMutants(unittest.TestCase):
    def setUp(self) -> None:
        scratch = tempfile.TemporaryDirectory()
        self.addCleanup(scratch.cleanup)
        self.path = Path(scratch.name) / "x.cpp"

    def mutants_of(self, text: str) -> list[mutants.Mutant]:
        self.path.write_text(text)
        return mutants.region_mutants(regions.parse(self.path)[0])

    def test_only_the_code_inside_a_region_is_changed(self) -> None:
        found = self.mutants_of("void f() {\n  g();\n  // EXERCISE ch01.1: do it\n  // HINT: how?\n"
                                "  // STUB: (void)0;\n  h();\n  // a note\n  if (a == b) k();\n"
                                "  // END EXERCISE\n  m();\n}\n")
        self.assertEqual([(m.index, m.kind) for m in found],
                         [(5, "delete"), (7, "if-never"), (7, "if-always"), (7, "flip")])
        mutated = mutants.mutated_text(found[0]).splitlines()
        self.assertEqual(mutated[5], "")
        self.assertEqual(len(mutated), 11, "a deleted line leaves an empty one: the lines keep their numbers")
        self.assertEqual(found[0].where, f"{self.path}:6")

    def test_the_second_line_of_a_statement_is_not_deleted_alone(self) -> None:
        found = self.mutants_of("void f() {\n  // EXERCISE ch01.1: do it\n  // HINT: how?\n"
                                "  total +=\n      part();\n  done();\n  // END EXERCISE\n}\n")
        self.assertEqual([(m.index, m.kind) for m in found], [(5, "delete")])


if __name__ == "__main__":
    unittest.main()
