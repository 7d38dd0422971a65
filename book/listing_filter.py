#!/usr/bin/env python3
"""Doxygen input filter for the sources the book shows (FILTER_PATTERNS).

A listing in the book must not hand a learner the answer on the way to an
exercise. So the book sees every solution file the way the learner's copy
has it: each exercise region replaced by its stub (the TODO line, the first
hint and the throw), written by the same function that writes exercises/,
so that the book and the exercises cannot drift apart.

The reference code of each region is appended after the file, in an
`#if 0` block that Doxygen's parser skips, between snippet markers named
`solution-chNN-K`. The chapter pages show it only inside a fold the reader
opens (book/page_filter.py writes those folds).
"""

import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from course import regions  # noqa: E402


def main() -> None:
    path = Path(sys.argv[1])
    text = path.read_text(encoding="utf-8")
    found = regions.parse(path, text.splitlines())
    sys.stdout.write(regions.render(path) if found else text)
    if found:
        lines = text.splitlines()
        sys.stdout.write("\n#if 0  // the reference solutions of this file's exercises, for the book\n")
        for region in found:
            marker = f"// [{regions.solution_snippet(region)}]"
            sys.stdout.write(marker + "\n")
            code = textwrap.dedent("\n".join(regions.solution_lines(region, lines)))
            sys.stdout.write(code + "\n")
            sys.stdout.write(marker + "\n")
        sys.stdout.write("#endif\n")


if __name__ == "__main__":
    main()
