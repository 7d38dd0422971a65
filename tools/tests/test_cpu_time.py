"""How the benches count a server's CPU time (bench/benchlib.py): the
scheduler's nanoseconds for the total (cpu_ns), split between user and
system as the coarser clock ticks split it (cpu_seconds, split_cpu)."""

from __future__ import annotations

import os
import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)


class SplitCpu(unittest.TestCase):
    def test_the_ticks_share_is_kept_and_the_parts_add_up_to_the_total(self) -> None:
        user, system = b.split_cpu(0.01, 0.03, 0.05)
        self.assertAlmostEqual(user, 0.0125)
        self.assertAlmostEqual(system, 0.0375)

    def test_without_a_total_the_ticks_stay_as_they_are(self) -> None:
        self.assertEqual(b.split_cpu(0.01, 0.03, None), (0.01, 0.03))

    def test_a_total_shorter_than_a_tick_is_not_lost(self) -> None:
        self.assertEqual(b.split_cpu(0.0, 0.0, 0.004), (0.0, 0.004))


class CpuUsed(unittest.TestCase):
    def test_between_two_readings_the_nanoseconds_set_the_total(self) -> None:
        user, system = b.cpu_used(b.CpuReading(1.0, 2.0, 10**9), b.CpuReading(1.01, 2.03, 10**9 + 50_000_000))
        self.assertAlmostEqual(user, 0.0125)
        self.assertAlmostEqual(system, 0.0375)

    def test_a_reading_without_nanoseconds_leaves_the_ticks(self) -> None:
        user, system = b.cpu_used(b.CpuReading(1.0, 2.0, None), b.CpuReading(1.01, 2.03, 5))
        self.assertAlmostEqual(user, 0.01)
        self.assertAlmostEqual(system, 0.03)


class CpuNs(unittest.TestCase):
    def test_the_count_grows_with_work_and_agrees_with_the_ticks(self) -> None:
        pids = [os.getpid()]
        ns0, ticks0 = b.cpu_ns(pids), sum(b.cpu_seconds(pids))
        if ns0 is None:
            self.skipTest("this kernel keeps no schedstat")
        deadline = time.monotonic() + 60  # a bound, not a measurement: busy until 0.3 s of ticks
        while sum(b.cpu_seconds(pids)) - ticks0 < 0.3 and time.monotonic() < deadline:
            sum(i * i for i in range(10_000))
        ns1, ticks1 = b.cpu_ns(pids), sum(b.cpu_seconds(pids))
        self.assertIsNotNone(ns1)
        ticked, counted = ticks1 - ticks0, (ns1 - ns0) / 1e9
        self.assertGreaterEqual(ticked, 0.3)
        # The same time, counted two ways: within a few ticks of each other.
        self.assertLess(abs(counted - ticked), 0.05 + 0.1 * ticked)

    def test_a_process_that_is_gone_counts_nothing(self) -> None:
        self.assertEqual(b.cpu_ns([2**22 + 12345]), 0)


if __name__ == "__main__":
    unittest.main()
