"""Chapter 8's target lines (bench/08-sendfile/run, targets()): the verdict
compares static-server with nginx alone, and a CPU line against nginx also
gives the floor's ratio, and those of static-server without its open-file
cache and nginx with its own, where they ran; a requests/s line gives how
busy ab was and its CPU; a system skipped part of the way counts as not
measured, whatever rounds it left. And the tables (tables()) take the
rounds as measure() returns them, with no ratio to a system skipped."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import unittest
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))


def load_chapter_8():
    loader = importlib.machinery.SourceFileLoader("bench_08_sendfile", str(BENCH / "08-sendfile" / "run"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


ch08 = load_chapter_8()


def samples(cpu: dict[str, float], cc: str = "cubic", client_cpu: dict[str, float] | None = None) -> dict:
    """Two rounds per system and target size: (req/s, ms, user s, system s,
    ab's busy share, ab's CPU s), the CPU given split evenly between user and
    system, and ab's 1.0 where `client_cpu` does not say."""
    found = {}
    for key, total in cpu.items():
        ab = (client_cpu or {}).get(key, 1.0)
        for size in ch08.TARGET_SIZES:
            found[((key, cc), size, True)] = [(1000.0, 1.0, total / 2, total / 2, 0.99, ab)] * 2
    return found


class Targets(unittest.TestCase):
    def test_a_cpu_line_gives_the_floors_ratio_beside_ours(self) -> None:
        text, _ = ch08.targets(samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0, "floor": 0.97}),
                               ["cubic"])
        cpu_lines = [line for line in text.splitlines() if "CPU of nginx sendfile on" in line]
        self.assertEqual(len(cpu_lines), len(ch08.TARGET_SIZES))
        for line in cpu_lines:
            self.assertIn("= 0.90 (target <= 0.95", line)
            self.assertIn("the floor 0.97", line)
        self.assertNotIn("the floor", "".join(line for line in text.splitlines() if "req/s" in line))

    def test_the_floor_does_not_change_the_verdict(self) -> None:
        over = {"sendfile": 1.0, "readwrite": 2.0, "nginx-on": 1.0}
        _, held_without = ch08.targets(samples(over), ["cubic"])
        _, held_with = ch08.targets(samples(over | {"floor": 0.5}), ["cubic"])
        self.assertFalse(held_without)
        self.assertFalse(held_with)
        under = {"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0}
        self.assertTrue(ch08.targets(samples(under | {"floor": 1.2}), ["cubic"])[1])

    def test_without_the_floor_the_lines_say_nothing_of_it(self) -> None:
        text, held = ch08.targets(samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0}), ["cubic"])
        self.assertTrue(held)
        self.assertNotIn("floor", text)

    def test_a_cpu_line_gives_the_two_that_keep_files_open_or_not(self) -> None:
        text, held = ch08.targets(samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0,
                                           "uncached": 0.96, "nginx-cache": 0.93}), ["cubic"])
        self.assertTrue(held)
        for line in text.splitlines():
            if "CPU of nginx sendfile on" in line:
                self.assertIn("; --open-files 0 0.96; nginx open_file_cache 0.93", line)
        _, held_over = ch08.targets(samples({"sendfile": 1.0, "readwrite": 2.0, "nginx-on": 1.0,
                                             "uncached": 0.5, "nginx-cache": 2.0}), ["cubic"])
        self.assertFalse(held_over, "only static-server as it comes is held to the target")

    def test_a_requests_line_gives_how_busy_ab_was_and_its_cpu(self) -> None:
        text, _ = ch08.targets(samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0},
                                       client_cpu={"sendfile": 1.93, "nginx-on": 1.73}), ["cubic"])
        lines = [line for line in text.splitlines() if "req/s of sendfile" in line]
        self.assertEqual(len(lines), len(ch08.TARGET_SIZES))
        for line in lines:
            self.assertIn("ab busy 99% and 99% of its core, its CPU 1.930 and 1.730 s/10k", line)

    def test_a_system_skipped_part_of_the_way_is_not_measured_whatever_rounds_it_left(self) -> None:
        found = samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0})
        why = "skipped: 3 failed requests on /256k.bin (Connect: 0, Receive: 0, Length: 3, Exceptions: 0)"
        text, held = ch08.targets(found, ["cubic"], {("readwrite", "cubic"): why})
        self.assertFalse(held)
        self.assertIn("✗ cubic, 256 KiB: CPU of sendfile / CPU of read/write: not measured "
                      f"(the read/write loop was {why})", text)
        self.assertEqual(sum("✓" in line for line in text.splitlines()), 2 * len(ch08.TARGET_SIZES),
                         "the targets against nginx stand")
        text, held = ch08.targets(found, ["cubic"], {("nginx-on", "cubic"): "skipped: it would not start"})
        self.assertFalse(held)
        self.assertIn("✗ cubic, 1 MiB: not measured (nginx-on: skipped: it would not start)", text)
        self.assertNotIn("✓", text)


class Tables(unittest.TestCase):
    def test_a_row_takes_a_round_as_measure_returns_it(self) -> None:
        found = samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0})
        names = {("sendfile", "cubic"): "static-server (sendfile)", ("readwrite", "cubic"): "read/write",
                 ("nginx-on", "cubic"): "nginx sendfile on"}
        text, _ = ch08.tables(names, {}, found, ["cubic"])
        row = next(line for line in text.splitlines() if "static-server (sendfile)" in line and "1 MiB" in line)
        self.assertIn("0.900", row)  # CPU s/10k, user and system together
        self.assertTrue(row.rstrip().endswith("0.90"), row)  # against nginx

    def test_no_ratio_to_a_system_skipped_part_of_the_way(self) -> None:
        found = samples({"sendfile": 0.9, "readwrite": 2.0, "nginx-on": 1.0})
        names = {("sendfile", "cubic"): "static-server (sendfile)", ("readwrite", "cubic"): "read/write",
                 ("nginx-on", "cubic"): "nginx sendfile on"}
        text, _ = ch08.tables(names, {("readwrite", "cubic"): "skipped: 3 failed requests"}, found, ["cubic"])
        row = next(line for line in text.splitlines() if "static-server (sendfile)" in line and "1 MiB" in line)
        self.assertEqual(row.split()[-2:], ["—", "0.90"], row)  # against read/write, against nginx


class PacingTimers(unittest.TestCase):
    """The packets experiment counts TCP's pacing timers on every core, from
    perf stat's per-core CSV."""

    def test_counts_each_core_and_skips_what_is_not_a_count(self):
        csv = ("CPU0,73,,timer:hrtimer_start,2001934915,100.00,,\n"
               "CPU1,11840,,timer:hrtimer_start,2001930127,100.00,,\n"
               "CPU2,<not counted>,,timer:hrtimer_start,0,100.00,,\n"
               "# started on Sun Dec  6 08:40:01 2026\n")
        self.assertEqual(ch08.per_core_counts(csv), {"0": 73, "1": 11840})

    def test_nothing_counted_is_empty(self):
        self.assertEqual(ch08.per_core_counts("failed to set filter\n"), {})


if __name__ == "__main__":
    unittest.main()
