"""Calm terminal output: marks, colours when the terminal has them, one
progress line that rewrites itself."""

from __future__ import annotations

import os
import sys
import time

_COLOUR = sys.stdout.isatty() and os.environ.get("NO_COLOR") is None and os.environ.get("TERM") != "dumb"
PASS = "✓"
FAIL = "✗"
SKIP = "–"


def _paint(code: str, text: str) -> str:
    return f"\033[{code}m{text}\033[0m" if _COLOUR else text


def green(text: str) -> str:
    return _paint("32", text)


def red(text: str) -> str:
    return _paint("31", text)


def bold(text: str) -> str:
    return _paint("1", text)


def dim(text: str) -> str:
    return _paint("2", text)


def say(text: str = "") -> None:
    print(text, flush=True)


def step(text: str) -> None:
    """A line saying what the course is doing now."""
    say(dim("· " + text))


def warn(text: str) -> None:
    print(red("course: ") + "warning: " + text, file=sys.stderr, flush=True)


def error(text: str) -> None:
    print(red("course: ") + text, file=sys.stderr, flush=True)


class Progress:
    """A single status line, rewritten in place on a terminal. Elsewhere (a
    log, a pipe) it writes the line as it is at most once every `every`
    seconds, so that a long first build does not look like a hang."""

    def __init__(self, every: float = 60.0, clock=time.monotonic) -> None:
        self.live = sys.stdout.isatty()
        self.width = 0
        self.every = every
        self.clock = clock
        self.last = clock()

    def update(self, text: str) -> None:
        if not self.live:
            if self.clock() - self.last >= self.every:
                self.last = self.clock()
                print(text.strip(), flush=True)
            return
        columns = os.get_terminal_size().columns if self.live else 80
        text = text[: max(10, columns - 1)]
        sys.stdout.write("\r" + text + " " * max(0, self.width - len(text)))
        sys.stdout.flush()
        self.width = len(text)

    def clear(self) -> None:
        if self.live and self.width:
            sys.stdout.write("\r" + " " * self.width + "\r")
            sys.stdout.flush()
        self.width = 0
