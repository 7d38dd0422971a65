"""The order in which the benches' rounds measure the systems they compare
(bench/benchlib.py, turns): reversed every other round, so that over two
rounds every system is measured as often first as last."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)


class Turns(unittest.TestCase):
    def test_odd_rounds_keep_the_order_and_even_rounds_reverse_it(self) -> None:
        systems = {"ours": 1, "nginx": 2, "erlang": 3}  # a dict gives its keys, as the benches pass them
        self.assertEqual(b.turns(systems, 1), ["ours", "nginx", "erlang"])
        self.assertEqual(b.turns(systems, 2), ["erlang", "nginx", "ours"])
        self.assertEqual(b.turns(systems, 3), ["ours", "nginx", "erlang"])

    def test_over_two_rounds_each_system_waits_as_long_on_average(self) -> None:
        systems = ["a", "b", "c", "d"]
        places = {s: b.turns(systems, 1).index(s) + b.turns(systems, 2).index(s) for s in systems}
        self.assertEqual(set(places.values()), {len(systems) - 1})

    def test_a_generator_is_taken_once_and_given_back_as_a_list(self) -> None:
        self.assertEqual(b.turns((n for n in range(3)), 2), [2, 1, 0])


if __name__ == "__main__":
    unittest.main()
