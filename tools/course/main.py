"""./course — the learner's command. Run `./course --help`."""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import (book, book_check, book_text, build, chapters, doctor, gtest, machine, mutants, packages, regions,
               ui, verify)
from .chapters import ROOT

DESCRIPTION = """\
Rendezvous: Erlang-style web servers in C++20, one chapter at a time.

  ./course book              build the book and serve it on http://127.0.0.1:8000
  ./course test [NN]         run the tests against the reference solutions
  ./course test --soak       the long reliability runs (chapter 10's 100,000 rendezvous)
  ./course check NN          check chapter NN's exercises, and again the earlier ones you checked
  ./course check NN --further   ... the chapter's checked Going-further item
  ./course progress          how far you are, chapter by chapter
  ./course watch NN          re-check chapter NN whenever you save a file of it
  ./course hint NN [K]       the hints of chapter NN's exercises, one at a time
  ./course reset NN          restore chapter NN's exercises as they were (asks first)
  ./course run NN [PROG] ... run a chapter's reference program
  ./course bench NN          run a chapter's benchmark side by side with its peers
  ./course verify [--quick]  the instructor's check: teeth, drift, book snippets
  ./course doctor            check this machine: release, packages, limits, ports, kernel
  ./course setup [--bench]   install every package the course needs now (else: on first use)

Every command installs the packages it needs first (apt-get on Debian 12 and
13 and Ubuntu 24.04, with sudo when you are not root), then configures and
builds what it needs. Anywhere else, use the dev container (see the README).
`./course COMMAND --help` says more about each.
"""


# ---------------------------------------------------------------- helpers

def _chapter(number: str) -> chapters.Chapter:
    try:
        return chapters.find(number)
    except LookupError as error:
        ui.error(str(error))
        sys.exit(2)


def _coded(number: str) -> chapters.Chapter:
    chapter = _chapter(number)
    if not chapter.has_code:
        ui.error(f"chapter {chapter.number} ({chapter.title}) is book only: it has no code or exercises")
        sys.exit(2)
    return chapter


def _build_or_exit(preset: str, targets: list[str], what: str) -> None:
    try:
        seconds = build.build(preset, targets)
        ui.step(f"built {what} in {seconds:.1f} s")
    except build.BuildError as error:
        ui.say(ui.red(f"{ui.FAIL} {what} does not build:"))
        ui.say(str(error))
        sys.exit(1)


def _setup(preset: str = "dev", extra_packages: list[str] | None = None, command: str = "") -> None:
    for finding in doctor.warnings_for(command, preset):  # what would fail later, said first
        ui.warn(f"{finding.what}: {finding.detail}\n    fix: {finding.fix}")
    packages.ensure(packages.BUILD + (extra_packages or []))
    try:
        build.configure(preset)
    except build.BuildError as error:
        ui.error(str(error) + "\n./course doctor checks what this machine has of what the course needs.")
        sys.exit(1)


def _test_binary(preset: str, chapter: chapters.Chapter, exercise: bool) -> Path:
    target = chapter.exercise_test_target if exercise else chapter.test_target
    return build.binary_dir(preset) / "tests" / chapter.slug / target


def _behaviours(run: gtest.Run) -> list[tuple[str, bool, gtest.Test]]:
    """One line per behaviour: parameterised instances fold into one."""
    lines: dict[str, tuple[str, bool, gtest.Test]] = {}
    for t in run.tests:
        key = t.behaviour_key
        label = f"{t.suite.split('/')[-1]}: {gtest.sentence(t.name)}"
        if key in lines:
            _, ok, first = lines[key]
            lines[key] = (label, ok and t.passed, first if not first.passed or t.passed else t)
        else:
            lines[key] = (label, t.passed, t)
    return list(lines.values())


def _counts(run: gtest.Run) -> str:
    """"20/23 tests pass", with the skipped ones counted apart: a skip is not a pass."""
    skipped = sum(t.was_skipped for t in run.tests)
    ran = len(run.tests) - skipped
    passed = sum(t.passed and not t.was_skipped for t in run.tests)
    return f"{passed}/{ran} tests pass" + (f", {skipped} skipped here" if skipped else "")


def _explain_stub(run: gtest.Run) -> bool:
    """Names the exercise whose stub the tests reached, and how to get its
    hints; returns whether there was one."""
    stub = gtest.first_stub(run)
    if not stub:
        return False
    number, exercise = stub["id"][2:4], stub["id"].split(".")[1]
    ui.say()
    ui.say(ui.bold(f"The tests reached exercise {stub['id']}, not done yet:"))
    ui.say(f"  {stub['todo'].split(' (hints:')[0]}")
    ui.say(f"  Its hints, one at a time: ./course hint {number} {exercise}")
    return True


