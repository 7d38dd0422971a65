"""Exercise regions: marked in the solutions, stubbed in the exercises.

A region in a solution source looks like this (any indentation):

    // EXERCISE ch01.2: answer each complete request head, in order
    // HINT: Where does a request head end?
    // HINT: Several requests can arrive in one read. Keep looking
    //       after the end of the first head.
    // STUB: (void)received;
    ...the solution's code...
    // END EXERCISE

The generator replaces it with a stub that compiles without warnings and fails
at run time:

    // TODO(ch01.2): answer each complete request head, in order
    // Hint: Where does a request head end? (more: ./course hint 01 2)
    (void)received;
    throw rdv::todo("ch01.2", "answer each complete request head, in order");

HINT lines are questions that lead; a line that starts with more spaces
continues the previous hint. STUB lines are emitted before the throw (to use
parameters and helpers the stubbed code would have used).

An exercise may have several parts, where one idea lives in two places (a
function and the steps it calls, say): the first part is marked as above,
and each further part, in the same file or another of the chapter, as

    // EXERCISE ch02.6, part 2: check the CRLF that ends a chunk's data
    // HINT: ...
    ...
    // END EXERCISE

The exercise's title is its first part's; every part has hints of its own,
and its stub says `TODO(ch02.6, part 2 of 3)`.
"""

from __future__ import annotations

import dataclasses
import textwrap
import re
from pathlib import Path

BEGIN = re.compile(r"^(?P<indent>\s*)// EXERCISE (?P<id>ch(?P<chapter>\d\d)\.\d+)(?:, part (?P<part>\d+))?: "
                   r"(?P<title>.+?)\s*$")
HINT = re.compile(r"^\s*// HINT: (?P<text>.+?)\s*$")
STUB = re.compile(r"^\s*// STUB: (?P<code>.+?)\s*$")
CONTINUATION = re.compile(r"^\s*//\s{2,}(?P<text>\S.*?)\s*$")
END = re.compile(r"^\s*// END EXERCISE\s*$")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]')
TODO_INCLUDE = '#include "rdv/todo.hpp"'
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".ipp"}


class RegionError(Exception):
    """A malformed exercise region; the message names file and line."""


@dataclasses.dataclass
class Region:
    id: str              # "ch01.2"
    title: str           # what the learner implements
    hints: list[str]
    stub: list[str]      # code lines emitted before the throw
    path: Path           # the solution file
    first: int           # index of the EXERCISE line
    last: int            # index of the END EXERCISE line
    indent: str
    body: int = -1       # index of the first line of the solution's code
    part: int = 1        # which part of its exercise (most exercises have one)
    parts: int = 1       # how many parts the exercise has (set by exercises())

    @property
    def number(self) -> str:
        """K of chNN.K."""
        return self.id.split(".")[1]

    @property
    def chapter(self) -> str:
        return self.id[2:4]

    @property
    def line(self) -> int:
        return self.first + 1


def parse(path: Path, lines: list[str] | None = None) -> list[Region]:
    """The regions of one solution file, in order."""
    if lines is None:
        lines = path.read_text().splitlines()
    regions: list[Region] = []
    i = 0
    while i < len(lines):
        begin = BEGIN.match(lines[i])
        if not begin:
            if END.match(lines[i]) or HINT.match(lines[i]) or STUB.match(lines[i]):
                raise RegionError(f"{path}:{i + 1}: END/HINT/STUB outside an EXERCISE region")
            i += 1
            continue
        region = Region(begin["id"], begin["title"], [], [], path, i, -1, begin["indent"],
                        part=int(begin["part"] or 1))
        i += 1
        while i < len(lines):  # the header: hints and stub lines
            if hint := HINT.match(lines[i]):
                region.hints.append(hint["text"])
            elif stub := STUB.match(lines[i]):
                region.stub.append(stub["code"])
            elif (more := CONTINUATION.match(lines[i])) and region.hints and not region.stub:
                region.hints[-1] += " " + more["text"]
            else:
                break
            i += 1
        region.body = i
        while i < len(lines) and not END.match(lines[i]):
            if BEGIN.match(lines[i]):
                raise RegionError(f"{path}:{i + 1}: EXERCISE regions cannot nest "
                                  f"(the one at line {region.line} is still open)")
            i += 1
        if i == len(lines):
            raise RegionError(f"{path}:{region.line}: EXERCISE {region.id} has no END EXERCISE")
        region.last = i
        if not region.hints:
            raise RegionError(f"{path}:{region.line}: EXERCISE {region.id} needs at least one HINT")
        regions.append(region)
        i += 1
    return regions


@dataclasses.dataclass
class Exercise:
    """An exercise: one region, or several parts that share an id."""
    id: str
    parts: list[Region]

    @property
    def title(self) -> str:
        return self.parts[0].title

    @property
    def hints(self) -> list[str]:
        return [hint for part in self.parts for hint in part.hints]

    @property
    def chapter(self) -> str:
        return self.id[2:4]

    @property
    def number(self) -> str:
        return self.id.split(".")[1]


