"""How the benches' Markdown shows a command-line flag (bench/benchlib.py,
in_code): in code, so that Doxygen leaves its "--" alone, and with the
number that follows it, the flag's value, inside the same span."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)


class InCode(unittest.TestCase):
    def test_a_flag_goes_in_code_with_its_number(self) -> None:
        self.assertEqual(b.in_code("static-server --open-files 0"), "static-server `--open-files 0`")
        self.assertEqual(b.in_code("--held 10000,50000 clients"), "`--held 10000,50000` clients")

    def test_a_flag_without_a_number_goes_alone(self) -> None:
        self.assertEqual(b.in_code("static-server --no-sendfile"), "static-server `--no-sendfile`")
        self.assertEqual(b.in_code("wrk --latency -c100"), "wrk `--latency` -c100")

    def test_punctuation_after_the_value_stays_prose(self) -> None:
        self.assertEqual(b.in_code("with --open-files 0, nginx"), "with `--open-files 0`, nginx")

    def test_what_is_in_code_already_is_left_alone(self) -> None:
        self.assertEqual(b.in_code("`--open-files 0` and `--x`"), "`--open-files 0` and `--x`")


if __name__ == "__main__":
    unittest.main()