def _explain_failure(test: gtest.Test, anchors: dict[str, book.Section]) -> None:
    ui.say()
    ui.say(ui.bold(f"First failure: {test.full_name}"))
    for failure in test.failures[:1]:
        for line in failure.strip().splitlines()[:60]:
            ui.say("  " + line)
    if test.book and test.book in anchors:
        section = anchors[test.book]
        ui.say(f"  Explained in the book: {section.where}")
        page = book.html_dir() / "index.html"
        if page.exists():
            ui.say(f"  ({book.html_dir().relative_to(ROOT)}, section #{section.anchor}; ./course book serves it)")


def _report(run: gtest.Run, title: str, show_behaviours: bool = True) -> bool:
    """Prints a run as behaviour lines; returns whether everything passed."""
    ui.say(ui.bold(title))
    if show_behaviours:
        for label, ok, first in _behaviours(run):
            if ok and first.was_skipped:
                ui.say(f"  {ui.dim(ui.SKIP)} {label} {ui.dim('(skipped: ' + first.skipped + ')')}")
                continue
            mark = ui.green(ui.PASS) if ok else ui.red(ui.FAIL)
            ui.say(f"  {mark} {label}")
    if run.crashed:
        ui.say(ui.red(f"  {ui.FAIL} the tests crashed, or hung and were stopped; the last thing they printed:"))
        for line in gtest.crash_excerpt(run.crashed):
            ui.say("    " + line)
    return run.passed


# ---------------------------------------------------------------- commands

def cmd_test(args: argparse.Namespace) -> int:
    """Runs the tests of every chapter (or one) against the reference solutions."""
    selected = [_coded(args.chapter)] if args.chapter else chapters.coded_chapters()
    _setup(args.preset, command="test")
    # (label for reports, what to call it, test binary)
    if args.soak:  # the chapters' reliability runs, as CMake knows them (SOAK sources)
        known = _manifest(args.preset)["chapters"]
        soaks = {c: known.get(c.number, {}).get("soak") for c in selected}
        suites = [(f"ch{c.number}.soak", f"{c.number} {c.title}: the reliability run",
                   build.binary_dir(args.preset) / "tests" / c.slug / soak)
                  for c, soak in soaks.items() if soak]
        if not suites:
            ui.error("no chapter " + (f"{args.chapter} " if args.chapter else "") + "has a reliability run")
            return 1
    else:
        suites = [(f"ch{c.number}", f"{c.number} {c.title}", _test_binary(args.preset, c, False)) for c in selected]
        known = _manifest(args.preset)["chapters"]
        for c in selected:  # each checked Going-further item, against its reference patch
            if further := known.get(c.number, {}).get("further"):
                at = next(i for i, s in enumerate(suites) if s[0] == f"ch{c.number}") + 1
                suites.insert(at, (f"ch{c.number}.further", f"{c.number} going further (reference patch)",
                                   build.binary_dir(args.preset) / "tests" / c.slug / further))
    if not args.chapter and not args.soak:  # the shared library's own tests
        suites.insert(0, ("common", "the shared library (solutions/common)",
                          build.binary_dir(args.preset) / "tests" / "test_common"))
    _build_or_exit(args.preset, [binary.name for _, _, binary in suites], "the solutions and their tests")
    runs, anchors, all_ok, first_failure = [], book.sections(), True, None
    for label, title, binary in suites:
        run = gtest.run(binary, label, extra_args=args.gtest_args)
        runs.append(run)
        ok = run.passed
        all_ok &= ok
        mark = ui.green(ui.PASS) if ok else ui.red(ui.FAIL)
        ui.say(f"{mark} {title}: {_counts(run)}")
        if run.crashed:
            _report(run, "", show_behaviours=False)
        if not ok:
            first_failure = first_failure or next((t for t in run.tests if not t.passed), None)
    if first_failure:
        _explain_failure(first_failure, anchors)
    if args.junit:
        gtest.write_junit(runs, Path(args.junit))
        ui.step(f"wrote {args.junit}")
    total = sum(len(r.tests) for r in runs)
    ui.say(ui.green(f"All {total} tests pass.") if all_ok else ui.red("Some tests fail."))
    return 0 if all_ok else 1


