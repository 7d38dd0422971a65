"""./course verify: the instructor's proof that the course holds together.

Quick part (no build): exercise regions are well formed, exercises/ is what
the generator writes, every \\snippet and every test's book anchor exists,
every region is shown by one listing of its chapter's page, shell scripts
pass shellcheck, the C++ sources are formatted as .clang-format says,
by the pinned clang-format (FORMATTER), and the tools' own tests pass. Full part: the solutions pass their tests, the book builds
without a warning and hands out no answer in open text (book_check.py), the
pristine exercises fail the tests, and stubbing any single region alone
makes at least one test fail ("teeth").
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import book, book_check, book_text, build, chapters, gtest, packages, regions, results, ui
from .chapters import ROOT

EXPLAINED_IN = re.compile(r'explained_in\(\s*"(?P<anchor>[\w-]+)"\s*\)')


def quick_problems() -> list[str]:
    """Everything that can be checked without compiling, as messages."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for chapter in chapters.coded_chapters():
        try:
            found = regions.exercises(chapter.solution_dir)
        except regions.RegionError as error:
            problems.append(str(error))
            continue
        if not found:
            problems.append(f"chapter {chapter.number} has no exercise regions in solutions/{chapter.slug}")
        for number, exercise in enumerate(found, 1):
            first = exercise.parts[0]
            where = f"{first.path.relative_to(ROOT)}:{first.line}"
            if exercise.chapter != chapter.number:
                problems.append(f"{where}: exercise {exercise.id} is in chapter {chapter.number}'s folder")
            if exercise.id in seen:
                problems.append(f"{where}: exercise id {exercise.id} is also used at {seen[exercise.id]}")
            if exercise.number != str(number):
                problems.append(f"{where}: exercise {exercise.id} should be ch{chapter.number}.{number}: "
                                "a chapter's exercises are numbered 1, 2, 3, ... in the order the book asks for them")
            seen[exercise.id] = where
        if not chapter.page.exists():
            problems.append(f"chapter {chapter.number} has code but no page chapters/{chapter.slug}.md")
        if not chapter.has_tests:
            problems.append(f"chapter {chapter.number} has code but no tests/{chapter.slug}/CMakeLists.txt")
        from_generator = _generator_differences(chapter)
        problems += [f"exercise drift: {line} (run tools/make_exercises.py {chapter.number})"
                     for line in from_generator]
    problems += book.snippet_problems()
    problems += book_check.quick_problems()
    problems += book_text.source_problems()
    problems += results.problems(sorted((ROOT / "chapters").glob("*.md")))
    anchors = book.sections()
    for source in sorted((ROOT / "tests").rglob("*.cpp")):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            for m in EXPLAINED_IN.finditer(line):
                if m["anchor"] not in anchors:
                    problems.append(f"{source.relative_to(ROOT)}:{number}: explained_in(\"{m['anchor']}\") "
                                    "names no section of the book")
    problems += _shellcheck()
    problems += format_problems()
    problems += _tooling_tests()
    return problems


def _tooling_tests() -> list[str]:
    """The course command's own tests (tools/tests): packages, doctor."""
    result = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", "tools/tests", "-q"],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode == 0:
        return []
    return ["tools/tests fail (python3 -m unittest discover -s tools/tests):\n" + result.stderr[-3000:]]


# The clang-format that decides the layout: another major version formats
# some constructs differently, so the check names its own (one that every
# release the course knows can install).
FORMATTER = packages.FORMATTER


def formatted_sources() -> list[Path]:
    """The C++ sources that must be formatted: the solutions, the tests and the
    benchmarks' own code. exercises/ is written from solutions/ by the generator."""
    found = subprocess.run(["git", "ls-files", "--", *[f"{folder}/*.{ext}" for folder in ("solutions", "tests", "bench")
                                                      for ext in ("cpp", "hpp", "ipp", "h")]],
                           cwd=ROOT, capture_output=True, text=True).stdout.split()
    return [ROOT / name for name in found if (ROOT / name).exists()]


