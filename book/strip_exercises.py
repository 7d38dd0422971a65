#!/usr/bin/env python3
"""Doxygen input filter for the sources the book shows (FILTER_PATTERNS).

The solutions carry exercise markers (EXERCISE, HINT, STUB and END EXERCISE
comments; see tools/course/regions.py) for the exercise generator. The book
shows the code without them: a listing is the solution as a reader should
see it. Every other line passes through unchanged.
"""

import re
import sys

MARKER = re.compile(r"^\s*// (EXERCISE ch\d\d\.\d+:|HINT:|STUB:|END EXERCISE)")
CONTINUATION = re.compile(r"^\s*//\s{2,}\S")


def main() -> None:
    in_header = False
    with open(sys.argv[1], encoding="utf-8") as source:
        for line in source:
            if MARKER.match(line):
                in_header = not line.lstrip().startswith("// END EXERCISE")
                continue
            if in_header and CONTINUATION.match(line):
                continue
            in_header = False
            sys.stdout.write(line)


if __name__ == "__main__":
    main()
