"""A chapter's measured figures, as its benchmark wrote them, for the book.

`./course bench NN --write` writes bench/NN-slug/results.md: a first line
that says where and how it was measured, then tables, each under a caption
line (the load generator's command, or a bold heading). A page quotes a
figure of it with a placeholder, which the page filter replaces when the
book is built, so that the prose says what the table says, always:

    {{result 09 "128" "req/s"}}              the cell of row 128, column req/s
    {{result 01 "wrk" "rendezvous (C++)" "req/s"}}   in the table whose caption has "wrk"
    {{ratio 09 "1" "128" "req/s"}}           row 1's req/s over row 128's, as 1.27
    {{rounds 07}}                            how many rounds the medians are of: 7
    {{machine 05}}                           the machine: "AMD EPYC, family 25 model 17, 2 cores, Linux 6.18..."
    {{result 08:packets "joined · bbr" "req/s"}}   from bench/08-*/packets.md, another
                                             results file of the chapter's bench

A row is named by its first cell, or, where a table leaves cells blank
under the one above (chapter 8's), by several cells joined with " · ",
each of which the row must have (blanks filled from the rows above).
Markdown in cells (backticks, bold) is ignored when matching.

Figures that no run of ours made (Neumann's, Vinoski's, an earlier
machine's) are typed by hand inside {{cited ...}}, which prints what it
holds: the mark says that the number is history, not a measurement.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .book_text import prose_lines
from .chapters import ROOT

PLACEHOLDER = re.compile(r"\{\{(?P<kind>result|ratio|rounds|machine|cited)\b\s*(?P<body>.*?)\}\}", re.S)
ARGUMENT = re.compile(r'"([^"]*)"')
ROUNDS = re.compile(r"medians of (\d+)")
MACHINE = re.compile(r"\(Chapter \d+ [^—]*— (?P<machine>[^;)]*)")


class ResultError(ValueError):
    """A placeholder that names nothing in the chapter's results."""


@dataclasses.dataclass
class Table:
    caption: str
    header: list[str]
    rows: list[list[str]]  # blanks filled in from the row above


@dataclasses.dataclass
class Results:
    first_line: str
    tables: list[Table]


def _plain(cell: str) -> str:
    return re.sub(r"[`*_]", "", cell).strip()


def _cells(line: str) -> list[str]:
    return [_plain(c) for c in line.strip().strip("|").split("|")]


def parse(text: str) -> Results:
    lines = text.splitlines()
    tables: list[Table] = []
    caption = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s|:-]+\|$", lines[i + 1]):
            header = _cells(line)
            rows: list[list[str]] = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = _cells(lines[i])
                # Leading blanks repeat the row above (chapter 8's file and
                # congestion columns); a blank further right is a blank.
                lead = 0
                while rows and lead < len(cells) and not cells[lead] and lead < len(rows[-1]):
                    cells[lead] = rows[-1][lead]
                    lead += 1
                rows.append(cells)
                i += 1
            tables.append(Table(caption, header, rows))
            continue
        if line.strip():
            caption = _plain(line)
        i += 1
    return Results(lines[0] if lines else "", tables)


def results_file(chapter: str) -> Path:
    """bench/NN-slug/results.md for "NN", bench/NN-slug/NAME.md for "NN:NAME"."""
    number, _, name = chapter.partition(":")
    found = sorted((ROOT / "bench").glob(f"{number}-*/{name or 'results'}.md"))
    if not found:
        raise ResultError(f"chapter {number} has no bench/{number}-*/{name or 'results'}.md")
    return found[0]


def load(chapter: str, cache: dict[str, Results] | None = None) -> Results:
    if cache is not None and chapter in cache:
        return cache[chapter]
    results = parse(results_file(chapter).read_text())
    if cache is not None:
        cache[chapter] = results
    return results


def cell(results: Results, caption: str | None, row: str, column: str) -> str:
    """The cell of `row` under `column`, in the first table that has both
    (and whose caption has `caption`, if given). The names lose what looks
    like Markdown (backticks, `*`, `_`) as the cells did, so that a row is
    named as the table shows it: "nginx 1.22.1 (proxy_pass, ...)"."""
    wanted = [_plain(part) for part in row.split("·")]
    column = _plain(column)
    for table in results.tables:
        if caption is not None and caption not in table.caption:
            continue
        if column not in table.header:
            continue
        at = table.header.index(column)
        for cells in table.rows:
            if all(part in cells for part in wanted) and at < len(cells) and cells[at]:
                return cells[at]
    where = f' in a table whose caption has "{caption}"' if caption is not None else ""
    raise ResultError(f'no row "{row}" with a column "{column}"{where}')


