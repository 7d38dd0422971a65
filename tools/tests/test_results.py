"""Figures in the book's prose come from the benchmark results
(tools/course/results.py): placeholders find their cells, and a measured
figure typed by hand is found, as chapter 9's recap had one that its own
table contradicted."""

from __future__ import annotations

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib  # noqa: E402  (after the path is set)
from course import results  # noqa: E402

RESULTS = """Measured with `./course bench 09` (Chapter 9 backlog measurement — Some CPU, 2 cores, Linux 6.1; medians of 3 rounds).

stopped server, 200 clients connect at once

| `--backlog` | connected |
|---|---|
| 1 | 1 of 200 |
| 128 | 129 of 200 |

`ab -n 20000 -c 500`

| `--backlog` | req/s | longest connect (ms) |
|---|---|---|
| 1 | 27,628 | 9 |
| 128 | 21,721 | 13 |

**by file**

| file | congestion | server | req/s |
|---|---|---|---|
| 7 B | bbr | ours | 100 |
|  |  | nginx | 50 |
|  | cubic | ours | 300 |

**proxies**

| system | req/s |
|---|---|
| nginx (proxy_pass, `keepalive`) | 33,179 |
"""

# Chapter 9's recap as it was: its figures typed by hand, and wrong.
RECAP_AS_IT_WAS = """# REST {#ch09}

## Recap {#ch09-recap}

- a running server under a burst did as well with a backlog of 1 (21,171
  requests a second) as with 128 (22,361).
"""
RECAP_MENDED = """# REST {#ch09}

## Recap {#ch09-recap}

- a running server under a burst did no worse with a backlog of 1
  ({{result 09 "1" "req/s"}} requests a second) than with 128
  ({{result 09 "128" "req/s"}}); Neumann saw {{cited 3600 requests per second}}.
"""


class Placeholders(unittest.TestCase):
    def setUp(self) -> None:
        self.parsed = results.parse(RESULTS)

    def expand(self, placeholder: str) -> str:
        kind, _, body = placeholder.partition(" ")
        return results.expand(kind, body, {"09": self.parsed})

    def test_a_cell_is_found_by_its_row_and_column(self) -> None:
        self.assertEqual(self.expand('result 09 "128" "req/s"'), "21,721")
        self.assertEqual(self.expand('result 09 "128" "connected"'), "129 of 200")

    def test_a_row_is_named_as_the_table_shows_it(self) -> None:
        # Underscores and backticks are Markdown to the table's parser; the
        # placeholder may spell the row as the rendered table reads.
        self.assertEqual(self.expand('result 09 "nginx (proxy_pass, keepalive)" "req/s"'), "33,179")

    def test_a_caption_chooses_the_table(self) -> None:
        self.assertEqual(self.expand('result 09 "by file" "7 B · ours" "req/s"'), "100")

    def test_blank_leading_cells_repeat_the_row_above(self) -> None:
        self.assertEqual(self.expand('result 09 "7 B · cubic · ours" "req/s"'), "300")
        self.assertEqual(self.expand('result 09 "7 B · bbr · nginx" "req/s"'), "50")

    def test_a_ratio_divides_two_cells_of_a_column(self) -> None:
        self.assertEqual(self.expand('ratio 09 "1" "128" "req/s"'), "1.27")

    def test_another_results_file_of_the_chapter_is_named_after_a_colon(self) -> None:
        other = results.parse(RESULTS.replace("27,628", "9,999"))
        self.assertEqual(results.expand("result", '09:packets "1" "req/s"', {"09:packets": other}), "9,999")
        self.assertEqual(results.results_file("08:packets").name, "packets.md")
        with self.assertRaises(results.ResultError):
            results.results_file("08:nothing")

    def test_the_first_line_gives_rounds_and_machine(self) -> None:
        self.assertEqual(self.expand("rounds 09"), "3")
        self.assertEqual(self.expand("machine 09"), "Some CPU, 2 cores, Linux 6.1")

    def test_the_machine_line_a_bench_writes_is_read_whole(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            cpuinfo = Path(tmp) / "cpuinfo"
            cpuinfo.write_text("processor\t: 0\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\n\n"
                               "processor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: Other\n")
            line = benchlib.machine(cpuinfo)
        self.assertTrue(line.startswith("AMD EPYC, family 25 model 17, "), line)
        first = f"Measured with `./course bench 09` (Chapter 9 backlog measurement — {line}; medians of 3 rounds)."
        text = RESULTS.replace(RESULTS.splitlines()[0], first)
        self.assertEqual(results.expand("machine", "09", {"09": results.parse(text)}), line)

    def test_cited_prints_what_it_holds(self) -> None:
        self.assertEqual(results.expand("cited", " 3600 requests per second", {}), "3600 requests per second")

    def test_a_placeholder_that_names_nothing_is_an_error(self) -> None:
        with self.assertRaises(results.ResultError):
            self.expand('result 09 "129" "req/s"')
        with self.assertRaises(results.ResultError):
            self.expand('result 09 "128" "requests/s"')
        with self.assertRaises(results.ResultError):
            self.expand('result 9 "128" "req/s"')


class HandTypedFigures(unittest.TestCase):
    def problems_of(self, text: str) -> list[str]:
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder) / "09-rest.md"
            page.write_text(text)
            return [p for p in results.problems([page]) if "typed by hand" in p]

    def test_the_recap_as_it_was_is_refused(self) -> None:
        found = self.problems_of(RECAP_AS_IT_WAS)
        self.assertEqual(len(found), 1, found)
        self.assertIn("09-rest.md:5", found[0])

    def test_figures_from_the_results_or_cited_pass(self) -> None:
        self.assertEqual(self.problems_of(RECAP_MENDED), [])

    def test_figures_in_code_and_tables_are_not_prose(self) -> None:
        page = "# P {#ch09}\n\n    ab says 21,171 requests a second\n\n| limit | 100 req/s |\n|---|---|\n"
        self.assertEqual(self.problems_of(page), [])

    def test_every_kind_of_measured_figure_is_seen(self) -> None:
        for line in ["a hop takes 16 ns", "medians of three rounds", "1.30 times as much",
                     "2.04 × nginx", "128 of 200 clients", "nine at 42,659 req/s", "it spends 90% of the CPU"]:
            with self.subTest(line=line):
                self.assertTrue(self.problems_of(f"# P {{#ch09}}\n\n{line}.\n"), line)


if __name__ == "__main__":
    unittest.main()