def todo_label(region: Region) -> str:
    """What the stub's TODO names: "ch03.4", or "ch02.6, part 2 of 3"."""
    return region.id if region.parts == 1 else f"{region.id}, part {region.part} of {region.parts}"


def stub_lines(region: Region, chapter: str) -> list[str]:
    """The lines that replace `region` in the exercise copy."""
    ind = region.indent
    title = region.title.replace("\\", "\\\\").replace('"', '\\"')
    hint = f"Hint: {region.hints[0]}"
    if len(region.hints) > 1 or region.parts > 1:
        hint += f" (more: ./course hint {chapter} {region.number})"
    out = [f"{ind}// TODO({todo_label(region)}): {region.title}"]
    # The command stays on one line: \u00a0 keeps textwrap from breaking it.
    hint = hint.replace(f"./course hint {chapter} {region.number}",
                        f"./course\u00a0hint\u00a0{chapter}\u00a0{region.number}")
    out += [line.replace("\u00a0", " ") for line in
            textwrap.wrap(hint, width=88, initial_indent=f"{ind}// ", subsequent_indent=f"{ind}//   ")]
    out += [ind + code for code in region.stub]
    out.append(f'{ind}throw rdv::todo("{region.id}", "{title}");')
    return out


def solution_lines(region: Region, lines: list[str]) -> list[str]:
    """The region's reference code (what the stub replaces), without the
    markers, indented as in the file."""
    return lines[region.body:region.last]


def solution_snippet(region: Region) -> str:
    """The snippet name under which the book's listings keep a region's
    reference code: "solution-ch01-2" for ch01.2, "solution-ch02-6-2" for ch02.6's
    part 2."""
    name = "solution-" + region.id.replace(".", "-")
    return name if region.part == 1 else f"{name}-{region.part}"


def key(region: Region) -> str:
    """A region's own name for render(): "ch02.6" for a whole exercise's only
    part, "ch02.6#3" for its third part."""
    return region.id if region.parts == 1 else f"{region.id}#{region.part}"


def render(path: Path, stubbed: set[str] | None = None) -> str:
    """The exercise copy of solution file `path`, with the regions named in
    `stubbed` (by exercise id, or by key() for one part) replaced by stubs,
    all of them when `stubbed` is None."""
    text = path.read_text()
    lines = text.splitlines()
    regions = counted(path, parse(path, lines))
    chosen = [r for r in regions if stubbed is None or r.id in stubbed or key(r) in stubbed]
    if not chosen:
        return text
    out: list[str] = []
    i = 0
    for region in chosen:
        out += lines[i:region.first]
        out += stub_lines(region, region.chapter)
        i = region.last + 1
    out += lines[i:]
    if not any(TODO_INCLUDE in line for line in out):
        out = _with_todo_include(out)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _with_todo_include(lines: list[str]) -> list[str]:
    """Adds the include of rdv::todo after the file's leading #include lines."""
    last_include = -1
    for i, line in enumerate(lines):
        if INCLUDE.match(line):
            last_include = i
        elif line.strip() and not line.lstrip().startswith(("//", "#")):
            break
    at = last_include + 1 if last_include >= 0 else 0
    return lines[:at] + [TODO_INCLUDE + "  // exercise stubs throw rdv::todo"] + lines[at:]


def chapter_regions(solution_dir: Path) -> list[Region]:
    """Every region (every part of every exercise) of one chapter's solution,
    in exercise order (chNN.1, chNN.2 part 1, chNN.2 part 2, ...), whichever
    files they are in, each knowing how many parts its exercise has."""
    regions: list[Region] = []
    for path in sorted(solution_dir.rglob("*")):
        if path.is_file() and path.suffix in SOURCE_SUFFIXES:
            regions += parse(path)
    regions.sort(key=lambda r: (r.chapter, int(r.number), r.part))
    for region in regions:
        region.parts = sum(r.id == region.id for r in regions)
    return regions


def exercises(solution_dir: Path) -> list[Exercise]:
    """The exercises of one chapter, in order, each with its parts in order.
    Raises RegionError when the parts of an exercise are not numbered 1..n."""
    found: dict[str, Exercise] = {}
    for region in chapter_regions(solution_dir):
        found.setdefault(region.id, Exercise(region.id, [])).parts.append(region)
    for exercise in found.values():
        numbers = [part.part for part in exercise.parts]
        if numbers != list(range(1, len(numbers) + 1)):
            where = ", ".join(f"{p.path.name}:{p.line}" for p in exercise.parts)
            raise RegionError(f"exercise {exercise.id} has parts {numbers} ({where}); "
                              f"they must be 1 (unnumbered), 2, 3, ... once each")
    return list(found.values())


def counted(path: Path, regions: list[Region]) -> list[Region]:
    """`regions` of `path`, each knowing how many parts its exercise has
    (other parts may be in other files of the chapter's folder)."""
    everywhere = [r for source in sorted(path.parent.glob("*"))
                  if source.suffix in SOURCE_SUFFIXES for r in parse(source)]
    for region in regions:
        region.parts = sum(r.id == region.id for r in everywhere)
    return regions