def _number(text: str) -> float:
    try:
        return float(text.replace(",", "").replace("×", "").strip())
    except ValueError as error:
        raise ResultError(f'"{text}" is not a number') from error


def expand(kind: str, body: str, cache: dict[str, Results] | None = None) -> str:
    """What a placeholder stands for."""
    if kind == "cited":
        return body.strip()
    chapter, _, rest = body.strip().partition(" ")
    if not re.fullmatch(r"\d\d(?::[\w-]+)?", chapter):
        raise ResultError(f"a placeholder starts with the chapter's number (NN, or NN:NAME for "
                          f"bench/NN-*/NAME.md), not '{chapter}'")
    results = load(chapter, cache)
    args = ARGUMENT.findall(rest)
    if kind == "rounds":
        found = ROUNDS.search(results.first_line)
        if not found:
            raise ResultError(f"chapter {chapter}'s results do not say how many rounds their medians are of")
        return found[1]
    if kind == "machine":
        found = MACHINE.search(results.first_line)
        if not found:
            raise ResultError(f"chapter {chapter}'s results do not name their machine")
        return found["machine"].strip()
    if kind == "result" and len(args) in (2, 3):
        caption = args[0] if len(args) == 3 else None
        return cell(results, caption, args[-2], args[-1])
    if kind == "ratio" and len(args) in (3, 4):
        caption = args[0] if len(args) == 4 else None
        over, under, column = args[-3:]
        ratio = _number(cell(results, caption, over, column)) / _number(cell(results, caption, under, column))
        return f"{ratio:.2f}"
    raise ResultError(f"{{{{{kind} ...}}}} takes other arguments: {body.strip()}")


def substitute(text: str, cache: dict[str, Results] | None = None) -> str:
    """The page with every placeholder replaced; raises ResultError on one
    that names nothing."""
    cache = {} if cache is None else cache
    return PLACEHOLDER.sub(lambda m: expand(m["kind"], m["body"], cache), text)


# What a measured figure looks like in prose: a number with a unit of
# throughput or of time per operation, a ratio to a peer, a share of the
# CPU, or the count of rounds that medians were taken of.
_NUM = r"\d[\d,]*(?:\.\d+)?"
_UNITS = (r"(?:req(?:uests)?/s|requests (?:a|per) second|rendezvous/s|rendezvous a second"
          r"|ns(?:/| per | a )hop|ns|µs|MB/s|GB/s|Gbit/s|MiB/s|ms/req|% (?:of (?:the )?)?(?:CPU|kernel)|%)")
HAND_TYPED = re.compile(
    rf"(?<![\w.]){_NUM}\s*(?:[–-]\s*{_NUM}\s*)?{_UNITS}(?!\w)"
    rf"|(?<![\w.]){_NUM}\s*(?:×|times)\s+(?:as\s+\w+|nginx|erlang|Erlang|lighttpd|chapter|a\s+local|its|CAF|Ruby)"
    r"|medians? of (?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b"
    r"|(?<![\w.])\d+ of \d+ clients")


def _without_placeholders(text: str) -> str:
    """The text with every placeholder blanked out, line breaks kept."""
    return PLACEHOLDER.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)


def problems(pages: list[Path]) -> list[str]:
    """Placeholders that name nothing, and measured figures typed by hand,
    as messages with page and line."""
    found = []
    cache: dict[str, Results] = {}
    for page in pages:
        text = page.read_text()
        name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
        for m in PLACEHOLDER.finditer(text):
            try:
                expand(m["kind"], m["body"], cache)
            except ResultError as error:
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{name}:{line}: {m[0]}: {error}")
        # The prose as one string, a line break a space, so that a figure
        # and its unit on two lines are seen; `starts` maps back to lines.
        joined, starts = "", []
        for number, line in prose_lines(_without_placeholders(text)):
            if line.lstrip().startswith("|"):
                continue  # a table of the page's own (limits, settings), not a measurement's
            starts.append((len(joined), number))
            joined += line.strip() + " "
        for m in HAND_TYPED.finditer(joined):
            number = next(n for at, n in reversed(starts) if at <= m.start())
            found.append(f"{name}:{number}: \"{m[0]}\" looks like a measured figure typed by hand: take it "
                         "from the results ({{result NN ...}}, {{ratio ...}}, {{rounds NN}}), or mark "
                         "someone else's or an earlier machine's as {{cited ...}}")
    return found
