"""`./course check NN`'s lines on the chapters before NN (tools/course/main.py)."""

from __future__ import annotations

import contextlib
import io
import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import chapters, main  # noqa: E402  (after the path is set)


class EarlierChapters(unittest.TestCase):
    def test_a_chapter_never_built_is_not_built_for_a_progress_line(self):
        chapter = chapters.coded_chapters()[0]
        with mock.patch.object(main, "_test_binary", return_value=Path("/nonexistent/test_ch01")), \
                mock.patch.object(main.build, "build", side_effect=AssertionError("built")):
            outcome = main._progress_run(chapter)
        self.assertEqual(outcome, main.NOT_CHECKED)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            passed = main._progress_line(chapter, outcome)
        self.assertFalse(passed)
        self.assertIn("not checked yet", out.getvalue())
        self.assertIn(f"./course check {chapter.number}", out.getvalue())
