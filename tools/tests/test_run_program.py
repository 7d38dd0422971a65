"""`./course run`'s program wrapper (tools/course/main.py): signals go on."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import main  # noqa: E402  (after the path is set)


class RunProgram(unittest.TestCase):
    def test_a_sigterm_to_the_command_stops_the_program_too(self):
        with tempfile.TemporaryDirectory() as scratch:
            started = Path(scratch) / "started"

            def terminate_us_once_it_runs() -> None:
                for _ in range(1000):  # up to 10 s
                    if started.exists():
                        os.kill(os.getpid(), signal.SIGTERM)
                        return
                    time.sleep(0.01)

            threading.Thread(target=terminate_us_once_it_runs, daemon=True).start()
            status = main._run_program(["sh", "-c", f"touch {started}; exec sleep 30"])
        self.assertEqual(status, -signal.SIGTERM, "the program should have had the SIGTERM")
        self.assertEqual(signal.getsignal(signal.SIGTERM), signal.SIG_DFL)
