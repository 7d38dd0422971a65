"""Which exercise `./course hint NN` shows first (tools/course/main.py)."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import main  # noqa: E402  (after the path is set)


class Hints(unittest.TestCase):
    def test_hint_starts_at_the_first_unsolved_exercise_and_says_when_none_is_left(self):
        chosen, note = main.hint_choice(["1", "2", "3"], [False, True, True])
        self.assertEqual(chosen[0], "2")
        self.assertIn("1 of 3 exercises look done", note)
        chosen, note = main.hint_choice(["1", "2"], [True, True])
        self.assertEqual((chosen[0], note), ("1", ""))
        chosen, note = main.hint_choice(["1", "2"], [False, False])
        self.assertEqual(chosen[0], "1")
        self.assertIn("all 2 exercises look done", note)


class HowMany(unittest.TestCase):
    def test_away_from_a_terminal_one_hint_unless_more_are_asked_for(self):
        self.assertEqual(main.hints_shown(7, interactive=False, every=False, upto=None), 1)
        self.assertEqual(main.hints_shown(7, interactive=False, every=False, upto=3), 3)
        self.assertEqual(main.hints_shown(7, interactive=False, every=False, upto=9), 7)
        self.assertEqual(main.hints_shown(7, interactive=False, every=True, upto=None), 7)
        self.assertEqual(main.hints_shown(7, interactive=True, every=False, upto=None), 7)
        self.assertEqual(main.hints_shown(0, interactive=False, every=False, upto=None), 0)
