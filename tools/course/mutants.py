"""./course verify --mutants: the changes to the exercises' reference code
that no test notices.

Teeth prove that a test fails when a whole exercise region is stubbed. A
learner's answer is rarely that far off: it forgets one line, or tests one
condition too many, or `<` where `<=` was meant. This makes such answers
from the reference solution, one line at a time, and runs the chapter's
tests against each (a *mutant*):

- delete      a statement line taken out
- if-never    an `if` whose condition is never true
- if-always   an `if` whose condition is always true
- flip        one comparison or logical operator the other way (`<` and
              `<=`, `==` and `!=`, `&&` and `||`)
- drop        a `+ 1` or `- 1` left out; `return true` and `return false`
              swapped

Each mutant is built in build/mutants (a scratch copy of the exercise tree,
as teeth use) and the chapter's exercise tests run against it until the
first failure. One that builds and passes every test *survived*: either a
test is missing, or the change makes no difference (the code it took out
was done again elsewhere, say) and the survivor is to be read and let be.
So this is a report, not a gate; it takes minutes per chapter, hours for
the whole course, and keeps its verdicts (build/mutants/verdicts.json) so
that a run stopped half-way goes on where it was, for as long as the
chapter's solution and tests stay as they were.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import time
from pathlib import Path

from . import chapters, regions, ui
from .chapters import ROOT

KINDS = ("delete", "if-never", "if-always", "flip", "drop")

_DECLARATION = re.compile(r"(const |auto |using |static |[\w:<>]+[&*]? \w+ ?[=({;])")
_IF = re.compile(r"^\s*(?:\} else )?if \((?!const |auto |std::size_t |int )")
_FLIPS = ((" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "),
          (" == ", " != "), (" != ", " == "), (" && ", " || "), (" || ", " && "))
_DROPS = ((" + 1", ""), (" - 1", ""), ("return true;", "return false;"), ("return false;", "return true;"))


@dataclasses.dataclass(frozen=True)
class Mutant:
    region: regions.Region
    index: int  # the line's index in its file
    kind: str   # one of KINDS
    old: str    # the line as it is
    new: str    # the line as the mutant has it ("" for a deleted line)

    @property
    def file(self) -> str:
        path = self.region.path
        return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.index + 1}"

    def key(self) -> str:
        """Names the mutant for the verdicts kept between runs: by file and
        text, so that a line that moved keeps its verdict and one that
        changed is tried again."""
        return json.dumps([self.file, self.old, self.kind, self.new])


def line_mutants(line: str) -> list[tuple[str, str]]:
    """The (kind, mutated line) pairs made from one line of code."""
    code = line.split("//")[0].strip()
    if not code or code.startswith(("#", "//")):
        return []
    found: list[tuple[str, str]] = []
    if _IF.match(line):
        found.append(("if-never", line.replace("if (", "if (false) if (", 1)))
        found.append(("if-always", line.replace("if (", "if (true || ", 1)))
    elif (code.endswith(";") and "{" not in code and not code.startswith(("return", "}", "case "))
          and not _DECLARATION.match(code)):
        found.append(("delete", ""))
    for old, new in _FLIPS:
        at = line.find(old)
        while at >= 0:
            found.append(("flip", line[:at] + new + line[at + len(old):]))
            at = line.find(old, at + 1)
    for old, new in _DROPS:
        at = line.find(old)
        if at >= 0:
            found.append(("drop", line[:at] + new + line[at + len(old):]))
    return found


def region_mutants(region: regions.Region, kinds: tuple[str, ...] = KINDS) -> list[Mutant]:
    """Every mutant of one region's code, in the order of its lines. A line
    that continues a statement begun above it is not deleted on its own."""
    lines = region.path.read_text().splitlines()
    found: list[Mutant] = []
    continues = False
    for index in range(region.body, region.last):
        found += [Mutant(region, index, kind, lines[index], new) for kind, new in line_mutants(lines[index])
                  if kind in kinds and not (kind == "delete" and continues)]
        code = lines[index].split("//")[0].strip()
        if code:
            continues = not code.endswith((";", "{", "}", ":"))
    return found


def chapter_mutants(chapter: chapters.Chapter, kinds: tuple[str, ...] = KINDS) -> list[Mutant]:
    """Every mutant of the chapter's exercise regions, in exercise order."""
    return [m for region in regions.chapter_regions(chapter.solution_dir) for m in region_mutants(region, kinds)]


