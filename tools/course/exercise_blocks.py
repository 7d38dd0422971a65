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
import textwrap
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
    for region in regions.parse(shown.source):
        if shown.first < region.first and region.last < shown.last:
            inside.append(region)
        elif shown.first < region.first < shown.last or shown.first < region.last < shown.last:
            cut.append(region)
    return inside, cut


def anchor(region_id: str) -> str:
    """The book's anchor of an exercise: ex-ch01-2 for ch01.2."""
    return "ex-" + region_id.replace(".", "-")


def learner_file(region: regions.Region) -> str:
    return "exercises/" + str(region.path.relative_to(ROOT / "solutions"))


def box(region: regions.Region, shown: Listing) -> str:
    """The exercise box that follows a listing covering `region`."""
    chapter, k = region.chapter, region.number
    return textwrap.dedent(f"""\

        \\anchor {anchor(region.id)}
        <div class="exercise">
        <b>Exercise {region.id}</b> · {region.title}<br>
        The listing shows the stub your copy has. Write the code in place of
        `TODO({region.id})` in `{learner_file(region)}`, then check it with
        `./course check {chapter}`. Hints, one at a time: `./course hint {chapter} {k}`.
        </div>
        \\htmlonly <details class="solution"><summary>Reference solution of {region.id} (open it once you have tried)</summary> \\endhtmlonly
        \\snippet {shown.file} {regions.solution_snippet(region.id)}
        \\htmlonly </details> \\endhtmlonly
        """)


def after_listing(line: str) -> list[str]:
    """What the book adds after a page's line: a box per region it covers."""
    shown = listing(line)
    if shown is None:
        return []
    inside, _ = covered(shown)
    return [box(region, shown) for region in inside]
