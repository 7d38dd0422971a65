"""The book's text hygiene (tools/course/book_text.py): each check fails on
a defect the book once had, and passes on the same text mended."""

from __future__ import annotations

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import book_text  # noqa: E402  (after the path is set)

# Chapter 1 as it was: the \r of \ref typed as a carriage return, which
# became a line break, and Doxygen printed "ef ch01-coroutines".
BROKEN_PAGE = """# A server {#ch01}

### One coroutine per connection {#ch01-coroutines}

  that state). So the accept loop in
ef ch01-coroutines waits 100 ms
"""
MENDED_PAGE = BROKEN_PAGE.replace("in\nef ch01", "in \\ref ch01")


class Sources(unittest.TestCase):
    def problems_of(self, text: str) -> list[str]:
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder) / "01-page.md"
            page.write_text(text)
            return book_text.source_problems([page])

    def test_an_anchor_left_bare_by_a_lost_ref_is_found(self):
        [problem] = self.problems_of(BROKEN_PAGE)
        self.assertIn(":6: the anchor ch01-coroutines stands as a bare word", problem)
        self.assertEqual(self.problems_of(MENDED_PAGE), [])

    def test_a_ref_may_end_one_line_and_its_anchor_begin_the_next(self):
        self.assertEqual(self.problems_of(BROKEN_PAGE.replace("in\nef ch01", "in @ref\nch01")), [])

    def test_a_control_character_is_found(self):
        problems = self.problems_of(MENDED_PAGE.replace("waits", "\rwaits"))
        self.assertTrue(any("control character (0x0d)" in p for p in problems), problems)

    def test_links_are_absolute_with_a_host(self):
        good = MENDED_PAGE + "\n[RFC 9112](https://www.rfc-editor.org/rfc/rfc9112#section-9.3.2) and [up](#ch01-coroutines)\n"
        self.assertEqual(self.problems_of(good), [])
        for bad in ("[RFC](www.rfc-editor.org/rfc/rfc9112)", "[RFC](https://www.rfc-editor.org/rfc 9112)",
                    "[](https://man7.org/)", "[man](https:/man7.org/sendfile)", "<http://localhost>"):
            with self.subTest(link=bad):
                self.assertEqual(len(self.problems_of(MENDED_PAGE + "\n" + bad + "\n")), 1)

    def test_code_is_not_prose(self):
        code = MENDED_PAGE + "\n    receive([](const reply& r) { ... });\n\n```\n[x](y) ch01-coroutines\n```\n`[](auto x)`\n"
        self.assertEqual(self.problems_of(code), [])


class Html(unittest.TestCase):
    def problems_of(self, body: str) -> list[str]:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "ch01.html").write_text(f"<html><body><div class='contents'>{body}</div></body></html>")
            return book_text.html_problems(Path(folder), {"ch01-coroutines", "ch01-limits"})

    def test_an_anchor_in_the_text_is_found(self):
        # ch01.html as it was built
        [problem] = self.problems_of("<li>So the accept loop in ef ch01-coroutines waits 100 ms</li>")
        self.assertIn("the anchor ch01-coroutines is in the text", problem)

    def test_a_command_word_in_the_text_is_found(self):
        [problem] = self.problems_of("<p>as \\snippet 01-keepalive/keepalive.cpp shows</p>")
        self.assertIn("command \\snippet", problem)

    def test_code_and_links_are_not_text(self):
        self.assertEqual(self.problems_of(
            "<p>see <a href='ch01.html#ch01-coroutines'>the loop</a></p><pre>\\ref ch01-limits</pre>"
            "<div class='fragment'><div class='line'>// \\ref ch01-limits</div></div><code>@ref x</code>"), [])


if __name__ == "__main__":
    unittest.main()
