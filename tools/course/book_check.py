"""Checks of the book against the exercises, for ./course verify.

Before the build (quick): every exercise region is shown by exactly one
listing of its own chapter's page, and no listing cuts a region in two.

After the build, on the HTML itself: every exercise's box is on its page
(anchor, stub, first hint, check and hint commands), its reference code is
in the fold, and no line of any region's reference code is in open text on
any page, that is anywhere outside a <details> fold.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path

from . import chapters, exercise_blocks, regions
from .chapters import ROOT

BREAKS = {"div", "p", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "summary"}
SHORTEST = 12  # shorter reference lines (`}`, `return used;`) say nothing of an answer
UNIQUE = 40    # a reference line this long is looked for inside longer lines (prose) too


def normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def code(line: str) -> str:
    """A line of code as compared here: normalised, without a trailing comment."""
    line = normal(line)
    cut = line.find(" // ")
    return line[:cut].rstrip() if cut > 0 else line


class _PageText(html.parser.HTMLParser):
    """A page's text as lines, split into what is open and what is folded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.folded_depth = 0
        self.open: list[str] = [""]
        self.folded: list[str] = [""]
        self.ids: set[str] = set()

    def _lines(self) -> list[str]:
        return self.folded if self.folded_depth else self.open

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"] or "")
        if tag == "details":
            self.folded_depth += 1
        if tag in BREAKS:
            self._lines().append("")

    def handle_endtag(self, tag):
        if tag in BREAKS:
            self._lines().append("")
        if tag == "details" and self.folded_depth:
            self.folded_depth -= 1

    def handle_data(self, data):
        lines = self._lines()
        parts = data.split("\n")
        lines[-1] += parts[0]
        lines.extend(parts[1:])


def page_text(page: Path) -> _PageText:
    parser = _PageText()
    parser.feed(page.read_text(encoding="utf-8", errors="replace"))
    parser.open = [n for n in map(normal, parser.open) if n]
    parser.folded = [n for n in map(normal, parser.folded) if n]
    return parser


def _shown_by(page: Path) -> dict[str, list[str]]:
    """Region (its TODO label) -> the listings of `page` that cover it."""
    shown: dict[str, list[str]] = {}
    for number, line in enumerate(page.read_text().splitlines(), 1):
        listing = exercise_blocks.listing(line)
        if listing:
            inside, _ = exercise_blocks.covered(listing)
            for region in inside:
                shown.setdefault(regions.todo_label(region), []).append(f"{page.relative_to(ROOT)}:{number}")
    return shown


def quick_problems() -> list[str]:
    """Every region shown once on its own page; no listing cutting a region."""
    problems: list[str] = []
    pages = sorted((ROOT / "chapters").glob("*.md"))
    shown: dict[str, list[str]] = {}
    for page in pages:
        for number, line in enumerate(page.read_text().splitlines(), 1):
            listing = exercise_blocks.listing(line)
            if not listing:
                continue
            _, cut = exercise_blocks.covered(listing)
            for region in cut:
                problems.append(f"{page.relative_to(ROOT)}:{number}: the listing {listing.name} cuts "
                                f"exercise {region.id} in two; a listing shows a region whole or not at all")
        for key, where in _shown_by(page).items():
            shown.setdefault(key, []).extend(where)
    for chapter in chapters.coded_chapters():
        order = _order_on_page(chapter.page) if chapter.page.exists() else []
        if order != sorted(order, key=lambda i: int(i.split(".")[1])):
            problems.append(f"chapters/{chapter.slug}.md shows its exercises in the order {', '.join(order)}; "
                            "number them in the order the book asks for them")
        for region in regions.chapter_regions(chapter.solution_dir):
            where = shown.get(regions.todo_label(region), [])
            own = [w for w in where if w.startswith(f"chapters/{chapter.slug}.md:")]
            if len(where) != 1 or len(own) != 1:
                problems.append(f"exercise {regions.todo_label(region)} ({region.title}) should be shown by exactly one "
                                f"listing of chapters/{chapter.slug}.md; it is shown by "
                                f"{', '.join(where) if where else 'none'}")
            body = region.path.read_text().splitlines()[region.body:region.last]
            if any(re.search(r"//!? \[[\w-]+\]", line) for line in body):
                problems.append(f"{region.path.relative_to(ROOT)}:{region.line}: exercise {region.id} "
                                "holds a snippet marker, which its stub would remove")
    return problems


