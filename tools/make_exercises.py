#!/usr/bin/env python3
"""Writes exercises/NN-slug from solutions/NN-slug, replacing each marked
exercise region with a stub (see tools/course/regions.py for the markers).

    tools/make_exercises.py            regenerate every chapter's exercises
    tools/make_exercises.py 03 04      only these chapters
    tools/make_exercises.py --check    write nothing; exit 1 if exercises/ differs

It never overwrites a learner's edits: a file is rewritten only if it is
missing or still what git has committed, unless --force is given.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from course import chapters, regions  # noqa: E402

SKIP = {"CMakeLists.txt"}
SKIP_FOLDERS = {"further"}  # the going-further reference patches stay with the solutions


def expected_files(chapter: chapters.Chapter) -> dict[Path, str]:
    """What exercises/NN-slug should contain: relative path -> text."""
    files: dict[Path, str] = {}
    for path in sorted(chapter.solution_dir.rglob("*")):
        relative = path.relative_to(chapter.solution_dir)
        if not path.is_file() or path.name in SKIP or relative.parts[0] in SKIP_FOLDERS:
            continue
        if path.suffix in regions.SOURCE_SUFFIXES:
            files[relative] = regions.render(path)
        else:
            files[relative] = path.read_text()
    return files


def differences(chapter: chapters.Chapter) -> list[str]:
    """How the committed exercise copy differs from what the generator writes."""
    found = []
    want = expected_files(chapter)
    for relative, text in want.items():
        target = chapter.exercise_dir / relative
        if not target.exists():
            found.append(f"missing: exercises/{chapter.slug}/{relative}")
        elif target.read_text() != text:
            found.append(f"differs: exercises/{chapter.slug}/{relative}")
    if chapter.exercise_dir.exists():
        for path in sorted(chapter.exercise_dir.rglob("*")):
            if path.is_file() and path.relative_to(chapter.exercise_dir) not in want:
                found.append(f"extra:   exercises/{chapter.slug}/{path.relative_to(chapter.exercise_dir)}")
    return found


def committed(path: Path) -> str | None:
    """The text git has committed for `path`, or None."""
    try:
        rel = path.relative_to(chapters.ROOT)
        return subprocess.run(["git", "show", f"HEAD:{rel}"], cwd=chapters.ROOT, check=True,
                              capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError, ValueError):
        return None


def write(chapter: chapters.Chapter, force: bool) -> list[str]:
    """Writes the chapter's exercises; returns the files it refused to touch."""
    refused = []
    for relative, text in expected_files(chapter).items():
        target = chapter.exercise_dir / relative
        if target.exists():
            current = target.read_text()
            if current == text:
                continue
            if not force and current != committed(target):
                refused.append(str(target.relative_to(chapters.ROOT)))
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"wrote {target.relative_to(chapters.ROOT)}")
    return refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapters", nargs="*", help="chapter numbers (default: all)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on any difference")
    parser.add_argument("--force", action="store_true", help="overwrite files even if edited")
    args = parser.parse_args()
    try:
        selected = [chapters.find(n) for n in args.chapters] or chapters.coded_chapters()
        status = 0
        for chapter in selected:
            if args.check:
                for line in differences(chapter):
                    print(line)
                    status = 1
            else:
                for path in write(chapter, args.force):
                    print(f"kept {path}: it has edits that git has not committed (use --force)")
                    status = 1
        return status
    except (LookupError, regions.RegionError) as error:
        print(f"make_exercises: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