def format_problems() -> list[str]:
    """A line per source that FORMATTER would change (or why it cannot check)."""
    if not shutil.which(FORMATTER):
        return [f"{FORMATTER} is missing: the format check needs the Debian package {FORMATTER}"]
    result = subprocess.run([FORMATTER, "--dry-run", "--Werror", *map(str, formatted_sources())],
                            cwd=ROOT, capture_output=True, text=True)
    unformatted = sorted({line.split(":", 1)[0] for line in result.stderr.splitlines()
                          if "code should be clang-formatted" in line})
    relative = [Path(name).relative_to(ROOT) if name.startswith("/") else Path(name) for name in unformatted]
    problems = [f"{name}: not formatted (run: {FORMATTER} -i {name})" for name in relative]
    if result.returncode != 0 and not problems:
        problems.append(f"{FORMATTER} failed: {result.stderr.strip()[:500]}")
    return problems


def _generator_differences(chapter: chapters.Chapter) -> list[str]:
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "tools" / "make_exercises.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.differences(chapter)


def shell_scripts() -> list[Path]:
    """The course's shell scripts: course itself, CI, the tools' and the benchmarks' scripts."""
    scripts = [ROOT / "course", ROOT / ".ci" / "run"]
    for path in sorted((ROOT / "tools").glob("*")) + sorted((ROOT / "bench").rglob("*")):
        if path.is_file() and (path.suffix == ".sh" or _has_shell_shebang(path)):
            scripts.append(path)
    return [s for s in scripts if s.exists()]


