"""The build's progress line away from a terminal (tools/course/ui.py)."""

from __future__ import annotations

import contextlib
import io
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import ui  # noqa: E402  (after the path is set)


class ProgressInALog(unittest.TestCase):
    def test_a_log_gets_the_line_once_a_minute_not_at_every_step(self):
        now = [0.0]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            progress = ui.Progress(clock=lambda: now[0])
            progress.live = False  # as in a pipe or a CI log
            for step in range(1, 301):  # 300 steps over 150 s
                now[0] = step / 2
                progress.update(f"  building [{step}/300] x.cpp")
            progress.clear()
        self.assertEqual(out.getvalue().splitlines(),
                         ["building [120/300] x.cpp", "building [240/300] x.cpp"])
