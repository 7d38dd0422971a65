"""Running GoogleTest binaries and reading what they say."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

PARAM_SUFFIX = re.compile(r"/\d+$")
WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@dataclasses.dataclass
class Test:
    suite: str          # "KeepAlive", "Heads/KeepsAlive"
    name: str           # "ServesManyRequestsOnOneConnection", "Follows.../3"
    passed: bool
    failures: list[str]
    book: str           # anchor of the section that explains it, or ""
    seconds: float
    skipped: str = ""   # why the test did not run here (GTEST_SKIP's message), if it did not

    @property
    def was_skipped(self) -> bool:
        return self.skipped != ""

    @property
    def full_name(self) -> str:
        return f"{self.suite}.{self.name}"

    @property
    def behaviour_key(self) -> str:
        """Parameterised instances of one test share a behaviour."""
        return PARAM_SUFFIX.sub("", self.full_name)


@dataclasses.dataclass
class Run:
    label: str                # "ch01", "ch01 (exercise)"
    tests: list[Test]
    crashed: str = ""         # the tail of the output when the binary died
    output: str = ""

    @property
    def passed(self) -> bool:
        return not self.crashed and bool(self.tests) and all(t.passed for t in self.tests)


def sentence(test_name: str) -> str:
    """ServesManyRequestsOnOneConnection -> "serves many requests on one connection"."""
    words = WORD.findall(PARAM_SUFFIX.sub("", test_name))
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    text = re.sub(r"\bhttp (\d)(\d)\b", r"HTTP/\1.\2", text)
    text = re.sub(r"\brfc (\d+)\b", r"RFC \1", text)
    # Names whose digits belong to them: Ipv6, Openat2, Sha256, Utf8.
    text = re.sub(r"\b(ipv|openat|sha|utf) (\d+)\b", r"\1\2", text)
    return text.replace("ipv6", "IPv6")


def run(binary: Path, label: str, timeout: float = 1800, extra_args: list[str] | None = None,
        env: dict | None = None) -> Run:
    """Runs one test binary and returns its tests, crash or not."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = [str(binary), f"--gtest_output=json:{report}", "--gtest_color=no", *(extra_args or [])]
        run_env = dict(os.environ, **(env or {}))
        try:
            result = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                    timeout=timeout, env=run_env)
            output, status = result.stdout + result.stderr, result.returncode
        except subprocess.TimeoutExpired as expired:
            out = expired.stdout or b""
            output = out.decode(errors="replace") if isinstance(out, bytes) else out
            status = -1
            output += f"\n(the tests were stopped after {timeout:.0f} s)"
        tests = _read_report(report, output) if report.exists() else _read_output(output)
        crashed = ""
        if not report.exists() or status < 0 or (status != 0 and all(t.passed for t in tests)):
            crashed = _crash_summary(output)
        return Run(label, tests, crashed, output)


def run_side_by_side(binary: Path, label: str, shards: int) -> Run:
    """Runs one test binary as `shards` processes at once, each with its
    share of the tests (GoogleTest's sharding), and returns them as one run,
    in the binary's own order. For a learner's check: the tests of a
    chapter mostly wait (for a program to start, a timeout to pass), so they
    take a fraction of the time side by side. Every test must use its own
    ports and files, as every test here does."""
    if shards < 2:
        return run(binary, label)
    listed = subprocess.run([str(binary), "--gtest_list_tests"], capture_output=True, text=True,
                            errors="replace", timeout=60)
    order = {name: i for i, name in enumerate(_listed_names(listed.stdout))}
    with concurrent.futures.ThreadPoolExecutor(max_workers=shards) as pool:
        parts = list(pool.map(lambda i: run(binary, label, env={"GTEST_TOTAL_SHARDS": str(shards),
                                                                 "GTEST_SHARD_INDEX": str(i)}),
                              range(shards)))
    tests = sorted((t for part in parts for t in part.tests), key=lambda t: order.get(t.full_name, len(order)))
    crashed = "\n".join(part.crashed for part in parts if part.crashed)
    return Run(label, tests, crashed, "\n".join(part.output for part in parts))


def _listed_names(listing: str) -> list[str]:
    """Test names in the order of --gtest_list_tests ("Suite." lines, then
    indented names, each maybe followed by a comment)."""
    names, suite = [], ""
    for line in listing.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def _read_report(report: Path, output: str) -> list[Test]:
    data = json.loads(report.read_text())
    tests = []
    for suite in data.get("testsuites", []):
        for case in suite.get("testsuite", []):
            if case.get("result") == "SUPPRESSED" or case.get("status") == "NOTRUN":
                continue
            failures = [_as_utf8(f.get("failure", "")) for f in case.get("failures", [])]
            seconds = float(str(case.get("time", "0s")).rstrip("s") or 0)
            skipped = ""
            if case.get("result") == "SKIPPED" and not failures:
                skipped = skip_reason(output, f"{suite['name']}.{case['name']}") or "skipped"
            tests.append(Test(suite["name"], case["name"], not failures, failures,
                              str(case.get("book", "")), seconds, skipped))
    return tests


