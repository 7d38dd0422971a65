"""Configuring and building with CMake presets, quietly unless asked."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from . import ui
from .chapters import ROOT

VERBOSE = False
NINJA_LINE = re.compile(r"^\[(\d+)/(\d+)\] (.*)$")


class BuildError(Exception):
    """The build failed; the message holds the compiler's words."""


def binary_dir(preset: str) -> Path:
    return ROOT / "build" / preset


def _cache_options() -> list[str]:
    """Extra cache variables from the environment (CI sets RDV_WERROR=ON)."""
    options = []
    for name in ("RDV_WERROR",):
        if os.environ.get(name):
            options.append(f"-D{name}={os.environ[name]}")
    return options


def cache_differs(where: Path, options: list[str]) -> bool:
    """Whether the build in `where` holds other values than `options`
    (-DNAME=VALUE) ask for: RDV_WERROR=ON set for a build made without it."""
    try:
        cache = (where / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return True
    for option in options:
        name, _, value = option.removeprefix("-D").partition("=")
        held = re.search(rf"^{re.escape(name)}(?::\w+)?=(.*)$", cache, re.MULTILINE)
        if not held or held[1] != value:
            return True
    return False


def configure(preset: str, extra: list[str] | None = None, build_dir: Path | None = None) -> Path:
    """Configures `preset` once, and again if the environment asks for other
    cache values; CMake itself re-runs when the CMake files change."""
    where = build_dir or binary_dir(preset)
    if (where / "build.ninja").exists() and not extra and not cache_differs(where, _cache_options()):
        return where
    ui.step(f"configuring {where.relative_to(ROOT)} (CMake preset {preset}"
            + (", with " + " ".join(extra) if extra else "") + ")")
    command = ["cmake", "--preset", preset, *_cache_options(), *(extra or [])]
    if build_dir:
        command += ["-B", str(build_dir)]
    result = subprocess.run(command, cwd=ROOT, capture_output=not VERBOSE, text=True)
    if result.returncode != 0:
        raise BuildError("cmake could not configure the build:\n" + (result.stdout or "") + (result.stderr or ""))
    return where


SOURCE_FOLDERS = ("exercises", "solutions", "tests", "bench")


def _saved_since(moment: float) -> list[Path]:
    """The sources saved after `moment` (seconds since the epoch)."""
    return [path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob("*")
            if path.is_file() and path.stat().st_mtime > moment]


def build(preset: str, targets: list[str], build_dir: Path | None = None, quiet: bool = False) -> float:
    """Builds `targets`; shows one progress line; returns the seconds it took.

    A file saved while its object was being compiled looks older than that
    object, and Ninja (before 1.12) would not compile it again: so such files
    are touched afterwards and the build runs once more."""
    started = time.monotonic()
    for _ in range(3):
        began = time.time()
        _build_once(preset, targets, build_dir, quiet)
        saved = _saved_since(began)
        if not saved:
            break
        now = time.time()
        for path in saved:
            os.utime(path, (now, now))
    return time.monotonic() - started


def _build_once(preset: str, targets: list[str], build_dir: Path | None, quiet: bool) -> float:
    where = build_dir or configure(preset)
    command = ["cmake", "--build", str(where), "--target", *targets]
    started = time.monotonic()
    if VERBOSE:
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            raise BuildError("the build failed (see above)")
        return time.monotonic() - started
    progress = ui.Progress()
    log: list[str] = []
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
    assert process.stdout is not None
    for line in process.stdout:
        line = line.rstrip("\n")
        if m := NINJA_LINE.match(line):
            if not quiet:
                what = m[3].split("/")[-1]
                progress.update(f"  building [{m[1]}/{m[2]}] {what}")
        elif not line.startswith("ninja: "):
            log.append(line)
    status = process.wait()
    progress.clear()
    if status != 0:
        raise BuildError(_compiler_errors(log))
    return time.monotonic() - started


def _compiler_errors(log: list[str]) -> str:
    """The compiler's own words, without the build tool's noise, first error first."""
    kept = [line for line in log if not line.startswith(("FAILED:", "/usr/bin/c++", "/usr/bin/ccache"))
            and "ccache" not in line.split(" ")[0]]
    text = "\n".join(kept).strip()
    first = text.find("error:")
    if first > 2000:  # start near the first error, not in pages of warnings
        text = text[text.rfind("\n", 0, first - 1500) + 1:]
    lines = text.splitlines()
    if len(lines) > 60:
        lines = lines[:60] + [f"... ({len(lines) - 60} more lines; run with --verbose for everything)"]
    return "\n".join(lines)


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Runs a command from the repository root, echoing it when verbose."""
    if VERBOSE:
        print("+ " + " ".join(command), file=sys.stderr)
    return subprocess.run(command, cwd=ROOT, **kwargs)