def check_further(number: str, junit: str | None = None, item: str = "") -> int:
    """Runs the tests of chapter NN's checked Going-further items (or of the
    one whose test suite is `item`) against the learner's code; they stay
    off until asked for."""
    chapter = _coded(number)
    _setup("dev")
    further = _manifest("dev")["chapters"].get(chapter.number, {}).get("further")
    if not further:
        ui.error(f"chapter {chapter.number} has no checked Going-further item")
        return 2
    title = (f"Chapter {chapter.number} · going further — exercises/{chapter.slug} "
             f"(book: {chapter.page.relative_to(ROOT)}, #ch{chapter.number}-further)")
    target = f"{further}_exercise"
    try:
        seconds = build.build("dev", [target])
    except build.BuildError as error:
        ui.say(ui.bold(title) + "\n  " + ui.red(f"{ui.FAIL} your code does not compile with the item's "
                                                   "tests yet (they use what the item adds):"))
        for line in str(error).splitlines():
            ui.say("    " + line)
        return 1
    run = gtest.run(build.binary_dir("dev") / "tests" / chapter.slug / target, f"ch{chapter.number}.further",
                    extra_args=[f"--gtest_filter={item}.*"] if item else None)
    if item and not run.tests:
        ui.error(f"chapter {chapter.number} has no checked item whose tests are {item}.*")
        return 2
    _report(run, title + ui.dim(f"  (built in {seconds:.1f} s)"))
    stub = _explain_stub(run)
    first = next((t for t in run.tests if not t.passed), None)
    if first and not (stub and _stub_only(run)):
        _explain_failure(first, book.sections())
    if junit:
        gtest.write_junit([run], Path(junit))
        ui.step(f"wrote {junit}")
    ui.say()
    ui.say(ui.green("Going further: every behaviour passes.") if run.passed else
           "Not there yet. The reference is the patch in "
           f"solutions/{chapter.slug}/further/ (the book shows it folded).")
    return 0 if run.passed else 1


def check_chapter(number: str, junit: str | None = None) -> int:
    """Runs the learner's exercises of chapter NN in detail; its result is
    the command's. Then the chapters before it, one line each, as progress
    only: each chapter's exercises stand on the *solutions* of the chapters
    before it, so they can be done in any order. An earlier chapter never
    checked is not built for its line, which only says so."""
    target = _coded(number)
    _setup("dev", command="check")
    earlier = [c for c in chapters.coded_chapters() if c.number < target.number]
    # The earlier chapters' tests run meanwhile, beside the chapter's own:
    # most of a test's time is spent waiting (for a server, a timeout), so
    # running them side by side costs the learner the longest, not the sum.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        runs = []
        run = _check_focus(target, lambda: runs.extend((c, pool.submit(_progress_run, c)) for c in earlier))
        if junit:
            gtest.write_junit([run], Path(junit))
            ui.step(f"wrote {junit}")
        unfinished = [c for c, future in runs if not _progress_line(c, future.result())]
    ui.say()
    if not run.passed:
        ui.say(f"Not there yet. `./course hint {target.number}` gives hints; "
               f"`./course watch {target.number}` re-checks on every save.")
    elif unfinished:
        ui.say(ui.green(f"Chapter {target.number}: every behaviour passes.") +
               f" (Your exercises of chapter(s) {', '.join(c.number for c in unfinished)} are still open;"
               " this chapter does not need them.)")
    else:
        ui.say(ui.green(f"Chapter {target.number}: every behaviour passes. On to the next chapter!"))
    return 0 if run.passed else 1


def _check_focus(chapter: chapters.Chapter, start_earlier) -> gtest.Run:
    """Builds and runs chapter NN's exercise tests and reports them in full.
    Once the chapter is built, it calls `start_earlier()`, which sets the
    earlier chapters' runs going beside it."""
    title = f"Chapter {chapter.number} · {chapter.title} — exercises/{chapter.slug}"
    try:
        seconds = build.build("dev", [chapter.exercise_test_target])
    except build.BuildError as error:
        ui.say(ui.bold(title) + "\n  " + ui.red(f"{ui.FAIL} your code does not compile yet"))
        for line in str(error).splitlines():
            ui.say("    " + line)
        start_earlier()
        return gtest.Run(f"ch{chapter.number}", [], crashed="does not compile:\n" + str(error))
    start_earlier()
    run = gtest.run_side_by_side(_test_binary("dev", chapter, True), f"ch{chapter.number}", CHECK_SHARDS)
    _report(run, title + ui.dim(f"  (built in {seconds:.1f} s)"))
    stub = _explain_stub(run)  # a stub reached says most: which exercise, and its hints
    first = next((t for t in run.tests if not t.passed), None)
    if first and not (stub and _stub_only(run)):
        _explain_failure(first, book.sections())
    return run


def _stub_only(run: gtest.Run) -> bool:
    """Whether every failure of `run` is a stub reached (then naming it says all)."""
    return all(gtest.first_stub(gtest.Run("", [t])) for t in run.tests if not t.passed)


