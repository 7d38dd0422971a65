#!/usr/bin/env python3
"""Doxygen input filter for the book's pages, chapters/*.md (FILTER_PATTERNS).

Passes a page through and adds what keeps the book in order without anyone
maintaining it by hand:

- after each listing (\\snippet) that covers an exercise region, the
  exercise's box: its name and anchor (ex-chNN-K), where to write it, the
  commands that check it and give its hints, and the reference solution in
  a fold the reader opens (book/listing_filter.py shows the listing itself
  with the learner's stub in place of the region);
- in place of `\\include{doc}` of a benchmark's results, the results
  themselves, as Markdown of the page;
- in place of a {{result ...}}, {{ratio ...}}, {{rounds ...}} or
  {{machine ...}} placeholder, the figure from the chapter's benchmark
  results (tools/course/results.py), so that the prose says what the table
  beside it says; {{cited ...}} marks a figure typed by hand (history);
- at the end of the introduction, the list of chapters and appendices;
- at the end of every other page, links to the previous and the next one.

Pages are the chapters (NN-slug.md, in number order) and then the
appendices (AK-slug.md).
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from course import exercise_blocks, results  # noqa: E402

LABEL = re.compile(r"^#\s+(?P<title>.+?)\s*\{#(?P<label>[\w-]+)\}\s*$")


def title_and_label(page: Path) -> tuple[str, str]:
    first = page.read_text().splitlines()[0]
    m = LABEL.match(first)
    if not m:
        sys.exit(f"{page}:1: a page of the book must start with '# Title {{#label}}'")
    return m["title"], m["label"]


def book_pages(folder: Path) -> list[Path]:
    """The pages in reading order: chapters, then appendices."""
    return sorted(folder.glob("[0-9][0-9]-*.md")) + sorted(folder.glob("A[0-9]-*.md"))


def number(page: Path) -> str:
    return page.name.split("-")[0]


def with_exercises(text: str) -> str:
    """The page with an exercise box after every listing that covers a region."""
    out = []
    for line in text.splitlines():
        out.append(line)
        for block in exercise_blocks.after_listing(line):
            out.append(block)
    return "\n".join(out) + "\n"


INCLUDE_DOC = re.compile(r"^\\include\{doc\}\s+(?P<path>\S+)\s*$")
EXAMPLES = [Path(__file__).resolve().parents[1] / folder for folder in ("bench", "solutions")]


def with_included_results(text: str) -> str:
    """The page with each `\\include{doc} NN-slug/results.md` replaced by the
    file's Markdown itself, between blank lines. (Doxygen's own include runs
    the file's paragraphs together: a table's caption ran into the line
    before it, and the next caption floated beside the table.)"""
    out = []
    for line in text.splitlines():
        m = INCLUDE_DOC.match(line)
        found = [folder / m["path"] for folder in EXAMPLES if (folder / m["path"]).is_file()] if m else []
        if found:
            out += ["", found[0].read_text().rstrip("\n"), ""]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def navigation(page: Path, pages: list[Path]) -> str:
    index = pages.index(page)
    if index == 0:  # the introduction lists every other page
        items = []
        for other in pages[1:]:
            title, label = title_and_label(other)
            items.append(f"- \\ref {label} \"{number(other)} · {title}\"\n")
        return "\n" + "".join(items)
    links = []
    for neighbour, arrow in ((index - 1, "prev"), (index + 1, "next")):
        if 0 <= neighbour < len(pages):
            title, label = title_and_label(pages[neighbour])
            if neighbour == 0:
                label = "index"
            name = f"{number(pages[neighbour])} · {title}"
            text = f"← {name}" if arrow == "prev" else f"{name} →"
            links.append(f'<span class="{arrow}">\\ref {label} "{text}"</span>')
        else:
            links.append("<span></span>")
    return '\n<div class="chapter-nav">' + "".join(links) + "</div>\n"


def main() -> None:
    page = Path(sys.argv[1]).resolve()
    try:
        text = results.substitute(with_included_results(page.read_text()))
    except results.ResultError as error:  # ./course verify --quick names the page and line
        sys.exit(f"{page}: {error}")
    sys.stdout.write(with_exercises(text))
    pages = book_pages(page.parent)
    if page in pages:
        sys.stdout.write(navigation(page, pages))


if __name__ == "__main__":
    main()