def _order_on_page(page: Path) -> list[str]:
    """The exercise ids in the order their first part appears on `page`."""
    order: list[str] = []
    for line in page.read_text().splitlines():
        listing = exercise_blocks.listing(line)
        if listing:
            inside, _ = exercise_blocks.covered(listing)
            for region in sorted(inside, key=lambda r: r.first):
                if region.part == 1 and region.id not in order:
                    order.append(region.id)
    return order


def _open_code_lines() -> set[str]:
    """Every line of every solution source outside exercise regions."""
    lines: set[str] = set()
    for path in (ROOT / "solutions").rglob("*"):
        if path.suffix not in regions.SOURCE_SUFFIXES:
            continue
        text = path.read_text().splitlines()
        inside = set()
        for region in regions.parse(path, text):
            inside.update(range(region.first, region.last + 1))
        lines.update(code(line) for number, line in enumerate(text) if number not in inside)
    return lines


def telling_lines(region: regions.Region, everywhere: set[str]) -> list[str]:
    """The lines of a region's reference code that would give it away: long
    enough to say something, and found nowhere else in the solutions, not
    even as part of a longer line (a call broken over two lines begins like
    the same call written on one)."""
    text = region.path.read_text().splitlines()
    elsewhere = "\n".join(everywhere)
    found = []
    for line in regions.solution_lines(region, text):
        line = code(line)
        if len(line) >= SHORTEST and line not in everywhere and line not in elsewhere:
            found.append(line)
    return found


def _page_names() -> set[str]:
    """The HTML names of the book's own pages (chapters and appendices):
    index for the introduction, the label of every other page."""
    names = {"index"}
    for page in sorted((ROOT / "chapters").glob("*.md")):
        m = re.match(r"^#\s+.+?\{#(?P<label>[\w-]+)\}\s*$", page.read_text().splitlines()[0])
        if m:
            names.add(m["label"])
    return names


def built_problems(html_dir: Path) -> tuple[list[str], int]:
    """Problems of the built book, and how many reference lines were looked for."""
    problems: list[str] = []
    everywhere = _open_code_lines()
    pages = {p.stem: page_text(p) for p in sorted(html_dir.glob("*.html"))}
    chapter_pages = {name: text for name, text in pages.items() if name in _page_names()}
    looked_for = 0
    for chapter in chapters.coded_chapters():
        page = pages.get(f"ch{chapter.number}")
        if page is None:
            problems.append(f"the book has no page ch{chapter.number}.html")
            continue
        for region in regions.chapter_regions(chapter.solution_dir):
            problems += _box_problems(region, page, chapter)
            telling = telling_lines(region, everywhere)
            looked_for += len(telling)
            folded = "\n".join(page.folded)
            if telling and not any(line in folded for line in telling):
                problems.append(f"ch{chapter.number}.html: the fold of exercise {region.id} does not hold "
                                "its reference solution")
            for name, text in chapter_pages.items():
                shown_code = {code(line) for line in text.open}
                for line in telling:
                    if line in shown_code or (len(line) >= UNIQUE and any(line in s for s in text.open)):
                        problems.append(f"{name}.html shows a line of the answer to {region.id} "
                                        f"in open text: {line!r}")
    return problems, looked_for


def _box_problems(region: regions.Region, page: _PageText, chapter: chapters.Chapter) -> list[str]:
    problems = []
    where = f"ch{chapter.number}.html, exercise {regions.todo_label(region)}"
    text = "\n".join(page.open)
    wanted = {
        "its anchor": None,
        "its TODO line": f"// TODO({regions.todo_label(region)}): {normal(region.title)}",
        "its first hint": " ".join(normal(region.hints[0]).split()[:6]),
        "the check command": f"./course check {chapter.number}",
        "the hint command": f"./course hint {chapter.number} {region.number}",
    }
    for what, needle in wanted.items():
        if needle is None:  # the exercise's anchor is at the box of its first part
            if region.part == 1 and exercise_blocks.anchor(region) not in page.ids:
                problems.append(f"{where}: the page lacks {what} ({exercise_blocks.anchor(region)})")
        elif needle not in text:
            problems.append(f"{where}: the page lacks {what}: {needle!r}")
    return problems