_BUILD_LOCK = threading.Lock()
# How many processes run a chapter's own tests in `./course check`.
CHECK_SHARDS = 4


# What _progress_run() gives for a chapter whose exercises were never built.
NOT_CHECKED = "not checked yet"


def _progress_run(chapter: chapters.Chapter) -> gtest.Run | str | None:
    """Runs an earlier chapter's exercise tests, quietly; None if its code
    does not compile, NOT_CHECKED if its tests were never built (a learner
    who starts at a later chapter does not wait for every earlier one to
    build). (Ninja takes a lock on the build directory: the builds of
    chapters run one after another, the tests side by side.)"""
    if not _test_binary("dev", chapter, True).exists():
        return NOT_CHECKED
    with _BUILD_LOCK:
        try:
            build.build("dev", [chapter.exercise_test_target], quiet=True)
        except build.BuildError:
            return None
    return gtest.run(_test_binary("dev", chapter, True), f"ch{chapter.number}")


def _progress_line(chapter: chapters.Chapter, run: gtest.Run | str | None) -> bool:
    """One line on an earlier chapter's exercises; returns whether they pass."""
    if not isinstance(run, gtest.Run):
        why = NOT_CHECKED if run == NOT_CHECKED else "your code does not compile yet"
        ui.say(f"{ui.dim(ui.SKIP)} {chapter.number} {chapter.title}: {why}"
               + ui.dim(f"  (./course check {chapter.number})"))
        return False
    mark = ui.green(ui.PASS) if run.passed else ui.dim(ui.SKIP)
    note = "" if run.passed else ui.dim(f"  (./course check {chapter.number} for details)")
    ui.say(f"{mark} {chapter.number} {chapter.title}: {_counts(run)}{note}")
    return run.passed


def cmd_check(args: argparse.Namespace) -> int:
    """Checks your exercises of chapter NN (and of the chapters before it);
    with --further, the chapter's checked Going-further item instead."""
    if args.further is not None:
        return check_further(args.chapter, args.junit, args.further)
    return check_chapter(args.chapter, args.junit)


