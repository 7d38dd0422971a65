"""The loopback steered as two machines would take packets in (bench/benchlib.py,
steered_loopback), and a core's busy time (core_busy_seconds): the settings
are in force within the block and as they were after it, however it ends."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)

SETTINGS = {"class/net/lo/queues/rx-0/rps_cpus": ("sys", "00000000"),
            "class/net/lo/queues/rx-0/rps_flow_cnt": ("sys", "0"),
            "sys/net/core/rps_sock_flow_entries": ("proc", "0")}
BEFORE = {name: value for name, (_, value) in SETTINGS.items()}


class SteeredLoopback(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = Path(self.enterContext(tempfile.TemporaryDirectory()))
        self.roots = {"sys": self.folder / "sys", "proc": self.folder / "proc"}
        for name, (root, value) in SETTINGS.items():
            path = self.roots[root] / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(value + "\n")

    def values(self, leaving_out: str = "") -> dict[str, str]:
        return {name: (self.roots[root] / name).read_text().strip()
                for name, (root, _) in SETTINGS.items() if name != leaving_out}

    def steered(self, cores: list[str]):
        return b.steered_loopback(cores, sys_root=self.roots["sys"], proc_root=self.roots["proc"])

    def test_within_the_block_the_cores_steer_and_after_it_all_is_as_before(self) -> None:
        with self.steered(["0", "1"]):
            self.assertEqual(self.values(), {"class/net/lo/queues/rx-0/rps_cpus": "3",
                                             "class/net/lo/queues/rx-0/rps_flow_cnt": "4096",
                                             "sys/net/core/rps_sock_flow_entries": "32768"})
        self.assertEqual(self.values(), BEFORE)

    def test_the_mask_names_each_core_by_its_bit(self) -> None:
        with self.steered(["2", "5"]):
            self.assertEqual(self.values()["class/net/lo/queues/rx-0/rps_cpus"], "24")
        with self.steered(["0", "0"]):  # one core for server and load
            self.assertEqual(self.values()["class/net/lo/queues/rx-0/rps_cpus"], "1")

    def test_a_failure_within_the_block_still_puts_the_settings_back(self) -> None:
        with self.assertRaises(RuntimeError), self.steered(["0", "1"]):
            raise RuntimeError("the load failed")
        self.assertEqual(self.values(), BEFORE)

    def test_sigterm_within_the_block_ends_it_and_puts_the_settings_back(self) -> None:
        before = signal.getsignal(signal.SIGTERM)
        with self.assertRaises(SystemExit) as stopped, self.steered(["0", "1"]):
            os.kill(os.getpid(), signal.SIGTERM)
            self.fail("the block went on after SIGTERM")
        self.assertEqual(stopped.exception.code, 128 + signal.SIGTERM)
        self.assertEqual(self.values(), BEFORE)
        self.assertEqual(signal.getsignal(signal.SIGTERM), before)

    def test_a_setting_that_cannot_be_written_skips_and_leaves_the_others_as_they_were(self) -> None:
        missing = "sys/net/core/rps_sock_flow_entries"
        (self.roots["proc"] / missing).unlink()  # a kernel without the setting
        with self.assertRaises(b.Skip), self.steered(["0", "1"]):
            self.fail("the block ran without steering")
        self.assertEqual(self.values(leaving_out=missing), {k: v for k, v in BEFORE.items() if k != missing})


class CoreBusySeconds(unittest.TestCase):
    def test_all_but_idle_and_iowait_count_for_the_core_asked(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            stat = Path(folder) / "stat"
            stat.write_text("cpu  9 9 9 9 9 9 9 0 0 0\n"
                            "cpu0 100 1 20 5000 7 3 4 0 0 0\n"
                            "cpu1 1 1 1 1 1 1 1 0 0 0\n")
            self.assertAlmostEqual(b.core_busy_seconds("0", stat), (100 + 1 + 20 + 3 + 4) / b.TICKS)
            with self.assertRaises(b.Skip):
                b.core_busy_seconds("7", stat)


if __name__ == "__main__":
    unittest.main()
