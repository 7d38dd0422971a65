"""Shared helpers for the course's benchmarks (bench/NN-slug/run).

A benchmark starts each system under test pinned to one core, drives it with
a real load generator pinned to the other core, measures the server's CPU
time during the load from /proc (and perf's task-clock when it is there),
repeats, and prints one table of medians with ratios to a reference system.
A peer that is not installed is reported as skipped, never faked.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(os.environ.get("RDV_ROOT", Path(__file__).resolve().parents[1]))
BUILD = Path(os.environ.get("RDV_BUILD", ROOT / "build" / "release"))
TICKS = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1
SERVER_CORE = "0"
LOAD_CORE = "1" if CORES > 1 else "0"


class Skip(Exception):
    """A system cannot be measured here; the message says why."""


def need(*tools: str) -> None:
    """Raises Skip unless every tool is on PATH."""
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        raise Skip(f"not installed: {', '.join(missing)}")


def free_port() -> int:
    """A port that was free a moment ago (benchmarks only; tests use port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pinned(core: str, argv: list[str]) -> list[str]:
    """`argv` run on one core, when taskset is there."""
    return ["taskset", "-c", core, *argv] if shutil.which("taskset") else argv


def tree(pid: int) -> list[int]:
    """`pid` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """(user, system) CPU seconds used so far by `pids` (all their threads)."""
    user = system = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user += int(fields[11]) / TICKS
        system += int(fields[12]) / TICKS
    return user, system


def rss_bytes(pid: int) -> int:
    """Resident set size of one process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


@dataclass
class Server:
    """A server under test, started pinned to SERVER_CORE, stopped on exit."""

    name: str
    argv: list[str]
    port: int
    cwd: Path | None = None
    env: dict = field(default_factory=dict)
    process: subprocess.Popen | None = None
    log: Path | None = None
    core: str = SERVER_CORE  # a backend behind the server under test may run elsewhere

    def __enter__(self) -> "Server":
        self.log = Path(tempfile.mkstemp(prefix="rdv-bench-", suffix=".log")[1])
        with self.log.open("w") as out:
            self.process = subprocess.Popen(pinned(self.core, self.argv), cwd=self.cwd, stdout=out,
                                            stderr=subprocess.STDOUT, env=dict(os.environ, **self.env),
                                            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Skip(f"{self.name} exited at start: {self.log.read_text()[-400:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return self
            time.sleep(0.05)
        self.__exit__()
        raise Skip(f"{self.name} did not listen on port {self.port} within 30 s")

    def __exit__(self, *exc) -> None:
        if self.process and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.log:
            self.log.unlink(missing_ok=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        assert self.process
        return tree(self.process.pid)

    def measure(self, load) -> tuple[dict, float, float, float]:
        """Runs `load()` and returns its result with the server's CPU time
        meanwhile: (result, user s, system s, total s). User and system come
        from /proc in clock ticks; the total comes from perf's task-clock
        (nanoseconds) when perf works here, else it is user + system."""
        pids = self.pids()
        user0, system0 = cpu_seconds(pids)
        with task_clock(pids) as clock:
            result = load()
        user1, system1 = cpu_seconds(pids)
        user, system = user1 - user0, system1 - system0
        return result, user, system, clock.seconds if clock.seconds is not None else user + system


class task_clock:
    """Counts CPU time of `pids` (all threads) with `perf stat -e task-clock`
    while the with-block runs; .seconds is None when perf is not usable or
    `pids` is empty."""

    usable: bool | None = None

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.seconds: float | None = None
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "task_clock":
        if task_clock.usable is None:
            task_clock.usable = bool(shutil.which("perf")) and subprocess.run(
                ["perf", "stat", "-e", "task-clock", "true"], capture_output=True).returncode == 0
        if task_clock.usable and self.pids:  # no processes: nothing to count
            self.process = subprocess.Popen(
                ["perf", "stat", "-x", ",", "-e", "task-clock", "-p", ",".join(map(str, self.pids))],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(0.2)  # let perf attach before the load starts
        return self

    def __exit__(self, *exc) -> None:
        if not self.process:
            return
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=30)
        for line in err.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2].startswith("task-clock"):
                with contextlib.suppress(ValueError):
                    self.seconds = float(fields[0]) / 1000  # perf prints milliseconds
        if self.seconds is None:
            warn(f"perf stat printed nothing usable: {err[-300:]}")


def _number(pattern: str, text: str, what: str) -> float:
    m = re.search(pattern, text)
    if not m:
        raise RuntimeError(f"could not read {what} from the load generator's output:\n{text[-1500:]}")
    return float(m[1])


def ab(url: str, requests: int, concurrency: int, keepalive: bool = True) -> dict:
    """ApacheBench on LOAD_CORE: req/s, mean ms per request, failures."""
    argv = ["ab", "-q", "-n", str(requests), "-c", str(concurrency), *(["-k"] if keepalive else []), url]
    out = subprocess.run(pinned(LOAD_CORE, argv), capture_output=True, text=True, timeout=600)
    text = out.stdout + out.stderr
    failed = int(_number(r"Failed requests:\s+(\d+)", text, "failed requests"))
    non2xx = re.search(r"Non-2xx responses:\s+(\d+)", text)
    return {"requests": requests,
            "rps": _number(r"Requests per second:\s+([\d.]+)", text, "requests per second"),
            "mean_ms": _number(r"Time per request:\s+([\d.]+) \[ms\] \(mean\)", text, "time per request"),
            "failed": failed + (int(non2xx[1]) if non2xx else 0)}


def wrk(url: str, threads: int, connections: int, seconds: int) -> dict:
    """wrk on LOAD_CORE: req/s and the number of requests made."""
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    out = subprocess.run(pinned(LOAD_CORE, argv), capture_output=True, text=True, timeout=seconds + 60)
    text = out.stdout + out.stderr
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return {"requests": int(_number(r"(\d+) requests in", text, "request count")),
            "rps": _number(r"Requests/sec:\s+([\d.]+)", text, "requests per second"),
            "failed": (sum(map(int, errors.groups())) if errors else 0) + (int(non2xx[1]) if non2xx else 0),
            "p50_ms": _latency(text, "50%"), "p99_ms": _latency(text, "99%")}


def _latency(text: str, percentile: str) -> float:
    """A percentile of wrk's "Latency Distribution" (--latency), in milliseconds."""
    m = re.search(rf"^\s*{re.escape(percentile)}\s+([\d.]+)(us|ms|s)\s*$", text, re.MULTILINE)
    if not m:
        return float("nan")
    return float(m[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m[2]]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(title: str, headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    def line(cells: list[str]) -> str:
        return "  ".join(str(c).ljust(widths[0]) if i == 0 else str(c).rjust(widths[i])
                         for i, c in enumerate(cells)).rstrip()
    return "\n".join([title, line(headers), *(line(r) for r in rows)])


def markdown_table(title: str, headers: list[str], rows: list[list[str]]) -> list[str]:
    """The same table as Markdown lines, for a book page (\\include{doc})."""
    out = [title, "", "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out + [""]


def fmt(value: float, digits: int = 0) -> str:
    """A number with thousands separators, or a dash when there is none."""
    if value != value:  # NaN: nothing measured
        return "—"
    return f"{value:,.{digits}f}"


def ratio(value: float, reference: float) -> str:
    if value != value or reference != reference or reference == 0:
        return "—"
    return f"{value / reference:.2f}"


def machine() -> str:
    """One line about where the figures come from."""
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {CORES} cores, Linux {os.uname().release}"


def warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ------------------------------------------------------------- HTTP servers

def run_rounds(systems: dict, loads: dict, runs: int) -> tuple[dict, dict, dict]:
    """Measures HTTP servers under loads, in rounds.

    `systems` maps a key to a factory `f(scratch_dir, port) -> Server` (which
    raises Skip when the system cannot run here); `loads` maps a name to
    `f(url) -> dict` (ab() or wrk()). Every server runs for the whole
    benchmark (an idle one costs nothing) and each round goes round-robin
    over them, so that whatever else the machine does falls on all alike.
    Returns (names, skipped, samples): samples[(key, load)] is a list of
    (req/s, server CPU ms per 1000 requests), one per round."""
    names: dict[str, str] = {}
    skipped: dict[str, str] = {}
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with contextlib.ExitStack() as stack:
        servers: dict[str, Server] = {}
        for key, factory in systems.items():
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"rdv-bench-{key}-")))
            try:
                server = factory(scratch, free_port())
                names[key] = server.name
                servers[key] = stack.enter_context(server)
                for load in loads.values():  # warm up: connections, caches, JITs
                    load(server.url)
            except Skip as why:
                names.setdefault(key, key)
                skipped[key] = f"skipped: {why}"
        for round_number in range(1, runs + 1):
            for key, server in servers.items():
                if key in skipped:
                    continue
                warn(f"  round {round_number}/{runs}: {server.name}")
                try:
                    for load_name, load in loads.items():
                        result, _, _, cpu = server.measure(lambda: load(server.url))
                        if result["failed"]:
                            raise Skip(f"{result['failed']} failed requests")
                        samples.setdefault((key, load_name), []).append(
                            (result["rps"], cpu * 1000 / (result["requests"] / 1000)))
                except Skip as why:
                    skipped[key] = f"skipped: {why}"
    return names, skipped, samples


def cpu_tables(names: dict, skipped: dict, samples: dict, loads: list[str],
               references: dict[str, str]) -> tuple[str, list[str]]:
    """The tables of run_rounds() results, as text and as Markdown lines: one
    table per load, a row per system with req/s and CPU ms per 1000 requests
    (medians), and a column "CPU vs X" for each reference system (key -> X)."""
    text: list[str] = []
    markdown: list[str] = []
    headers = ["system", "req/s", "CPU ms/1000 req"] + [f"CPU vs {label}" for label in references.values()]
    for load_name in loads:
        medians = {key: (median([r for r, _ in samples[(key, load_name)]]),
                         median([c for _, c in samples[(key, load_name)]]))
                   for key in names if key not in skipped and (key, load_name) in samples}
        rows = []
        for key in names:
            if key not in medians:
                rows.append([names[key], skipped.get(key, "skipped"), ""] + [""] * len(references))
                continue
            rps, cpu = medians[key]
            rows.append([names[key], fmt(rps), fmt(cpu, 2)] +
                        [ratio(cpu, medians.get(ref, (0, float("nan")))[1]) for ref in references])
        text.append(table(load_name, headers, rows))
        markdown += markdown_table(f"`{load_name}`", headers, rows)
    return "\n\n".join(text), markdown