def cmd_progress(args: argparse.Namespace) -> int:
    """A table of chapters and how many of their exercise tests pass."""
    _setup("dev")
    ui.say(ui.bold(f"{'chapter':<44} {'tests passing':>14}"))
    for chapter in chapters.coded_chapters():
        name = f"{chapter.number} {chapter.title}"[:43]
        try:
            build.build("dev", [chapter.exercise_test_target], quiet=True)
        except build.BuildError:
            ui.say(f"{name:<44} {'does not compile':>14}")
            continue
        run = gtest.run(_test_binary("dev", chapter, True), f"ch{chapter.number}")
        passed, total = sum(t.passed for t in run.tests), len(run.tests)
        status = ui.green(f"{ui.PASS} done") if run.passed else ("crashed" if run.crashed else "")
        ui.say(f"{name:<44} {passed:>6} / {total:<5} {status}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Re-runs `check NN` every time a file of the chapter's exercises is saved."""
    chapter = _coded(args.chapter)
    packages.ensure(packages.WATCH)
    try:
        while True:
            check_chapter(chapter.number)
            ui.say(ui.dim(f"\nwatching exercises/{chapter.slug} — save a file to check again, Ctrl-C to stop"))
            subprocess.run(["inotifywait", "-qq", "-r", "-e", "close_write,moved_to,create,delete",
                            str(chapter.exercise_dir)], check=False)
            ui.say("\n" + "─" * 60)
    except KeyboardInterrupt:
        ui.say()
        return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """Shows the hints of chapter NN, one at a time, for the first unsolved exercise."""
    chapter = _coded(args.chapter)
    found = regions.exercises(chapter.solution_dir)
    if args.exercise:
        wanted = f"ch{chapter.number}.{args.exercise}"
        chosen = [e for e in found if e.id == wanted]
        if not chosen:
            ui.error(f"chapter {chapter.number} has no exercise {args.exercise} "
                     f"(it has {', '.join(e.number for e in found)})")
            return 2
    else:
        chosen, note = hint_choice(found, [_unsolved(chapter, e) for e in found])
        if note:
            ui.say(ui.dim(note))
    exercise = chosen[0]
    ui.say(ui.bold(f"Exercise {exercise.id}: {exercise.title}"))
    for part in exercise.parts:
        file = chapter.exercise_dir / part.path.relative_to(chapter.solution_dir)
        label = f"part {part.part}: " if len(exercise.parts) > 1 else ""
        ui.say(ui.dim(f"  {label}in {file.relative_to(ROOT)}" + _where_todo(file, part)))
    hints = [(part, hint) for part in exercise.parts for hint in part.hints]
    interactive = sys.stdin.isatty() and not args.all and not args.upto
    shown = hints_shown(len(hints), interactive, args.all, args.upto)
    for number, (part, hint) in enumerate(hints[:shown], 1):
        about = f" (part {part.part})" if len(exercise.parts) > 1 else ""
        if hint == part.hints[0]:  # the stub's comment has it already
            about += ", the one in your TODO"
        ui.say(f"\n  Hint {number}/{len(hints)}{about}: {hint}")
        if interactive and number < len(hints):
            try:
                input(ui.dim("  (Enter for the next hint, Ctrl-C to stop) "))
            except (EOFError, KeyboardInterrupt):
                ui.say()
                return 0
    if shown < len(hints):  # away from a terminal, nothing waits: one more each time asked
        ui.say(ui.dim(f"\n  {len(hints) - shown} more: ./course hint {chapter.number} {exercise.number} "
                      f"--upto {shown + 1} (or --all)"))
    others = [e.id for e in found if e is not exercise]
    if others:
        ui.say(ui.dim(f"\nOther exercises of this chapter: {', '.join(others)} "
                      f"(./course hint {chapter.number} K)"))
    return 0


def hints_shown(total: int, interactive: bool, every: bool, upto: int | None) -> int:
    """How many of `total` hints `hint` shows: up to `upto` when asked, all
    with --all or in a terminal (where each waits for Enter), else the first."""
    if upto:
        return min(upto, total)
    return total if every or interactive else min(1, total)


def hint_choice(found: list, unsolved: list[bool]) -> tuple[list, str]:
    """The exercises `hint` may show, the one to show first, and what to say
    about the others: the unsolved ones (`unsolved` says which of `found`
    still throw their TODO), or every one when none is left."""
    left = [e for e, todo in zip(found, unsolved) if todo]
    if not left:
        return found, (f"(all {len(found)} exercises look done: none throws its TODO any more; "
                       f"showing the first)")
    if len(left) < len(found):
        return left, (f"({len(found) - len(left)} of {len(found)} exercises look done; "
                      f"showing the first that still has its TODO)")
    return left, ""


def _where_todo(file: Path, region: regions.Region) -> str:
    """", line N" of the region's TODO in the learner's file, if it is still there."""
    if file.exists():
        for number, line in enumerate(file.read_text().splitlines(), 1):
            if f"TODO({regions.todo_label(region)})" in line:
                return f", line {number}"
    return ""


def _unsolved(chapter: chapters.Chapter, exercise: regions.Exercise) -> bool:
    """Whether any part of the exercise still throws its stub's rdv::todo."""
    for part in exercise.parts:
        file = chapter.exercise_dir / part.path.relative_to(chapter.solution_dir)
        if file.exists() and f'rdv::todo("{exercise.id}"' in file.read_text():
            return True
    return False


def cmd_reset(args: argparse.Namespace) -> int:
    """Restores chapter NN's exercises to their pristine state, keeping a backup."""
    chapter = _coded(args.chapter)
    if not args.yes:
        if not sys.stdin.isatty():
            ui.error("reset asks before it overwrites your work; run it in a terminal or add --yes")
            return 2
        answer = input(f"Restore exercises/{chapter.slug} to its pristine state? "
                       "Your edits will be moved to a backup. [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            ui.say("Nothing changed.")
            return 0
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = ROOT / ".course-backup" / f"{chapter.slug}-{stamp}"
    if chapter.exercise_dir.exists():
        shutil.copytree(chapter.exercise_dir, backup)
        shutil.rmtree(chapter.exercise_dir)
    generator = [sys.executable, str(ROOT / "tools" / "make_exercises.py"), "--force", chapter.number]
    subprocess.run(generator, cwd=ROOT, check=True, capture_output=True)
    ui.say(f"Restored exercises/{chapter.slug}." + (f" Your previous files are in {backup.relative_to(ROOT)}."
                                                     if backup.exists() else ""))
    return 0


def _manifest(preset: str) -> dict:
    """What CMake wrote about the chapters (course-manifest.json), after
    letting it re-run if a CMake file changed since it last did."""
    subprocess.run(["ninja", "-C", str(build.binary_dir(preset)), "build.ninja"], capture_output=True)
    path = build.binary_dir(preset) / "course-manifest.json"
    return json.loads(path.read_text()) if path.exists() else {"chapters": {}}


def cmd_run(args: argparse.Namespace) -> int:
    """Builds and runs one of chapter NN's programs: the reference solution's,
    or with --exercise (anywhere on the line) the one built from your exercises."""
    chapter = _coded(args.chapter)
    rest = list(args.args)
    if "--exercise" in rest:  # ./course run 01 --exercise ...: no program of the course takes it
        args.exercise = True
        rest = [arg for arg in rest if arg != "--exercise"]
    _setup("dev")
    known = _manifest("dev")["chapters"].get(chapter.number, {})
    programs = known.get("programs", [])
    if not programs:
        ui.error(f"chapter {chapter.number} has no programs")
        return 2
    program = programs[0]
    if rest and rest[0] in programs:
        program = rest.pop(0)
    elif len(programs) > 1 and not (rest and rest[0].startswith("-")):
        ui.say(f"Chapter {chapter.number} has several programs: {', '.join(programs)}; running {program}.")
    # A program named as an earlier chapter's has targets chNN_<program> and lives in bin/chNN.
    target = known.get("target_prefix", "") + program + ("_exercise" if args.exercise else "")
    _build_or_exit("dev", [target], program)
    binary = build.binary_dir("dev") / known.get("bin", "bin") / ("exercise" if args.exercise else "") / program
    ui.step(f"{binary.relative_to(ROOT)} {' '.join(rest)}".rstrip() + "   (Ctrl-C stops it)")
    return _run_program([str(binary), *rest])


def _run_program(argv: list[str]) -> int:
    """Runs one of the course's programs until it ends or Ctrl-C stops it,
    passing its standard error on without the ASan context warning. A
    SIGTERM or SIGHUP sent to this command goes on to the program, which
    stops as it does for its own (else it would be left running, orphaned)."""
    child: subprocess.Popen | None = None

    def forward(number: int, _frame) -> None:
        if child is not None and child.poll() is None:
            child.send_signal(number)

    previous = {number: signal.signal(number, forward) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, errors="replace") as child:
            try:
                for line in child.stderr:
                    if gtest.ASAN_CONTEXT_WARNING not in line:
                        sys.stderr.write(line)
                        sys.stderr.flush()
                return child.wait()
            except KeyboardInterrupt:  # from a terminal the program got the SIGINT too
                child.terminate()      # and if not (a signal sent to us alone), it stops now
                child.wait()
                return 0
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def cmd_bench(args: argparse.Namespace) -> int:
    """Builds in Release and runs chapter NN's benchmark next to its peers."""
    chapter = _chapter(args.chapter)
    script = chapter.bench_dir / "run"
    if not script.exists():
        ui.error(f"chapter {chapter.number} has no benchmark (no bench/{chapter.slug}/run)")
        return 2
    _setup("release", packages.BENCH)
    packages.ensure_optional(packages.perf(), packages.WITHOUT_PERF)
    _build_or_exit("release", ["all"], "the release build")
    env = dict(os.environ, RDV_ROOT=str(ROOT), RDV_BUILD=str(build.binary_dir("release")))
    return subprocess.run([str(script), *args.args], cwd=ROOT, env=env).returncode


def cmd_book(args: argparse.Namespace) -> int:
    """Builds the book and chapter 8's static-server (nothing else: the rest
    builds when a command needs it), then serves the book on http://127.0.0.1:8000."""
    host, _, port = args.listen.rpartition(":")
    if not args.no_serve and not machine.can_listen(host, int(port)):  # say so now, not after the build
        ui.error(machine.port_in_use_message(host, int(port), "./course book --listen {listen}"))
        return 1
    _setup("dev", packages.BOOK, command="book")
    if args.no_serve:
        _build_or_exit("dev", ["book"], "the book")
    else:  # one build, so that Doxygen writes the book while the compiler works
        _build_or_exit("dev", ["book", "static-server"], "the book and chapter 8's static-server")
    index = book.html_dir() / "index.html"
    server = build.binary_dir("dev") / "bin" / "static-server"
    if args.no_serve or not server.exists():
        ui.say(f"The book is at {index}")
        ui.say(f"Open it with a browser: file://{index}")
        return 0
    shown = args.listen.replace("0.0.0.0:", "127.0.0.1:")  # every interface: this one too, and a forwarded port
    ui.say(f"Serving the book with chapter 8's static-server: http://{shown}/  (Ctrl-C stops it)")
    return _run_program([str(server), "--root", str(book.html_dir()), "--listen", args.listen])


def _verify_mutants(selected: list[chapters.Chapter], kinds: tuple[str, ...], started: float) -> int:
    """./course verify --mutants: the report of mutants.py, chapter by chapter."""
    unknown = sorted(set(kinds) - set(mutants.KINDS))
    if unknown:
        ui.say(ui.red(f"--mutants: no kind {', '.join(unknown)} (there are {', '.join(mutants.KINDS)})"))
        return 2
    scratch = verify.Teeth("mutants", werror=False)
    scratch.prepare(selected)
    survivors: list[str] = []
    for chapter in selected:
        ui.say(ui.bold(f"\nMutants of chapter {chapter.number}: the exercises' code changed one line at a time"))
        try:
            survivors += mutants.check(scratch, chapter, kinds)
        except mutants.Unverifiable as error:
            ui.say(f"  {ui.red(ui.FAIL)} {error}")
            return 1
    minutes = (time.monotonic() - started) / 60
    ui.say()
    if survivors:
        ui.say(ui.bold(f"{len(survivors)} mutant(s) passed every test ({minutes:.1f} min). For each, "
                       "either a test is missing or the change makes no difference; read it:"))
        for survivor in survivors:
            ui.say(f"  - {survivor}")
    else:
        ui.say(ui.green(f"every mutant was caught ({minutes:.1f} min)."))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """The instructor's check of the whole course."""
    started = time.monotonic()
    ui.say(ui.bold("Quick checks: regions, exercise drift, snippets, book anchors, shellcheck, formatting"))
    problems = verify.quick_problems()
    for problem in problems:
        ui.say(f"  {ui.red(ui.FAIL)} {problem}")
    if not problems:
        ui.say(f"  {ui.green(ui.PASS)} all hold")
    if args.quick:
        ui.say(ui.dim(f"({time.monotonic() - started:.1f} s)"))
        return 1 if problems else 0
    packages.ensure(packages.BUILD + packages.BOOK + packages.VERIFY)
    selected = [_coded(args.chapter)] if args.chapter else chapters.coded_chapters()
    if args.mutants:
        return _verify_mutants(selected, tuple(args.mutants.split(",")), started)
    if "tests" not in args.skip:
        ui.say(ui.bold("\nThe solutions pass their tests"))
        status = cmd_test(argparse.Namespace(chapter=args.chapter, preset="dev", junit=None, soak=False,
                                             gtest_args=[]))
        if status != 0:
            problems.append("the solutions do not pass their tests")
    if not args.chapter and "book" not in args.skip:
        ui.say(ui.bold("\nThe book builds without a warning"))
        try:
            build.configure("dev")
            build.build("dev", ["book"])
            ui.say(f"  {ui.green(ui.PASS)} {book.html_dir().relative_to(ROOT)}/index.html")
            ui.say(ui.bold("\nThe book shows every exercise's stub and keeps its answer folded"))
            found, looked_for = book_check.built_problems(book.html_dir())
            pages = sorted((ROOT / "chapters").glob("*.md"))
            found += book_text.html_problems(book.html_dir(), book_text.section_anchors(pages))
            for problem in found:
                ui.say(f"  {ui.red(ui.FAIL)} {problem}")
            if not found:
                ui.say(f"  {ui.green(ui.PASS)} every exercise has its box; none of {looked_for} "
                       "lines of the reference solutions is in open text; no Doxygen command or "
                       "anchor is left in the text")
            problems += found
        except build.BuildError as error:
            problems.append("the book does not build:\n" + str(error))
            ui.say(f"  {ui.red(ui.FAIL)} the book does not build:\n{error}")
    teeth = verify.Teeth()
    teeth.prepare(selected)
    for chapter in selected:
        ui.say(ui.bold(f"\nTeeth of chapter {chapter.number}: every exercise region is caught by a test"))
        problems += teeth.check(chapter)
    ui.say()
    minutes = (time.monotonic() - started) / 60
    if problems:
        ui.say(ui.red(f"verify found {len(problems)} problem(s) in {minutes:.1f} min:"))
        for problem in problems:
            ui.say(f"  - {problem.splitlines()[0]}")
        return 1
    ui.say(ui.green(f"verify: everything holds ({minutes:.1f} min)."))
    return 0


def cmd_setup(args: argparse.Namespace) -> int:
    """Installs now every package the course's commands would install when
    first run (with --bench, the benchmarks' peers too), and nothing else:
    for a machine that will be offline later, or a container image."""
    wanted = packages.BUILD + packages.BOOK + packages.VERIFY + packages.WATCH
    packages.ensure(wanted + (packages.BENCH if args.bench else []))
    if args.bench:
        packages.ensure_optional(packages.perf(), packages.WITHOUT_PERF)
    names, _ = packages.resolve(wanted)
    ui.say(ui.green(f"{ui.PASS} the {len(names)} packages of ./course test, book, check, watch and verify "
                    "are installed" + (", and the benchmarks' peers" if args.bench else "")))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Checks what this machine has of what the course needs, and says how to
    fix what is missing: the release, the packages, the compilers, disk space,
    `ulimit -n`, the ports the course listens on, and the kernel's features.
    It installs and changes nothing."""
    return doctor.run(args.listen)


# ---------------------------------------------------------------- parser

def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="course", description=DESCRIPTION,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--verbose", action="store_true", help="show every build command and its output")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, handler, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=handler.__doc__)
        p.add_argument("--verbose", action="store_true", default=argparse.SUPPRESS,
                       help="show every build command and its output")
        p.set_defaults(handler=handler)
        return p

    p = command("test", cmd_test, "run the tests against the reference solutions")
    p.add_argument("chapter", nargs="?", help="only this chapter (default: all)")
    p.add_argument("--junit", metavar="FILE", help="also write JUnit XML for an autograder")
    p.add_argument("--preset", default="dev", choices=["dev", "asan", "tsan", "release"],
                   help="which build to test (default: dev, with ASan and UBSan)")
    p.add_argument("--soak", action="store_true",
                   help="run the long reliability runs instead (chapter 10: 100,000 rendezvous)")
    p.add_argument("gtest_args", nargs="*", metavar="-- GTEST_ARGS", help=argparse.SUPPRESS)

    p = command("check", cmd_check, "check your exercises of chapter NN")
    p.add_argument("chapter", help="chapter number, e.g. 01")
    p.add_argument("--further", nargs="?", const="", metavar="ITEM",
                   help="check the chapter's checked Going-further items instead (their tests are off "
                        "otherwise); ITEM, e.g. OldestHold, only the one whose tests are named so")
    p.add_argument("--junit", metavar="FILE", help="also write JUnit XML for an autograder")

    command("progress", cmd_progress, "how many exercise tests pass, chapter by chapter")

    p = command("watch", cmd_watch, "re-check chapter NN whenever you save one of its files")
    p.add_argument("chapter")

    p = command("hint", cmd_hint, "the hints of chapter NN, one at a time")
    p.add_argument("chapter")
    p.add_argument("exercise", nargs="?", help="which exercise (K of chNN.K); default: the first unsolved")
    p.add_argument("--all", action="store_true", help="print every hint without waiting")
    p.add_argument("--upto", type=int, metavar="N",
                   help="print hints 1 to N without waiting (away from a terminal: 1 unless asked)")

    p = command("reset", cmd_reset, "restore chapter NN's pristine exercises (asks first)")
    p.add_argument("chapter")
    p.add_argument("--yes", action="store_true", help="do not ask")

    p = command("run", cmd_run, "run a chapter's reference program")
    p.add_argument("chapter")
    p.add_argument("--exercise", action="store_true", help="run the program built from your exercises")
    p.add_argument("args", nargs=argparse.REMAINDER, help="[PROGRAM] [ARGS...] passed to the program")

    p = command("bench", cmd_bench, "run a chapter's benchmark next to its peers")
    p.add_argument("chapter")
    p.add_argument("args", nargs=argparse.REMAINDER, help="passed to bench/NN-slug/run (try --help)")

    p = command("book", cmd_book, "build the book and serve it")
    p.add_argument("--listen", default=doctor.BOOK_LISTEN,
                   help=f"where to serve it (default {doctor.BOOK_LISTEN}; the dev container sets "
                   f"{doctor.BOOK_LISTEN_VARIABLE}=0.0.0.0:8000, so that the host can reach it)")
    p.add_argument("--no-serve", action="store_true", help="build it and print where it is")

    p = command("setup", cmd_setup, "install every package the course needs, now")
    p.add_argument("--bench", action="store_true", help="also the benchmarks' peers and load generators")

    p = command("doctor", cmd_doctor, "check this machine, and say how to fix what is missing")
    p.add_argument("--listen", default=doctor.BOOK_LISTEN, help="where you will serve the book (default "
                   f"{doctor.BOOK_LISTEN})")

    p = command("verify", cmd_verify, "the instructor's check: teeth, drift, book snippets")
    p.add_argument("chapter", nargs="?", help="only this chapter's tests and teeth")
    p.add_argument("--quick", action="store_true", help="only the checks that need no build (seconds)")
    p.add_argument("--mutants", nargs="?", const=",".join(mutants.KINDS), metavar="KINDS",
                   help="instead of the full check, report the one-line changes to the exercises' code "
                        "that no test catches (hours for every chapter; KINDS: "
                        f"{','.join(mutants.KINDS)}, all by default)")
    p.add_argument("--skip", action="append", default=[], choices=["book", "tests"],
                   help="skip a part (CI skips 'tests' right after running ./course test)")
    return top


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "command", None):
        parser().print_help()
        return 0
    build.VERBOSE = bool(getattr(args, "verbose", False))
    if args.command != "doctor":  # the doctor reports the limit as the shell has it
        machine.raise_open_files()  # Debian's soft limit, 1024, is too few for the tests of chapter 7
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
