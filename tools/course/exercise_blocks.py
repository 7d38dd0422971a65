"""Where the book meets the exercises: the listings that cover an exercise
region, and the box the book shows after each of them.

book/listing_filter.py shows every listing with the learner's stub in place
of each region; book/page_filter.py adds, after a listing that covers a
region, the box this module writes; ./course verify checks, on the built
book, that no region's reference code is in open text (see verify.py).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from . import regions
from .chapters import ROOT

SNIPPET = re.compile(r"^\s*[\\@]snippet(?:\{[^}]*\})?\s+(?P<file>\S+)\s+(?P<name>\S+)\s*$")
EXAMPLE_PATH = ("solutions", "bench")


@dataclasses.dataclass(frozen=True)
class Listing:
    """A \\snippet of a page: the file and marker it names."""
    file: str         # as written: 01-keepalive/keepalive.cpp
    name: str         # the marker: serve
    source: Path      # the file found on the example path
    first: int        # index of the opening marker line
    last: int         # index of the closing marker line


def listing(line: str) -> Listing | None:
    """The listing a page's line pulls in, if it is a \\snippet of a source
    file whose markers exist (other lines, and broken snippets: None)."""
    m = SNIPPET.match(line)
    if not m:
        return None
    source = next((ROOT / folder / m["file"] for folder in EXAMPLE_PATH
                   if (ROOT / folder / m["file"]).is_file()), None)
    if source is None or source.suffix not in regions.SOURCE_SUFFIXES:
        return None
    marker = f"[{m['name']}]"
    marks = [i for i, text in enumerate(source.read_text().splitlines()) if marker in text]
    if len(marks) != 2:
        return None
    return Listing(m["file"], m["name"], source, marks[0], marks[1])


def covered(shown: Listing) -> tuple[list[regions.Region], list[regions.Region]]:
    """The regions wholly inside the listing, and those it cuts (a defect)."""
    inside, cut = [], []
    for region in regions.counted(shown.source, regions.parse(shown.source)):
        if shown.first < region.first and region.last < shown.last:
            inside.append(region)
        elif shown.first < region.first < shown.last or shown.first < region.last < shown.last:
            cut.append(region)
    return inside, cut


def anchor(region: regions.Region) -> str:
    """The book's anchor of an exercise's box: ex-ch01-2 for ch01.2 (the box
    with its first part), ex-ch01-2-k for the box that starts with part k."""
    base = "ex-" + region.id.replace(".", "-")
    return base if region.part == 1 else f"{base}-{region.part}"


def learner_file(region: regions.Region) -> str:
    return "exercises/" + str(region.path.relative_to(ROOT / "solutions"))


def box(parts: list[regions.Region], shown: Listing) -> str:
    """The box that follows a listing showing `parts` (one exercise's parts
    that the listing covers, in order)."""
    first = parts[0]
    chapter, k = first.chapter, first.number
    name = f"<b>Exercise {first.id}</b> · {first.title}"
    if len(parts) == first.parts > 1:
        name += f" (all {first.parts} parts are in this listing)"
    elif first.parts > 1:
        numbers = _joined([str(p.part) for p in parts])
        which = f"part{'s' if len(parts) > 1 else ''} {numbers} of {first.parts}"
        name = f"<b>Exercise {first.id}, {which}</b> · "
        if first.part == 1:
            name += first.title
        else:
            start = anchor(dataclasses.replace(first, part=1))
            name += "; ".join(p.title for p in parts) + f" (the exercise begins at \\ref {start})"
    todos = _joined([f"`TODO({regions.todo_label(p)})`" for p in parts])
    files = "`, `".join(sorted({learner_file(p) for p in parts}))
    folds = "".join(
        f"\\htmlonly <details class=\"solution\"><summary>Reference solution of {regions.todo_label(p)} "
        f"(open it once you have tried)</summary> \\endhtmlonly\n"
        f"\\snippet {shown.file} {regions.solution_snippet(p)}\n"
        f"\\htmlonly </details> \\endhtmlonly\n" for p in parts)
    return (f"\n\\anchor {anchor(first)}\n"
            f"<div class=\"exercise\">\n"
            f"{name}<br>\n"
            f"The listing shows the stub your copy has. Write the code in place of\n"
            f"{todos} in `{files}`, then check it with\n"
            f"`./course check {chapter}`. Hints, one at a time: `./course hint {chapter} {k}`.\n"
            f"</div>\n" + folds)


def _joined(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def after_listing(line: str) -> list[str]:
    """What the book adds after a page's line: a box for each exercise whose
    parts the listing covers."""
    shown = listing(line)
    if shown is None:
        return []
    inside, _ = covered(shown)
    by_exercise: dict[str, list[regions.Region]] = {}
    for region in sorted(inside, key=lambda r: (int(r.number), r.part)):
        by_exercise.setdefault(region.id, []).append(region)
    return [box(parts, shown) for parts in by_exercise.values()]
