"""How the benches read ApacheBench (bench/benchlib.py, ab_gave_up): a run
that ab gave up on, as it does when one response takes longer than its
timeout, is told apart from one that finished, and says why."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)

FINISHED = """Benchmarking 127.0.0.1 (be patient).....done
Complete requests:      2000
Failed requests:        0
Requests per second:    9876.54 [#/sec] (mean)
"""


class AbGaveUp(unittest.TestCase):
    def test_a_finished_run_did_not_give_up(self) -> None:
        self.assertIsNone(b.ab_gave_up(0, FINISHED))
        self.assertIsNone(b.ab_gave_up(1, FINISHED), "a summary is a finished run, whatever the status")

    def test_apr_says_why(self) -> None:
        text = ("Benchmarking 127.0.0.1 (be patient)...apr_pollset_poll: "
                "The timeout specified has expired (70007)\nTotal of 24999 requests completed\n")
        self.assertEqual(b.ab_gave_up(119, text), "apr_pollset_poll: The timeout specified has expired (70007)")

    def test_without_apr_the_last_line_or_the_status(self) -> None:
        self.assertEqual(b.ab_gave_up(22, "ab: invalid URL\nUsage: ab [options]\n"), "Usage: ab [options]")
        self.assertEqual(b.ab_gave_up(9, ""), "exit status 9, no output")

    @unittest.skipUnless(shutil.which("ab"), "ApacheBench is not installed")
    def test_what_ab_prints_when_a_server_never_answers(self) -> None:
        with socket.create_server(("127.0.0.1", 0)) as silent:  # takes connections, never reads
            url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
            run = subprocess.run(["ab", "-q", "-s", "1", "-n", "1", "-c", "1", url], capture_output=True,
                                 text=True, timeout=60)
        why = b.ab_gave_up(run.returncode, run.stdout + run.stderr)
        self.assertIsNotNone(why)
        self.assertIn("timeout", why.lower())


if __name__ == "__main__":
    unittest.main()
