"""The benches' stall watch (bench/benchlib.py, StallWatch): which answers a
stretch of a stalled core overlapped, so that a bench can take the p99 of
the others; and that a real watch starts, stops and reads back its probe."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)


def watch(stalls: list[tuple[str, int, int]]) -> b.StallWatch:
    w = b.StallWatch(["0", "1"])
    w.stalls = list(stalls)
    w.index()
    return w


class Touches(unittest.TestCase):
    def test_an_answer_overlapping_a_stall_on_either_core_is_touched(self) -> None:
        w = watch([("0", 100, 200), ("1", 500, 650), ("0", 1000, 1300)])
        self.assertTrue(w.touches(150, 160))    # inside
        self.assertTrue(w.touches(50, 120))     # runs into it
        self.assertTrue(w.touches(190, 400))    # begins in it
        self.assertTrue(w.touches(0, 5000))     # spans them all
        self.assertTrue(w.touches(600, 700))    # core 1's
        self.assertTrue(w.touches(1250, 1260))  # the last

    def test_an_answer_between_stalls_is_not(self) -> None:
        w = watch([("0", 100, 200), ("1", 500, 650), ("0", 1000, 1300)])
        self.assertFalse(w.touches(0, 99))
        self.assertFalse(w.touches(201, 499))
        self.assertFalse(w.touches(651, 999))
        self.assertFalse(w.touches(1301, 9999))

    def test_no_stalls_touch_nothing(self) -> None:
        self.assertFalse(watch([]).touches(0, 10**18))

    def test_over_lists_how_late_the_long_naps_woke_in_ms(self) -> None:
        nap = b.StallWatch.NAP_NS  # a stall is the whole nap it fell in
        w = watch([("0", 0, nap + 1_500_000), ("1", 0, nap + 2_500_000), ("0", 10**7, 10**7 + nap + 19_100_000)])
        self.assertEqual(w.over(2), [2.5, 19.1])


class Probe(unittest.TestCase):
    def test_a_watch_starts_stops_and_reads_its_probes_back(self) -> None:
        with b.StallWatch(["0"], late_ms=1000) as w:  # nothing here is a second late
            pass
        self.assertEqual(w.stalls, [])
        self.assertFalse(w.touches(0, 10**18))


if __name__ == "__main__":
    unittest.main()
