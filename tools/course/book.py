"""Facts about the book's pages: section anchors and the snippets they pull in."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .chapters import ROOT

HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.+?)\s*\{#(?P<anchor>[\w-]+)\}\s*$")
SECTION_CMD = re.compile(r"^\s*[\\@](?:section|subsection|subsubsection|anchor)\s+(?P<anchor>[\w-]+)\s*(?P<title>.*)$")
SNIPPET = re.compile(r"[\\@]snippet(?:lineno|doc|doclineno)?(?:\{[^}]*\})?\s+(?P<file>\S+)\s+(?P<name>[^\s]+)")
MARKER = "//! [{}]"


@dataclasses.dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    page: Path

    @property
    def where(self) -> str:
        return f'{self.page.relative_to(ROOT)}, "{self.title}"'


def sections() -> dict[str, Section]:
    """Every anchored heading of every chapter page, by anchor."""
    found: dict[str, Section] = {}
    for page in sorted((ROOT / "chapters").glob("*.md")):
        for line in page.read_text().splitlines():
            m = HEADING.match(line) or SECTION_CMD.match(line)
            if m:
                found[m["anchor"]] = Section(m["anchor"], m["title"].strip() or m["anchor"], page)
    return found


def html_dir(preset: str = "dev") -> Path:
    return ROOT / "build" / preset / "book" / "html"


def snippet_problems() -> list[str]:
    """Each \\snippet whose file or marker does not exist, as a message."""
    problems = []
    for page in sorted((ROOT / "chapters").glob("*.md")):
        for number, line in enumerate(page.read_text().splitlines(), 1):
            for m in SNIPPET.finditer(line):
                source = ROOT / "solutions" / m["file"]
                where = f"{page.relative_to(ROOT)}:{number}"
                if not source.exists():
                    problems.append(f"{where}: \\snippet names solutions/{m['file']}, which does not exist")
                    continue
                count = source.read_text().count(MARKER.format(m["name"]))
                if count != 2:
                    problems.append(f"{where}: solutions/{m['file']} should have the marker "
                                    f"'{MARKER.format(m['name'])}' twice (start and end), has it {count} time(s)")
    return problems
