#!/usr/bin/env python3
"""The checked "Going further" items: reference solutions kept apart as patches.

A chapter's checked Going-further item has tests in tests/NN-slug/further/
and a reference solution in solutions/NN-slug/further/*.patch: a unified
diff against the chapter's solution, paths relative to its folder. The
build applies the patches to a copy of the solution (build/<preset>/further/
NN-slug) and builds the chapter's library and programs from that copy, so
the reference passes the item's tests while the chapter's own solution,
which does not do the item, fails them.

    tools/further.py apply SRC DEST PATCH...   copy SRC to DEST and apply the patches
    tools/further.py write NN NAME             turn your edits of solutions/NN-slug
                                               (git diff) into further/NAME.patch

Hunks must match exactly (they may have moved up or down); a patch that no
longer applies stops the build and says which hunk and why.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HUNK = re.compile(r"^@@ -(?P<old>\d+)(?:,(?P<old_len>\d+))? \+(?P<new>\d+)(?:,(?P<new_len>\d+))? @@")
ROOT = Path(__file__).resolve().parents[1]


class PatchError(Exception):
    """A patch that does not apply; the message says where."""


def _files(patch: Path) -> list[tuple[str, list[tuple[int, list[str], list[str]]]]]:
    """(path, hunks) for every file of a unified diff; a hunk is (old start,
    old lines, new lines)."""
    found: list[tuple[str, list]] = []
    lines = patch.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            target = lines[i + 1][4:].split("\t")[0]
            if target == "/dev/null":
                raise PatchError(f"{patch.name}: deleting files is not supported")
            target = target[2:] if target.startswith(("a/", "b/")) else target
            found.append((target, []))
            i += 2
            continue
        m = HUNK.match(lines[i])
        if m:
            if not found:
                raise PatchError(f"{patch.name}:{i + 1}: a hunk before any file header")
            old, new = [], []
            i += 1
            while i < len(lines) and not lines[i].startswith(("@@", "--- ", "diff ")):
                line = lines[i]
                if line.startswith("\\"):  # "\ No newline at end of file"
                    i += 1
                    continue
                tag, text = (line[:1], line[1:]) if line else (" ", "")
                if tag in " -":
                    old.append(text)
                if tag in " +":
                    new.append(text)
                i += 1
            found[-1][1].append((int(m["old"]), old, new))
            continue
        i += 1
    return found


def apply(patch: Path, folder: Path) -> None:
    """Applies `patch` to the files of `folder`, in place."""
    for name, hunks in _files(patch):
        path = folder / name
        text = path.read_text().splitlines() if path.exists() else []
        shift = 0
        for number, (start, old, new) in enumerate(hunks, 1):
            at = _find(text, old, max(start - 1 + shift, 0))
            if at < 0:
                raise PatchError(f"{patch.name}: hunk {number} of {name} (at line {start}) no longer "
                                 f"matches the solution; its first line is {old[0] if old else '(none)'!r}")
            text[at:at + len(old)] = new
            shift += len(new) - len(old)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(text) + "\n")


def _find(text: list[str], old: list[str], near: int) -> int:
    """Where `old` occurs in `text`, the occurrence nearest to `near`; -1 if none."""
    if not old:
        return min(near, len(text))
    places = [i for i in range(len(text) - len(old) + 1) if text[i:i + len(old)] == old]
    return min(places, key=lambda i: abs(i - near)) if places else -1


def copy_and_apply(source: Path, dest: Path, patches: list[Path]) -> None:
    """DEST becomes SRC's files (not its further/ folder) with the patches applied."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for path in sorted(source.iterdir()):
        if path.is_file() and path.name != "CMakeLists.txt":
            shutil.copy2(path, dest / path.name)
    for patch in patches:
        apply(patch, dest)


def write(number: str, name: str) -> int:
    """Writes solutions/NN-slug/further/<item>.patch from the uncommitted edits of the
    chapter's solution, then undoes those edits (the patch keeps them)."""
    sys.path.insert(0, str(ROOT / "tools"))
    from course import chapters
    chapter = chapters.find(number)
    folder = chapter.solution_dir.relative_to(ROOT)
    # The patches themselves live under the folder: leave them out of both
    # the diff and the undo, or the undo would throw away the new patch.
    paths = ["--", str(folder), f":(exclude){folder}/further"]
    diff = subprocess.run(["git", "diff", f"--relative={folder}", *paths], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    diff = "".join(line + "\n" for line in diff.splitlines() if not line.startswith("index "))
    if not diff.strip():
        print(f"further: no edits in {folder} to turn into a patch", file=sys.stderr)
        return 1
    target = chapter.solution_dir / "further" / f"{name}.patch"
    target.parent.mkdir(exist_ok=True)
    target.write_text(diff)
    subprocess.run(["git", "checkout", *paths], cwd=ROOT, check=True)
    print(f"wrote {target.relative_to(ROOT)}; {folder} is back as committed")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("apply")
    p.add_argument("source", type=Path)
    p.add_argument("dest", type=Path)
    p.add_argument("patches", type=Path, nargs="+")
    p = sub.add_parser("write")
    p.add_argument("chapter")
    p.add_argument("name", help="the item's name, e.g. idle-timeout")
    args = parser.parse_args()
    try:
        if args.command == "apply":
            copy_and_apply(args.source, args.dest, args.patches)
            return 0
        return write(args.chapter, args.name)
    except PatchError as error:
        print(f"further: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