def _has_shell_shebang(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and (b"bash" in first or b"/sh" in first)


def _shellcheck() -> list[str]:
    if not shutil.which("shellcheck"):
        return []
    result = subprocess.run(["shellcheck", "-S", "warning", "-f", "gcc", *map(str, shell_scripts())],
                            cwd=ROOT, capture_output=True, text=True)
    return [f"shellcheck: {line}" for line in result.stdout.splitlines() if line.strip()]


class Teeth:
    """A scratch build whose exercise sources are solution copies with chosen
    regions stubbed, used to prove that tests catch every region."""

    def __init__(self, name: str = "teeth", werror: bool = True) -> None:
        self.tree = ROOT / "build" / name
        self.werror = werror  # mutants may leave a variable unused: that is no verdict
        self.scratch = self.tree / "exercises"
        self.build_dir = self.tree / "build"

    def prepare(self, selected: list[chapters.Chapter]) -> None:
        for chapter in chapters.coded_chapters():
            self._write_chapter(chapter, stubbed=set())
        build.configure("dev", build_dir=self.build_dir, extra=[
            f"-DRDV_EXERCISE_ROOT={self.scratch}", "-DRDV_SANITIZE=", "-DCMAKE_BUILD_TYPE=Debug",
            f"-DRDV_WERROR={'ON' if self.werror else 'OFF'}", "-DRDV_BUILD_BOOK=OFF"])
        del selected

    def _write_chapter(self, chapter: chapters.Chapter, stubbed: set[str] | None,
                       replaced: dict[Path, str] | None = None) -> None:
        """Copies the chapter's solution into the scratch tree, stubbing
        `stubbed` (None: every region), and with the texts `replaced` gives
        for some of its files instead of theirs (mutants). Unchanged files keep
        their time stamps."""
        for source in sorted(chapter.solution_dir.rglob("*")):
            if not source.is_file() or source.name == "CMakeLists.txt" or "further" in source.parts:
                continue
            target = self.scratch / chapter.slug / source.relative_to(chapter.solution_dir)
            if replaced and source in replaced:
                text = replaced[source]
            elif source.suffix in regions.SOURCE_SUFFIXES:
                text = regions.render(source, stubbed)
            else:
                text = source.read_text()
            if not target.exists() or target.read_text() != text:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)

    def attempt(self, chapter: chapters.Chapter, stubbed: set[str] | None,
                replaced: dict[Path, str] | None = None, timeout: float = 900) -> tuple[str, gtest.Run | None]:
        """Builds and runs the chapter's exercise tests with `stubbed` regions
        (and `replaced` files, see _write_chapter), for `timeout` seconds at
        most. Returns ("", run) when it built, or (compiler errors, None)."""
        self._write_chapter(chapter, stubbed, replaced)
        try:
            build.build("dev", [chapter.exercise_test_target], build_dir=self.build_dir, quiet=True)
        except build.BuildError as error:
            return str(error), None
        binary = self.build_dir / "tests" / chapter.slug / chapter.exercise_test_target
        return "", gtest.run(binary, f"ch{chapter.number}", timeout=timeout, extra_args=["--gtest_fail_fast"])

    def check(self, chapter: chapters.Chapter) -> list[str]:
        """Problems with the chapter's teeth, as messages; prints progress."""
        problems: list[str] = []
        found = regions.chapter_regions(chapter.solution_dir)  # every part of every exercise
        errors, pristine = self.attempt(chapter, None)
        if errors:
            problems.append(f"ch{chapter.number}: the pristine exercises do not compile warning-free:\n{errors}")
        elif pristine and pristine.passed:
            problems.append(f"ch{chapter.number}: the pristine exercises pass every test")
        else:
            ui.say(f"  {ui.green(ui.PASS)} pristine exercises compile and fail")
        for region in found:  # each part of an exercise on its own
            errors, run = self.attempt(chapter, {regions.key(region)})
            where = f"{region.path.relative_to(ROOT)}:{region.line}"
            if errors:
                problems.append(f"{regions.todo_label(region)} ({where}): stubbing it alone does not compile:\n{errors}")
                ui.say(f"  {ui.red(ui.FAIL)} {regions.todo_label(region)} {region.title}: does not compile when stubbed")
            elif run and run.passed:
                problems.append(f"{regions.todo_label(region)} ({where}): no test fails when only this region is stubbed")
                ui.say(f"  {ui.red(ui.FAIL)} {regions.todo_label(region)} {region.title}: no test catches it")
            else:
                caught = next((t.full_name for t in (run.tests if run else []) if not t.passed), "a crash")
                ui.say(f"  {ui.green(ui.PASS)} {regions.todo_label(region)} {region.title} {ui.dim('— caught by ' + caught)}")
        self._write_chapter(chapter, stubbed=set())
        problems += self._further_is_new(chapter)
        return problems

    def _further_is_new(self, chapter: chapters.Chapter) -> list[str]:
        """The chapter's checked Going-further tests must fail against the
        chapter's own solution: the item asks for something it does not do.
        (That they pass against the item's reference patch, ./course test shows.)"""
        manifest = self.build_dir / "course-manifest.json"
        further = json.loads(manifest.read_text())["chapters"].get(chapter.number, {}).get("further")
        if not further:
            return []
        target = f"{further}_exercise"
        try:
            build.build("dev", [target], build_dir=self.build_dir, quiet=True)
        except build.BuildError:
            ui.say(f"  {ui.green(ui.PASS)} going further: the chapter's solution does not do it "
                   f"{ui.dim('(its tests do not even compile against it)')}")
            return []
        run = gtest.run(self.build_dir / "tests" / chapter.slug / target, f"ch{chapter.number}.further",
                        timeout=900)
        # Each item (its tests, one suite) must ask for something new.
        suites: dict[str, list] = {}
        for t in run.tests:
            suites.setdefault(t.suite, []).append(t)
        idle = sorted(name for name, tests in suites.items() if all(t.passed for t in tests))
        if run.passed or idle:
            ui.say(f"  {ui.red(ui.FAIL)} going further: the chapter's own solution passes the tests of "
                   f"{', '.join(idle) or 'every item'}")
            return [f"ch{chapter.number}: the Going-further tests {', '.join(idle) or ''} pass against the "
                    "chapter's own solution; the item asks for nothing new"]
        failing = sum(not t.passed for t in run.tests)
        ui.say(f"  {ui.green(ui.PASS)} going further: the chapter's solution does not do it "
               f"{ui.dim(f'({failing} of {len(run.tests)} tests fail without the patch)')}")
        return []
