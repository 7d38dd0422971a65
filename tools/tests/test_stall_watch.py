"""The benches' stall watch (bench/benchlib.py, StallWatch): where a core
lost much of its time, to the host or to another program; which answers
such a stall overlapped, so that a bench can take the p99 of the others;
and that a real watch starts, stops and reads back its probes."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)

MS = 1_000_000


def watch(stalls: list[tuple[str, int, int, int]]) -> b.StallWatch:
    w = b.StallWatch(["0", "1"])
    w.stalls = list(stalls)
    w.index()
    return w


class Touches(unittest.TestCase):
    STALLS = [("0", 100, 200, 50), ("1", 500, 650, 100), ("0", 1000, 1300, 300)]

    def test_an_answer_overlapping_a_stall_on_either_core_is_touched(self) -> None:
        w = watch(self.STALLS)
        self.assertTrue(w.touches(150, 160))    # inside
        self.assertTrue(w.touches(50, 120))     # runs into it
        self.assertTrue(w.touches(190, 400))    # begins in it
        self.assertTrue(w.touches(0, 5000))     # spans them all
        self.assertTrue(w.touches(600, 700))    # core 1's
        self.assertTrue(w.touches(1250, 1260))  # the last

    def test_an_answer_between_stalls_is_not(self) -> None:
        w = watch(self.STALLS)
        self.assertFalse(w.touches(0, 99))
        self.assertFalse(w.touches(201, 499))
        self.assertFalse(w.touches(651, 999))
        self.assertFalse(w.touches(1301, 9999))

    def test_no_stalls_touch_nothing(self) -> None:
        self.assertFalse(watch([]).touches(0, 10**18))

    def test_taken_lists_what_each_stall_took_in_ms(self) -> None:
        self.assertEqual(watch([("0", 0, 10 * MS, 2_500_000), ("1", 0, 30 * MS, 19_100_000)]).taken(), [2.5, 19.1])


class Stolen(unittest.TestCase):
    def stretches(self, pieces: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        return b.stolen_stretches(pieces, 5 * MS, 0.2, 2 * MS)

    def test_one_long_late_turn_is_a_stall_over_the_bins_it_spans(self) -> None:
        # A 1 ms nap that woke 19 ms late: 19 ms taken evenly over 20 ms.
        self.assertEqual(self.stretches([(10 * MS, 30 * MS, 19 * MS)]), [(10 * MS, 30 * MS, 19 * MS)])

    def test_a_core_shared_half_and_half_is_one_stall(self) -> None:
        # Another program ran every other millisecond for 40 ms.
        pieces = [(t * MS, (t + 1) * MS, MS) for t in range(0, 40, 2)]
        self.assertEqual(self.stretches(pieces), [(0, 40 * MS, 20 * MS)])

    def test_a_little_taken_often_steals_nothing(self) -> None:
        # 50 us every millisecond for a second: 5% of every bin.
        pieces = [(t * MS, t * MS + 50_000, 50_000) for t in range(1000)]
        self.assertEqual(self.stretches(pieces), [])

    def test_a_short_stretch_is_not_a_stall(self) -> None:
        self.assertEqual(self.stretches([(0, 2 * MS, MS)]), [])  # 1 ms taken, under 2

    def test_stretches_apart_stay_apart(self) -> None:
        found = self.stretches([(0, 5 * MS, 5 * MS), (20 * MS, 25 * MS, 3 * MS)])
        self.assertEqual(found, [(0, 5 * MS, 5 * MS), (20 * MS, 25 * MS, 3 * MS)])


# What `perf script -F cpu,pid,time,event,trace --ns` prints, cut down: the
# sample's pid is the process whose task was running.
TRACE = """\
  100 [000] 10.000000000:       sched:sched_switch: prev_comm=hub prev_pid=101 ==> next_comm=agent next_pid=901
  900 [000] 10.004000000:       sched:sched_switch: prev_comm=agent prev_pid=901 ==> next_comm=hub next_pid=101
  100 [000] 10.005000000: sched:sched_process_fork: comm=hub pid=101 child_comm=hub child_pid=150
  100 [000] 10.006000000:       sched:sched_switch: prev_comm=hub prev_pid=101 ==> next_comm=hub next_pid=150
  150 [000] 10.009000000:       sched:sched_switch: prev_comm=hub prev_pid=150 ==> next_comm=kworker next_pid=7
    7 [000] 10.010000000:       sched:sched_switch: prev_comm=kworker prev_pid=7 ==> next_comm=agent next_pid=901
  900 [001] 10.010000000:       sched:sched_switch: prev_comm=agent prev_pid=902 ==> next_comm=agent next_pid=902
  900 [000] 10.011000000:       sched:sched_waking: comm=agent pid=903 prio=120 target_cpu=001
  100 [000] 10.012500000:       sched:sched_waking: comm=held_clients pid=300 prio=120 target_cpu=001
  100 [000] 10.013000000:       sched:sched_switch: prev_comm=hub prev_pid=101 ==> next_comm=swapper/0 next_pid=0
"""


class Programs(unittest.TestCase):
    def test_only_other_programs_tasks_on_the_watched_cores_count(self) -> None:
        w = b.StallWatch(["0"])
        found = w.programs(TRACE, ours={100, 101}, kernels={7})
        # The agent ran 10.000-10.004 on core 0, and from 10.010 until the
        # hub's wake-up at 10.0125 (its own switch away is not in the
        # trace; its own wake-up at 10.011 does not end it). The hub's
        # forked child (150) is the hub's; core 1 is not watched.
        self.assertEqual(found, [("0", 10_000_000_000, 10_004_000_000), ("0", 10_010_000_000, 10_012_500_000)])
        self.assertEqual(w.others, {"agent (901)": 6.5})


class Probe(unittest.TestCase):
    def test_a_watch_starts_stops_and_reads_its_probes_back(self) -> None:
        # Nothing here takes ten seconds from a core, whatever else runs.
        with b.StallWatch(["0"], late_ms=1000, stall_ms=10_000) as w:
            pass
        self.assertEqual(w.stalls, [])
        self.assertFalse(w.touches(0, 10**18))


if __name__ == "__main__":
    unittest.main()
