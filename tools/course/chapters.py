"""The chapters of the course, found from the repository's folders."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SLUG = re.compile(r"^(\d\d)-[a-z0-9-]+$")
TITLE = re.compile(r"^#\s+(?P<title>.+?)\s*(\{#[\w-]+\})?\s*$")


@dataclasses.dataclass(frozen=True)
class Chapter:
    number: str   # "01"
    slug: str     # "01-keepalive"

    @property
    def solution_dir(self) -> Path:
        return ROOT / "solutions" / self.slug

    @property
    def exercise_dir(self) -> Path:
        return ROOT / "exercises" / self.slug

    @property
    def tests_dir(self) -> Path:
        return ROOT / "tests" / self.slug

    @property
    def bench_dir(self) -> Path:
        return ROOT / "bench" / self.slug

    @property
    def page(self) -> Path:
        return ROOT / "chapters" / f"{self.slug}.md"

    @property
    def title(self) -> str:
        if self.page.exists():
            for line in self.page.read_text().splitlines():
                if m := TITLE.match(line):
                    return m["title"]
        return self.slug

    @property
    def has_code(self) -> bool:
        return (self.solution_dir / "CMakeLists.txt").exists()

    @property
    def has_tests(self) -> bool:
        return (self.tests_dir / "CMakeLists.txt").exists()

    @property
    def test_target(self) -> str:
        return f"test_ch{self.number}"

    @property
    def exercise_test_target(self) -> str:
        return f"test_ch{self.number}_exercise"

    def __str__(self) -> str:
        return f"{self.number} {self.title}"


def all_chapters() -> list[Chapter]:
    """Every chapter with a book page or code, in order."""
    slugs = set()
    for folder in ("chapters", "solutions"):
        for path in (ROOT / folder).iterdir():
            name = path.stem if path.suffix == ".md" else path.name
            if SLUG.match(name):
                slugs.add(name)
    return [Chapter(s[:2], s) for s in sorted(slugs)]


def coded_chapters() -> list[Chapter]:
    """The chapters that have a solution and tests (00 is book only)."""
    return [c for c in all_chapters() if c.has_code]


def find(number: str) -> Chapter:
    """The chapter numbered `number` ("1", "01"); raises LookupError."""
    want = number.zfill(2)
    for chapter in all_chapters():
        if chapter.number == want:
            return chapter
    known = ", ".join(c.number for c in all_chapters())
    raise LookupError(f"there is no chapter {number!r} (chapters: {known})")