def _as_utf8(text: str) -> str:
    """A message of GoogleTest's JSON report, whose escapes give each byte
    of UTF-8 as a character of its own ("×" comes as "\u00c3\u0097"), as
    the text it was."""
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def skip_reason(output: str, full_name: str) -> str:
    """GTEST_SKIP()'s message for `full_name`, from the test's own output
    (the JSON report of GoogleTest 1.12 does not carry it)."""
    start = output.find(f"[ RUN      ] {full_name}\n")
    end = output.find(f"[  SKIPPED ] {full_name}", start)
    if start < 0 or end < 0:
        return ""
    lines = output[start:end].splitlines()[1:]
    for number, line in enumerate(lines):
        if line.rstrip().endswith(": Skipped"):
            return " ".join(part.strip() for part in lines[number + 1:] if part.strip())
    return ""


# A stub's rdv::todo, as thrown ("TODO(ch01.1): ...") or as the test support
# reports one a server or a program reached ("... not done yet: TODO(ch10.3, part 2 of 2): ...").
# It ends at the end of the line, a quote, or a backslash: a program's output
# that GoogleTest prints as a string has its newline escaped ("...lap\n").
TODO_REACHED = re.compile(r"(?P<todo>TODO\((?P<id>ch\d\d\.\d+)[^)]*\):[^\n\"\\]*)")


def first_stub(run: "Run") -> re.Match | None:
    """The first exercise stub the tests of `run` reached, as the test support reports it."""
    texts = [f for t in run.tests if not t.passed for f in t.failures] + [run.crashed]
    for text in texts:
        if m := TODO_REACHED.search(text or ""):
            return m
    return None


# A test GoogleTest finished, as its output says: "[       OK ] Suite.Name (3 ms)".
_ENDED = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+)\.(\S+) \((\d+) ms\)$", re.M)


def _read_output(output: str) -> list[Test]:
    """The tests that ended before the binary died without its report: what
    they printed between their RUN and their end is their failure."""
    tests = []
    for ended in _ENDED.finditer(output):
        result, suite, name, ms = ended.groups()
        started = output.rfind(f"[ RUN      ] {suite}.{name}\n", 0, ended.start())
        printed = output[started:ended.start()].split("\n", 1)[-1].strip() if started >= 0 else ""
        skipped = (skip_reason(output, f"{suite}.{name}") or "skipped") if result == "SKIPPED" else ""
        tests.append(Test(suite, name, result != "FAILED", [printed] if result == "FAILED" else [],
                          "", int(ms) / 1000, skipped))
    last = re.findall(r"^\[ RUN      \] (\S+)\.(\S+)$", output, re.M)
    if last and not any((t.suite, t.name) == last[-1] for t in tests):
        tests.append(Test(*last[-1], False, ["it did not end: the tests crashed, or hung and were "
                                             "stopped, while it ran (what they printed is above)"], "", 0))
    return tests


def _crash_summary(output: str) -> str:
    """What the binary printed last, from the test it was running when it died."""
    started = output.rfind("[ RUN      ]")
    tail = output[started:] if started >= 0 else output
    lines = tail.strip().splitlines()
    return "\n".join(lines[:400]) if lines else "(no output)"


# Where a sanitizer's report of an error begins.
_SANITIZER_REPORT = re.compile(r"^(==\d+==ERROR: |WARNING: ThreadSanitizer|SUMMARY: \w+Sanitizer|"
                               r"\S+:\d+:\d+: runtime error: )")
# What AddressSanitizer says once per program that switches contexts, as
# every process of chapters 3-10 does; the dev build passes BOOST_USE_ASAN,
# so the switches are announced to it and the warning is noise (left out of
# a crash's excerpt here, and of a program's output by ./course run).
ASAN_CONTEXT_WARNING = "ASan doesn't fully support makecontext/swapcontext"


def crash_excerpt(crashed: str, most: int = 40) -> list[str]:
    """The lines of a crash worth showing: a sanitizer's report from its
    first line (the test that ran, then the report, and its summary line if
    the report is longer), or else the last `most` lines."""
    lines = [line for line in crashed.splitlines() if ASAN_CONTEXT_WARNING not in line]
    report = next((i for i, line in enumerate(lines) if _SANITIZER_REPORT.match(line)), None)
    if report is None:
        return lines[-most:]
    shown = ([lines[0]] if report > 0 and lines[0].startswith("[ RUN") else []) + lines[report:report + most]
    summary = next((line for line in lines[report + most:] if line.startswith("SUMMARY: ")), None)
    return shown + (["    ...", summary] if summary else [])


def write_junit(runs: list[Run], path: Path) -> None:
    """One JUnit XML file for autograders, a <testsuite> per chapter and suite."""
    root = ET.Element("testsuites")
    for r in runs:
        suites: dict[str, list[Test]] = {}
        for t in r.tests:
            suites.setdefault(t.suite, []).append(t)
        if r.crashed:
            suites.setdefault("crash", [])
        for name, tests in suites.items():
            element = ET.SubElement(root, "testsuite", name=f"{r.label}.{name}",
                                    tests=str(len(tests) + (name == "crash")),
                                    failures=str(sum(not t.passed for t in tests)),
                                    errors=str(int(name == "crash")))
            for t in tests:
                case = ET.SubElement(element, "testcase", classname=f"{r.label}.{t.suite}",
                                     name=t.name, time=f"{t.seconds:.3f}")
                if t.book:
                    props = ET.SubElement(case, "properties")
                    ET.SubElement(props, "property", name="book", value=t.book)
                for failure in t.failures:
                    ET.SubElement(case, "failure", message=failure.splitlines()[0][:200] if failure else "failed").text = failure
            if name == "crash":
                case = ET.SubElement(element, "testcase", classname=f"{r.label}.crash", name="the test binary ran to the end")
                ET.SubElement(case, "error", message="the test binary crashed").text = r.crashed
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
