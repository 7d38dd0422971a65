"""Facts about the book's pages: section anchors and the snippets they pull in."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .chapters import ROOT

HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.+?)\s*\{#(?P<anchor>[\w-]+)\}\s*$")
SECTION_CMD = re.compile(r"^\s*[\\@](?:section|subsection|subsubsection|anchor)\s+(?P<anchor>[\w-]+)\s*(?P<title>.*)$")
SNIPPET = re.compile(r"[\\@]snippet(?:lineno|doc|doclineno)?(?:\{[^}]*\})?\s+(?P<file>\S+)\s+(?P<name>[^\s]+)")
INCLUDE = re.compile(r"[\\@](?:include|includedoc|dontinclude)(?:\{[^}]*\})?\s+(?P<file>\S+)")
MARKER = "[{}]"
EXAMPLE_PATH = ("solutions", "bench")


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


def _example(name: str) -> Path | None:
    """The file a \\snippet or \\include names, looked up as Doxygen does."""
    for folder in EXAMPLE_PATH:
        if (ROOT / folder / name).is_file():
            return ROOT / folder / name
    return None


def snippet_problems() -> list[str]:
    """Each \\snippet or \\include whose file or marker does not exist."""
    problems = []
    for page in sorted((ROOT / "chapters").glob("*.md")):
        for number, line in enumerate(page.read_text().splitlines(), 1):
            where = f"{page.relative_to(ROOT)}:{number}"
            for m in INCLUDE.finditer(line):
                if not _example(m["file"]):
                    problems.append(f"{where}: \\include names {m['file']}, which is in none of {EXAMPLE_PATH}")
            for m in SNIPPET.finditer(line):
                source = _example(m["file"])
                if not source:
                    problems.append(f"{where}: \\snippet names {m['file']}, which is in none of {EXAMPLE_PATH}")
                    continue
                marker = MARKER.format(m["name"])
                count = sum(marker in text for text in source.read_text().splitlines())
                if count != 2:
                    problems.append(f"{where}: {source.relative_to(ROOT)} should have two lines marked "
                                    f"'{marker}' (start and end), has {count}")
    return problems