def mutated_text(mutant: Mutant) -> str:
    """The mutant's whole file: the solution with its one line changed."""
    text = mutant.region.path.read_text()
    lines = text.splitlines()
    lines[mutant.index] = mutant.new
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def fingerprint(chapter: chapters.Chapter) -> str:
    """What a verdict on one of the chapter's mutants depends on, besides the
    mutant: every file of its solution and of its tests, and of the code and
    the test support every chapter shares."""
    digest = hashlib.sha256()
    for folder in (chapter.solution_dir, chapter.tests_dir, ROOT / "solutions" / "common",
                   ROOT / "tests" / "support"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class Verdicts:
    """What each mutant came to, kept between runs for as long as the
    chapter's fingerprint() stays the same (an interrupted run goes on where
    it stopped; a changed test or solution tries every mutant again)."""

    def __init__(self, path: Path, chapter: chapters.Chapter) -> None:
        self.path = path
        self.print = fingerprint(chapter)
        everything = json.loads(path.read_text()) if path.exists() else {}
        self.everything: dict[str, dict] = everything
        self.known: dict[str, dict] = everything.get(chapter.number, {}).get(self.print, {})
        self.chapter = chapter.number

    def get(self, mutant: Mutant) -> dict | None:
        return self.known.get(mutant.key())

    def put(self, mutant: Mutant, verdict: dict) -> None:
        self.known[mutant.key()] = verdict
        self.everything[self.chapter] = {self.print: self.known}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.everything, indent=0))


class Unverifiable(Exception):
    """The unchanged solution fails its tests: there is nothing to compare with."""


def describe(mutant: Mutant) -> str:
    """One line for the report: where, and what the mutant does there."""
    if mutant.kind == "delete":
        return f"{mutant.where} without `{mutant.old.strip()}`"
    return f"{mutant.where} {mutant.kind}: `{mutant.new.strip()}`"


def check(teeth, chapter: chapters.Chapter, kinds: tuple[str, ...]) -> list[str]:
    """Builds and tests every mutant of the chapter (`teeth`, a verify.Teeth
    of its own tree, builds and runs them); prints each verdict and returns
    the survivors, described."""
    verdicts = Verdicts(teeth.tree / "verdicts.json", chapter)
    survivors: list[str] = []
    found = chapter_mutants(chapter, kinds)
    ui.say(ui.dim(f"  {len(found)} mutants of {len(regions.chapter_regions(chapter.solution_dir))} regions"))
    limit = 0.0  # a mutant may loop for ever: five times what the solution takes, and a minute
    for mutant in found:
        verdict = verdicts.get(mutant)
        if verdict is None and not limit:
            errors, run = teeth.attempt(chapter, set(), {})  # builds it
            started = time.monotonic()
            if not errors:
                errors, run = teeth.attempt(chapter, set(), {})  # only runs the tests: timed
            if errors or run is None or not run.passed:
                raise Unverifiable(f"chapter {chapter.number}: the solution itself does not pass its "
                                   "exercise tests in build/mutants, so no mutant can be judged")
            limit = 5 * (time.monotonic() - started) + 60
        if verdict is None:
            errors, run = teeth.attempt(chapter, set(), {mutant.region.path: mutated_text(mutant)}, timeout=limit)
            if errors:
                verdict = {"result": "does not build"}
            elif run is not None and run.passed:
                verdict = {"result": "survived"}
            else:
                caught = next((t.full_name for t in (run.tests if run else []) if not t.passed), "a crash")
                verdict = {"result": "caught", "by": caught}
            verdicts.put(mutant, verdict)
        if verdict["result"] == "survived":
            survivors.append(f"{regions.todo_label(mutant.region)} {describe(mutant)}")
            ui.say(f"  {ui.red(ui.FAIL)} {regions.todo_label(mutant.region)} {describe(mutant)}: no test fails")
        elif verdict["result"] == "caught":
            ui.say(ui.dim(f"  {ui.PASS} {describe(mutant)} — caught by {verdict['by']}"))
    teeth.attempt(chapter, set(), {})  # the scratch tree as the solution is
    return survivors
