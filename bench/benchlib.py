"""Shared helpers for the course's benchmarks (bench/NN-slug/run).

A benchmark starts each system under test pinned to one core, drives it with
a real load generator pinned to the other core, measures the server's CPU
time during the load from /proc (and perf's task-clock when it is there),
repeats, and prints one table of medians with ratios to a reference system.
A peer that is not installed is reported as skipped, never faked.

With --write, a benchmark also writes its table for the book (results.md)
and a chart of the same medians (an SVG beside it, drawn by bar_chart() or
line_chart() with matplotlib, which only --write needs).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

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


_PORTS_GIVEN: set[int] = set()


def free_port() -> int:
    """A port that was free a moment ago and that no earlier call returned
    (benchmarks only; tests use port 0). The kernel may pick the same free
    port twice in a row, and two listeners of one run given one port would
    share it without a word if both set SO_REUSEPORT, as the hubs do."""
    probes: list[socket.socket] = []
    try:
        while True:  # each probe stays bound until the end, so the next one gets another port
            probes.append(socket.socket())
            probes[-1].bind(("127.0.0.1", 0))
            port = probes[-1].getsockname()[1]
            if port not in _PORTS_GIVEN:
                _PORTS_GIVEN.add(port)
                return port
    finally:
        for probe in probes:
            probe.close()


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


def cpu_ns(pids: list[int]) -> int | None:
    """CPU time used so far by `pids` (all their threads) in nanoseconds, as
    the scheduler counts it (/proc/PID/task/TID/schedstat), or None where
    the kernel keeps no such count. Finer than cpu_seconds(): a clock tick
    is 10 ms, a whole measurement of a big file a few dozen of them."""
    total = 0
    for pid in pids:
        try:
            threads = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for thread in threads:
            try:
                total += int((thread / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                if not (thread / "stat").exists():
                    continue  # the thread ended meanwhile
                return None
    return total


@dataclass(frozen=True)
class CpuReading:
    """What cpu_seconds() and cpu_ns() say of some processes at one moment."""
    user: float
    system: float
    ns: int | None


def cpu_reading(pids: list[int]) -> CpuReading:
    user, system = cpu_seconds(pids)
    return CpuReading(user, system, cpu_ns(pids))


def cpu_used(before: CpuReading, after: CpuReading) -> tuple[float, float]:
    """User and system seconds between two readings, adding up to the
    nanosecond count where both have one (split_cpu())."""
    total = (after.ns - before.ns) / 1e9 if before.ns is not None and after.ns is not None else None
    return split_cpu(after.user - before.user, after.system - before.system, total)


def split_cpu(user: float, system: float, total: float | None) -> tuple[float, float]:
    """User and system seconds (clock ticks, from cpu_seconds()) rescaled to
    add up to `total`, a finer count of the same time; as they are without
    one. A total shorter than any tick is counted as system time, where a
    server's time mostly goes."""
    if total is None:
        return user, system
    if user + system <= 0:
        return 0.0, total
    return total * user / (user + system), total * system / (user + system)


def rss_bytes(pid: int) -> int:
    """Resident set size of one process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def stack_pool_rss(pids: list[int]) -> int:
    """Resident bytes of `pids` in the stack pool's regions: anonymous
    mappings of 256 MiB and more (chapter 3 reserves 4,096 stacks of 64 KiB
    at a time; malloc's arenas are at most 64 MiB)."""
    total = 0
    for pid in pids:
        big = False
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            fields = line.split()
            if fields and "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:  # a mapping's first line
                low, high = (int(x, 16) for x in fields[0].split("-"))
                big = len(fields) == 5 and high - low >= 256 << 20
            elif big and fields[:1] == ["Rss:"]:
                total += int(fields[1]) * 1024
    return total


def tcp_memory_bytes() -> int:
    """The kernel's memory for TCP buffers, all sockets (/proc/net/sockstat)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


def wait_listening(port: int, seconds: float = 30, running: Callable[[], bool] = lambda: True,
                   host: str = "127.0.0.1") -> bool:
    """Whether something accepts connections on `host`:`port` within
    `seconds`; gives up early once `running()` is false."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and running():
        with contextlib.suppress(OSError), socket.create_connection((host, port), 0.2):
            return True
        time.sleep(0.05)
    return False


def poll_until(done: Callable[[], bool], seconds: float, every: float = 0.1) -> bool:
    """Calls `done()` every `every` seconds until it holds (true) or
    `seconds` have passed (false)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)
    return True


def allow_descriptors(count: int) -> None:
    """Raises this process's limit on open files to `count` (the hard limit
    at most); the servers it starts afterwards inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count)), hard))


def hold_clients(stack: contextlib.ExitStack, port: int, count: int) -> None:
    """Opens `count` connections to 127.0.0.1:`port`, each sending one
    `GET /held/N`, and keeps them open until `stack` closes: the clients a
    hub holds for a memory figure."""
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /held/%d HTTP/1.1\r\nHost: hub\r\n\r\n" % i)
        stack.enter_context(s)


def figure_medians(samples: dict[Any, list[dict]], figures: tuple[str, ...]) -> dict[Any, dict[str, float]]:
    """key -> {figure: the median of its rounds} for samples[key], a list of
    one dict of figures per round."""
    return {key: {f: median([s[f] for s in rounds]) for f in figures} for key, rounds in samples.items()}


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
    host: str = "127.0.0.1"  # where it listens (another network namespace's address, say)

    def __enter__(self) -> "Server":
        self.log = Path(tempfile.mkstemp(prefix="rdv-bench-", suffix=".log")[1])
        with self.log.open("w") as out:
            self.process = subprocess.Popen(pinned(self.core, self.argv), cwd=self.cwd, stdout=out,
                                            stderr=subprocess.STDOUT, env=dict(os.environ, **self.env),
                                            start_new_session=True)
        if wait_listening(self.port, 30, running=lambda: self.process.poll() is None, host=self.host):
            return self
        if self.process.poll() is not None:
            raise Skip(f"{self.name} exited at start: {self.log.read_text()[-400:]}")
        self.__exit__()
        raise Skip(f"{self.name} did not listen on {self.host}:{self.port} within 30 s")

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
        return f"http://{self.host}:{self.port}"

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


@functools.cache
def perf_may(*argv: str) -> bool:
    """Whether `perf ARGV true` runs here (perf installed, and allowed what
    ARGV asks, e.g. system-wide tracing)."""
    return bool(shutil.which("perf")) and subprocess.run(["perf", *argv, "true"], capture_output=True).returncode == 0


def start_perf(argv: list[str], **popen) -> subprocess.Popen:
    """`perf ARGV` started, given a moment to attach before the load starts."""
    process = subprocess.Popen(["perf", *argv], **popen)
    time.sleep(0.2)
    return process


class task_clock:
    """Counts CPU time of `pids` (all threads) with `perf stat -e task-clock`
    while the with-block runs; .seconds is None when perf is not usable or
    `pids` is empty."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.seconds: float | None = None
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "task_clock":
        if perf_may("stat", "-e", "task-clock") and self.pids:  # no processes: nothing to count
            self.process = start_perf(["stat", "-x", ",", "-e", "task-clock", "-p", ",".join(map(str, self.pids))],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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


def ab(url: str, requests: int, concurrency: int, keepalive: bool = True,
       watch: Callable[[], None] | None = None) -> dict:
    """ApacheBench on LOAD_CORE: req/s, mean ms per request, failures, ab's
    CPU seconds, and how busy ab kept its core (its CPU time over the time
    it ran: near 1.0, ab itself was the limit of req/s, whatever the
    server). `watch`, if given, is called every quarter of a second while
    ab runs (the packets experiment of chapter 8 reads the server's sockets
    with it). ab is killed after ten minutes."""
    argv = ["ab", "-q", "-n", str(requests), "-c", str(concurrency), *(["-k"] if keepalive else []), url]
    with tempfile.TemporaryFile(mode="w+") as out:  # a file, not a pipe: ab never waits on a full one
        start = time.monotonic()
        process = subprocess.Popen(pinned(LOAD_CORE, argv), stdout=out, stderr=subprocess.STDOUT)
        timed_out = threading.Event()
        killer = threading.Timer(600, lambda: (timed_out.set(), process.kill()))
        killer.start()
        try:
            # Reaped by wait4, for ab's own rusage.
            if watch is None:
                _, status, usage = os.wait4(process.pid, 0)
            else:
                while not (reaped := os.wait4(process.pid, os.WNOHANG))[0]:
                    time.sleep(0.25)
                    watch()
                _, status, usage = reaped
        finally:
            killer.cancel()
        elapsed = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if timed_out.is_set():
            raise subprocess.TimeoutExpired(argv, 600)
        out.seek(0)
        text = out.read()
    if (why := ab_gave_up(process.returncode, text)) is not None:
        raise Skip(f"ab gave up after {elapsed:.0f} s: {why}")
    cpu = usage.ru_utime + usage.ru_stime
    failed = int(_number(r"Failed requests:\s+(\d+)", text, "failed requests"))
    non2xx = re.search(r"Non-2xx responses:\s+(\d+)", text)
    # What failed, as ab splits it: "Connect: 0, Receive: 0, Length: 3, Exceptions: 0".
    kinds = re.search(r"\((Connect: \d+, Receive: \d+, Length: \d+, Exceptions: \d+)\)", text)
    failures = ", ".join(([kinds[1]] if kinds else []) + ([f"non-2xx: {non2xx[1]}"] if non2xx else []))
    return {"requests": requests,
            "rps": _number(r"Requests per second:\s+([\d.]+)", text, "requests per second"),
            "mean_ms": _number(r"Time per request:\s+([\d.]+) \[ms\] \(mean\)", text, "time per request"),
            "failed": failed + (int(non2xx[1]) if non2xx else 0),
            "failures": failures,  # what the failed ones were, for a message (as wrk's)
            "client_cpu": cpu,
            "client_busy": cpu / elapsed if elapsed > 0 else float("nan")}


def ab_gave_up(status: int, text: str) -> str | None:
    """Why ab stopped before its summary, from its exit status and output, or
    None if it finished. It gives up on the whole run when one response
    takes longer than its timeout (30 s), as when a connection's SYN is
    dropped time after time: "apr_pollset_poll: The timeout specified has
    expired (70007)"."""
    if status == 0 or "Failed requests:" in text:
        return None
    error = re.search(r"(apr_\w+: [^\n]*)", text)
    lines = text.strip().splitlines()
    return error[1] if error else (lines[-1] if lines else f"exit status {status}, no output")


def wrk(url: str, threads: int, connections: int, seconds: int, timeout: int | None = None,
        env: dict[str, str] | None = None) -> dict:
    """wrk on LOAD_CORE: req/s and the number of requests made. A response
    slower than `timeout` seconds (wrk's default: 2) counts as failed. `env`
    adds to its environment (congestion_env(), say)."""
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
            *([f"--timeout={timeout}s"] if timeout else []), url]
    out = subprocess.run(pinned(LOAD_CORE, argv), capture_output=True, text=True, timeout=seconds + 60,
                         env=dict(os.environ, **env) if env else None)
    text = out.stdout + out.stderr
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    kinds = zip(("connect", "read", "write", f"slower than {timeout or 2} s"), errors.groups()) if errors else []
    failures = [f"{count} {kind}" for kind, count in kinds if int(count)]
    failures += [f"{non2xx[1]} not 2xx or 3xx"] if non2xx else []
    return {"requests": int(_number(r"(\d+) requests in", text, "request count")),
            "rps": _number(r"Requests/sec:\s+([\d.]+)", text, "requests per second"),
            "failed": (sum(map(int, errors.groups())) if errors else 0) + (int(non2xx[1]) if non2xx else 0),
            "failures": ", ".join(failures),  # what the failed ones were, for a message
            "p50_ms": _latency(text, "50%"), "p99_ms": _latency(text, "99%")}


def _latency(text: str, percentile: str) -> float:
    """A percentile of wrk's "Latency Distribution" (--latency), in milliseconds."""
    m = re.search(rf"^\s*{re.escape(percentile)}\s+([\d.]+)(us|ms|s)\s*$", text, re.MULTILINE)
    if not m:
        return float("nan")
    return float(m[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m[2]]


def turns(items, round_number: int) -> list:
    """The order in which round `round_number` (counted from 1) measures
    `items`: as given in odd rounds, reversed in even ones. A host whose speed
    drifts during a benchmark then favours no system: over two rounds each is
    measured as often first as last, and the systems compared under one load
    follow each other, seconds apart rather than a whole system's turn."""
    items = list(items)
    return items if round_number % 2 else items[::-1]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(title: str, headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned.
    A row with only its first two cells filled is a system and a note (why
    there are no figures): the note runs on across the columns."""
    def noted(row: list[str]) -> bool:
        return len(row) > 2 and not any(str(c) for c in row[2:])
    widths = [max(len(str(r[i])) for r in [headers, *rows] if i == 0 or not noted(r))
              for i in range(len(headers))]
    def line(cells: list[str]) -> str:
        if noted(cells):
            return f"{str(cells[0]).ljust(widths[0])}  {cells[1]}"
        return "  ".join(str(c).ljust(widths[0]) if i == 0 else str(c).rjust(widths[i])
                         for i, c in enumerate(cells)).rstrip()
    return "\n".join([title, line(headers), *(line(r) for r in rows)])


def markdown_table(title: str, headers: list[str], rows: list[list[str]]) -> list[str]:
    """The same table as Markdown lines, for a book page (\\include{doc})."""
    out = [title, "", "| " + " | ".join(in_code(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(in_code(str(c)) for c in r) + " |" for r in rows]
    return out + [""]


def in_code(cell: str) -> str:
    """A table cell with its command-line flags in code, as the book writes
    them (in plain text, Doxygen would turn "--" into a dash), each with its
    value when a number follows it ("--open-files 0")."""
    return re.sub(r"(?<!`)(--[a-z][\w-]*(?: [0-9](?:[\w.,]*\w)?)?)", r"`\1`", cell)


def fmt(value: float, digits: int = 0) -> str:
    """A number with thousands separators, or a dash when there is none."""
    if value != value:  # NaN: nothing measured
        return "—"
    return f"{value:,.{digits}f}"


def ratio(value: float, reference: float) -> str:
    if value != value or reference != reference or reference == 0:
        return "—"
    return f"{value / reference:.2f}"


def congestion_controls() -> list[str]:
    """The system's TCP congestion control, then the other of BBR and CUBIC
    if the kernel has it ([""] if /proc does not say): the benchmarks where
    it matters measure under both, since hosts differ in their default."""
    folder = Path("/proc/sys/net/ipv4")
    with contextlib.suppress(OSError):
        system = (folder / "tcp_congestion_control").read_text().strip()
        available = (folder / "tcp_available_congestion_control").read_text().split()
        other = "bbr" if system == "cubic" else "cubic"
        if other not in available:
            warn(f"the kernel has no {other} (tcp_available_congestion_control: {' '.join(available)}): "
                 f"measuring with {system} only")
        return [system] + ([other] if other in available else [])
    return [""]


def built(path: Path) -> Path:
    """`path`, a program or library of the release build; raises Skip if it
    is not there (the bench was run without ./course bench, which builds it)."""
    if not path.exists():
        raise Skip(f"{path} is not built (./course bench builds it)")
    return path


def congestion_env(congestion: str) -> dict[str, str]:
    """The environment that gives a program's TCP sockets `congestion` (none
    for ""): bench/congestion_shim.cpp, preloaded, sets it on each socket
    before it listens or connects, for programs with no setting of their own."""
    if not congestion:
        return {}
    shim = built(BUILD / "bench" / "libcongestion_shim.so")
    return {"LD_PRELOAD": str(shim), "RDV_CONGESTION": congestion}


def expect_congestion(port: int, congestion: str) -> None:
    """Raises Skip unless a connection to 127.0.0.1:`port` uses `congestion`
    at the server's end, as ss sees it (nothing to check for "", or when ss
    cannot tell): a server measured under the wrong control is no figure."""
    if not congestion:
        return
    with socket.create_connection(("127.0.0.1", port), 5):
        out = subprocess.run(["ss", "-tinH", f"( sport = :{port} )"], capture_output=True,
                             text=True).stdout
    m = re.search(r"\b(cubic|bbr2?|reno|dctcp|vegas|westwood|htcp|bic)\b", out)
    if m and m[1] != congestion:
        raise Skip(f"its connections use {m[1]}, not {congestion}")


def core_busy_seconds(core: str, stat: Path = Path("/proc/stat")) -> float:
    """The seconds `core` has spent on anything but idling since boot (user,
    nice, system, irq and softirq in /proc/stat): it catches the kernel's
    work done on the core outside any process, which a process's own CPU
    time does not count (a packet taken in while the core was idle)."""
    for line in stat.read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == f"cpu{core}":
            user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in fields[1:8])
            return (user + nice + system + irq + softirq) / TICKS
    raise Skip(f"{stat} has no line for CPU {core}")


@contextlib.contextmanager
def steered_loopback(cores: list[str], sys_root: Path = Path("/sys"), proc_root: Path = Path("/proc")):
    """Over the loopback, a segment is taken in on the core that sent it, so
    each side pays for the other's receiving. Within this block the kernel's
    receive flow steering (RFS) takes each one in on the core where the
    socket it is for was last used, as two machines would: the receive
    packet steering mask of `lo` set to `cores`, with a table of flows.
    The settings are put back as they were when the block ends, however it
    ends: SIGTERM within it (a run stopped from outside) ends it as an
    exception would. Raises Skip if they cannot be written (root only)."""
    mask = format(sum(1 << core for core in {int(core) for core in cores}), "x")  # a core named twice: once
    files = {sys_root / "class/net/lo/queues/rx-0/rps_cpus": mask,
             sys_root / "class/net/lo/queues/rx-0/rps_flow_cnt": "4096",
             proc_root / "sys/net/core/rps_sock_flow_entries": "32768"}
    saved: dict[Path, str] = {}
    on_term = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda number, _frame: sys.exit(128 + number))
    try:
        for path, value in files.items():
            try:
                saved[path] = path.read_text().strip()
                path.write_text(value + "\n")
            except OSError as e:
                raise Skip(f"cannot steer the loopback ({path}: {e.strerror or e}); it needs root") from e
        yield
    finally:
        for path, value in reversed(saved.items()):
            with contextlib.suppress(OSError):
                path.write_text(value + "\n")
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, signal.SIG_DFL if on_term is None else on_term)


# A thread on one core (argv: core, nap in ns, how late in ns a nap must end
# to be noted, seconds to run or 0 to run until SIGTERM), real-time where it
# may be, that sleeps a nap at a time. It prints "watching" once it runs and,
# at the end, whether it ran real-time, how many naps it took, and each nap
# noted as "slept:woke" in CLOCK_MONOTONIC nanoseconds.
_NAPPER = """
import os, signal, sys, time
core, nap_ns, late_ns, seconds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
os.sched_setaffinity(0, {core})
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    realtime = 1
except OSError:
    realtime = 0
stopped = []
signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
print("watching", flush=True)
end = time.monotonic_ns() + int(seconds * 1e9) if seconds else None
naps, late = 0, []
woke = time.monotonic_ns()
while not stopped and (end is None or woke < end):
    slept = woke  # a turn of this loop counts whole: a core slowed down shows in its work too
    time.sleep(nap_ns / 1e9)
    woke = time.monotonic_ns()
    naps += 1
    if woke - slept - nap_ns > late_ns:
        late.append(f"{slept}:{woke}")
print(realtime, naps, " ".join(late), flush=True)
"""


def _napper(core: str, nap_ns: int, late_ns: int, seconds: float = 0) -> subprocess.Popen:
    """_NAPPER started on `core`, once it runs."""
    probe = subprocess.Popen([sys.executable, "-c", _NAPPER, core, str(nap_ns), str(late_ns), str(seconds)],
                             stdout=subprocess.PIPE, text=True)
    probe.stdout.readline()  # "watching"
    return probe


def _naps(out: str) -> tuple[bool, int, list[tuple[int, int]]]:
    """What _NAPPER printed: (real-time, naps taken, [(slept, woke)] of the naps noted)."""
    realtime, naps, *noted = out.split()
    return realtime == "1", int(naps), [(int(s), int(w)) for s, w in (n.split(":") for n in noted)]


@dataclass
class Stalls:
    """How late a thread that sleeps 0.5 ms at a time wakes up on one core
    of an idle machine: what the host (a hypervisor, say) takes from it."""
    core: str
    seconds: float
    realtime: bool   # it ran SCHED_FIFO, so no process of ours could delay it
    naps: int
    worst_ms: float
    p99_ms: float
    over_2ms: int    # naps that ended more than 2 ms late

    def __str__(self) -> str:
        kind = "a real-time thread" if self.realtime else "a thread"
        return (f"{kind} on CPU {self.core} sleeping 0.5 ms at a time woke up to {self.worst_ms:.1f} ms late "
                f"in {self.seconds:g} s on the idle machine (p99 {self.p99_ms:.2f} ms; "
                f"{self.over_2ms:,} of {self.naps:,} naps over 2 ms late)")


def host_stalls(core: str = SERVER_CORE, seconds: float = 10) -> Stalls:
    """Measures how long the host keeps `core` from a thread that asks for it
    (a latency figure below that cannot be the program's alone)."""
    nap = 500_000
    out, _ = _napper(core, nap, -1, seconds).communicate(timeout=seconds + 30)  # -1: note every nap
    realtime, naps, noted = _naps(out)
    late = sorted((woke - slept - nap) / 1e6 for slept, woke in noted)
    return Stalls(core, seconds, realtime, naps, late[-1], late[int(len(late) * 0.99)], sum(x > 2 for x in late))


def tasks(pids: list[int]) -> set[int]:
    """The task (thread) ids of processes `pids`, while they live; the pids
    themselves in any case."""
    found = set(pids)
    for pid in pids:
        with contextlib.suppress(OSError):
            found |= {int(task) for task in os.listdir(f"/proc/{pid}/task")}
    return found


def stolen_stretches(pieces: list[tuple[int, int, int]], bin_ns: int, share: float,
                     over_ns: float) -> list[tuple[int, int, int]]:
    """Where a core lost much of its time: `pieces` are (from, to, taken) in
    ns, each having taken `taken` evenly over [from, to]. Cut into bins of
    `bin_ns`, a bin that lost at least `share` of itself is stolen; a run of
    stolen bins is a stretch (from, to, taken), and those that took more
    than `over_ns` in all are returned. A little taken often (a wake-up's
    worth every millisecond) steals no bin, however long it goes on."""
    bins: dict[int, float] = {}
    for start, end, taken in pieces:
        density = taken / (end - start) if end > start else 0.0
        n = start // bin_ns
        while n * bin_ns < end:
            bins[n] = bins.get(n, 0.0) + (min(end, (n + 1) * bin_ns) - max(start, n * bin_ns)) * density
            n += 1
    stretches: list[list[int]] = []
    for n in sorted(bins):
        if bins[n] < share * bin_ns:
            continue
        if stretches and stretches[-1][1] == n * bin_ns:
            stretches[-1][1] += bin_ns
            stretches[-1][2] += round(bins[n])
        else:
            stretches.append([n * bin_ns, (n + 1) * bin_ns, round(bins[n])])
    return [(start, end, taken) for start, end, taken in stretches if taken > over_ns]


class StallWatch:
    """While open, watches `cores` for stretches in which they ran nothing
    of the bench's, in two ways:

    - the host (a hypervisor, say) or the kernel: a thread on each core,
      real-time where it may be, sleeps 1 ms at a time and notes every turn
      that ends more than `late_ms` late;
    - another program on the machine: `perf record` notes each task the
      cores switch to, and a task that is neither the bench's (this process
      and all it started) nor the kernel's is another program's. A
      real-time thread cannot see those: it takes the core from them.

    A stall is a run of BIN_NS bins of a core's time that each lost at
    least SHARE of it to either, and what it took is their time summed: a
    host or a program that takes a core a millisecond at a time takes much
    of it without any one piece being long (stolen_stretches). `stalls`
    holds afterwards, as (core, from, to, taken) in CLOCK_MONOTONIC
    nanoseconds (the clock the bench's programs stamp their messages with),
    each stall that took more than `stall_ms`; a late turn counts as taken
    evenly over all of it, since the stretch may have begun anywhere in it.
    `others` holds the other programs that ran on the cores and for how
    long, in ms. Its cost to what runs beside it: a wake-up a millisecond
    on each core and a trace record per task switch or wake-up, the same
    for every system measured."""

    NAP_NS = 1_000_000
    BIN_NS = 5 * NAP_NS
    SHARE = 0.2

    def __init__(self, cores: list[str], late_ms: float = 0.25, stall_ms: float = 2.0) -> None:
        self.cores, self.late_ms, self.stall_ms = cores, late_ms, stall_ms
        self.stalls: list[tuple[str, int, int, int]] = []
        self.others: dict[str, float] = {}
        self._ours: set[int] = set()
        self._probes: list[subprocess.Popen] = []
        self._trace: subprocess.Popen | None = None
        self._folder: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> "StallWatch":
        self._probes = [_napper(core, self.NAP_NS, int(self.late_ms * 1e6)) for core in self.cores]
        if perf_may("record", "-q", "-e", "sched:sched_switch", "-a", "-o", os.devnull) and self.cores:
            self._folder = tempfile.TemporaryDirectory(prefix="rdv-stall-watch-")
            self._trace = start_perf(["record", "-q", "-e", "sched:sched_switch", "-e", "sched:sched_waking",
                                      "-e", "sched:sched_process_fork", "-a", "-k", "CLOCK_MONOTONIC", "-o",
                                      str(Path(self._folder.name) / "switches")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._ours = tasks(tree(os.getpid()))  # the probes and the tracer too
        return self

    def __exit__(self, *exc) -> None:
        pieces: dict[str, list[tuple[int, int, int]]] = {core: [] for core in self.cores}
        for core, probe in zip(self.cores, self._probes):
            probe.send_signal(signal.SIGTERM)
            out, _ = probe.communicate(timeout=30)
            pieces[core] += [(slept, woke, woke - slept - self.NAP_NS) for slept, woke in _naps(out)[2]]
        if self._trace and self._folder:
            self._trace.send_signal(signal.SIGINT)
            self._trace.wait(timeout=60)
            trace = subprocess.run(["perf", "script", "-i", str(Path(self._folder.name) / "switches"), "--ns",
                                    "-F", "cpu,pid,time,event,trace"], capture_output=True, text=True).stdout
            ours, kernels = self._ours | tasks(tree(os.getpid())), tasks(tree(2))
            for core, start, end in self.programs(trace, ours, kernels):
                pieces[core].append((start, end, end - start))
            self._folder.cleanup()
        self.stalls = [(core, *stall) for core, found in pieces.items()
                       for stall in stolen_stretches(found, self.BIN_NS, self.SHARE, self.stall_ms * 1e6)]
        self.index()

    # A line of `perf script -F cpu,pid,time,event,trace --ns`: the process
    # whose task was running (the sample's pid), the core, the time, and
    # what happened.
    _EVENT = re.compile(r"^\s*(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+sched:(\w+):"
                        r"(?:.*?next_comm=(.*?) next_pid=(\d+)|.*?child_pid=(\d+))?", re.MULTILINE)

    def programs(self, trace: str, ours: set[int], kernels: set[int]) -> list[tuple[str, int, int]]:
        """From `perf script` of task switches, wake-ups and forks: the
        stretches (core, from, to) in which a watched core ran a task of
        another program, one neither in `ours` nor in `kernels` (task ids)
        nor started by them; and `others`, each such program's time on the
        watched cores in ms.

        A stretch begins when a core switches to such a task and ends at the
        core's next event that another task caused. Some systems hide a
        program's own events from perf (this machine's agent, PID 1): its
        switch away is missing then, and the stretch ends at the next event
        seen, a little late."""
        stretches, running = [], {}  # running: core -> (name of another program's task, since)
        for m in self._EVENT.finditer(trace):
            owner, core = int(m[1]), str(int(m[2]))
            when = int(m[3]) * 1_000_000_000 + int(m[4].ljust(9, "0")[:9])
            if m[5] == "sched_process_fork":  # a child of ours or of the kernel's is theirs too
                for family in (ours, kernels):
                    if owner in family:
                        family.add(int(m[8]))
                continue
            other = owner and owner not in ours and owner not in kernels
            if core in running and (m[5] == "sched_switch" or not other):
                name, since = running.pop(core)
                if core in self.cores:
                    stretches.append((core, since, when))
                    self.others[name] = self.others.get(name, 0.0) + (when - since) / 1e6
            if m[5] == "sched_switch":
                task = int(m[7])
                if task and task not in ours and task not in kernels:
                    running[core] = (f"{m[6]} ({task})", when)
        return stretches

    def index(self) -> None:
        """Sorts `stalls` and indexes them for touches()."""
        self.stalls.sort(key=lambda s: s[1])
        self._ends = {core: ([s[1] for s in self.stalls if s[0] == core], [s[2] for s in self.stalls if s[0] == core])
                      for core in self.cores}

    def taken(self) -> list[float]:
        """What each stall took from its core, in ms."""
        return [taken / 1e6 for *_, taken in self.stalls]

    def touches(self, start_ns: int, end_ns: int) -> bool:
        """Whether a stall on any watched core overlaps [start_ns, end_ns]."""
        for starts, ends in self._ends.values():
            # A core's stalls are disjoint and in order: only the last to
            # begin before end_ns can still be under way after start_ns.
            last = bisect.bisect_left(starts, end_ns) - 1
            if last >= 0 and ends[last] > start_ns:
                return True
        return False


def machine(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """One line about where the figures come from."""
    fields: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in cpuinfo.read_text().splitlines():
            key, _, value = line.partition(":")
            if not key.strip():
                break  # the first CPU's fields end at its blank line
            fields.setdefault(key.strip(), value.strip())
    model = fields.get("model name", "unknown CPU")
    # A virtual machine's model name can be as bare as "AMD EPYC", the same
    # for two generations of cores that measure differently: family and
    # model tell them apart. (No parentheses or semicolons: the book's
    # {{machine NN}} reads the line up to the first of either.)
    if "cpu family" in fields and "model" in fields:
        model += f", family {fields['cpu family']} model {fields['model']}"
    return f"{model}, {CORES} cores, Linux {os.uname().release}"


def warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ------------------------------------------------------------- HTTP servers

def run_rounds(systems: dict, loads: dict, runs: int) -> tuple[dict, dict, dict]:
    """Measures HTTP servers under loads, in rounds.

    `systems` maps a key to a factory `f(scratch_dir, port) -> Server` (which
    raises Skip when the system cannot run here); `loads` maps a name to
    `f(url) -> dict` (ab() or wrk()). Every server runs for the whole
    benchmark (an idle one costs nothing); each round takes the loads one
    by one and measures every system under a load before the next load, in
    turns() (reversed every other round), so that whatever else the machine
    does falls on all alike.
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
            for load_name, load in loads.items():
                for key in turns(servers, round_number):
                    if key in skipped:
                        continue
                    server = servers[key]
                    warn(f"  round {round_number}/{runs}, {load_name}: {server.name}")
                    try:
                        result, _, _, cpu = server.measure(lambda: load(server.url))
                        if result["failed"]:
                            raise Skip(f"{result['failed']} failed requests ({result['failures']})")
                        samples.setdefault((key, load_name), []).append(
                            (result["rps"], cpu * 1000 / (result["requests"] / 1000)))
                    except Skip as why:
                        skipped[key] = f"skipped: {why}"
    return names, skipped, samples


def cpu_medians(names: dict, skipped: dict, samples: dict, load: str) -> dict[str, tuple[float, float]]:
    """The medians of run_rounds() results under one load: key -> (req/s, CPU
    ms per 1000 requests), for the systems measured (not skipped) only."""
    return {key: (median([r for r, _ in samples[(key, load)]]), median([c for _, c in samples[(key, load)]]))
            for key in names if key not in skipped and (key, load) in samples}


def cpu_tables(names: dict, skipped: dict, samples: dict, loads: list[str],
               references: dict[str, str]) -> tuple[str, list[str]]:
    """The tables of run_rounds() results, as text and as Markdown lines: one
    table per load, a row per system with req/s and CPU ms per 1000 requests
    (medians), and a column "CPU vs X" for each reference system (key -> X)."""
    text: list[str] = []
    markdown: list[str] = []
    headers = ["system", "req/s", "CPU ms/1000 req"] + [f"CPU vs {label}" for label in references.values()]
    for load_name in loads:
        medians = cpu_medians(names, skipped, samples, load_name)
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


# ------------------------------------------------------------------ charts
#
# A chart is drawn only from the numbers a run measured, the same medians
# as its table, in the same run: a benchmark's --write draws it from the
# figures it has just put in the table and writes both files together.

CHART_WIDTH = 7.3  # inches: about 700 CSS pixels (SVG sizes are in points, 72 per inch, 96 px per inch)
PANEL_HEIGHT = 3.3  # inches
STYLE = {
    "svg.hashsalt": "rendezvous",  # ids from the content, not from a random salt: same data, same file
    "svg.fonttype": "none",        # text stays text (selectable, searchable, the browser's fonts)
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#dddddd",
    "figure.facecolor": "white",   # readable on the book's dark theme too
    "savefig.facecolor": "white",
}


@dataclass
class Panel:
    """One plot of a chart, with its own y axis.

    `series` maps each system, named exactly as the table names it, to its
    values: one per group of a bar chart, or one per x of a line chart, NaN
    where that system measured nothing (a failed case). A system with no
    value at all is left out of the plot and of the legend."""

    ylabel: str                     # what and in which unit: "ns per hop"
    series: dict[str, list[float]]
    title: str = ""                 # above the plot, when a chart has several
    log_y: bool = False
    digits: int = 0                 # of the value written on each bar (bar charts)


def need_matplotlib() -> None:
    """Exits with a clear message unless matplotlib can be imported: a
    benchmark with --write calls this before it measures anything."""
    _pyplot()


def _pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend, imported on first use only, so
    that a run without --write does not need matplotlib."""
    try:
        import matplotlib
    except ImportError:
        sys.exit(f"--write draws a chart with matplotlib, which {sys.executable} cannot import.\n"
                 "  On Debian: apt-get install python3-matplotlib (./course bench installs it),\n"
                 "  and run the benchmark with the python3 that has it (Debian's is /usr/bin/python3).")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _measured(series: dict[str, list[float]]) -> dict[str, list[float]]:
    """The systems with at least one value (NaN is no value)."""
    return {name: values for name, values in series.items() if any(v == v for v in values)}


def _colours(panels: list[Panel]) -> dict[str, str]:
    """One colour per system, the same in every panel, in table order."""
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    names: list[str] = []
    for panel in panels:
        names += [n for n in _measured(panel.series) if n not in names]
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def _figure(plt: Any, title: str, panels: list[Panel], colours: dict[str, str],
            lines: bool = False) -> tuple[Any, list[Any], float]:
    """A figure of `panels` side by side under `title`, with the legend below
    (a patch per system, or a line with its marker when `lines`); returns
    (figure, axes, fraction of the height the legend takes)."""
    longest = max((len(n) for n in colours), default=10)
    columns = max(1, min(len(colours), int(CHART_WIDTH // (0.065 * longest + 0.6))))
    rows = -(-len(colours) // columns)
    legend = 0.22 * rows + 0.15
    figure, axes = plt.subplots(1, len(panels), figsize=(CHART_WIDTH, PANEL_HEIGHT + legend), squeeze=False)
    figure.suptitle(title, fontsize=10.5, fontweight="bold")
    handles = [plt.Line2D([], [], color=c, marker="o", markersize=5, linewidth=1.6) if lines
               else plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()]
    if handles:  # every system skipped: an empty chart, as the table says why
        figure.legend(handles=handles, labels=list(colours), loc="lower center", ncol=columns, frameon=False,
                      handlelength=2.0 if lines else 1.2, columnspacing=1.5)
    return figure, list(axes[0]), legend / (PANEL_HEIGHT + legend)


def _number_axis(axis: Any, log: bool) -> None:
    """Plain numbers with thousands separators on a linear or a log axis."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    formatter = FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 10 or v == int(v) else f"{v:,.2g}")
    if log:
        axis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        axis.set_minor_formatter(NullFormatter())
    axis.set_major_formatter(formatter)


def _save(plt: Any, figure: Any, legend: float, path: Path) -> Path:
    """Writes `figure` to `path` as an SVG that the same data draws alike
    (no date; ids from the content, see STYLE), and closes it."""
    figure.tight_layout(rect=(0, legend, 1, 1))
    figure.savefig(path, format="svg", metadata={"Date": None})
    plt.close(figure)
    return path


def bar_chart(path: Path, title: str, groups: list[str], panels: list[Panel], xlabel: str = "") -> Path:
    """Writes an SVG of grouped bars to `path`: in each panel a group per
    entry of `groups` (a load, a case) and in it a bar per system measured,
    its value written on it. Returns `path`."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        colours = _colours(panels)
        figure, axes, legend = _figure(plt, title, panels, colours)
        for ax, panel in zip(axes, panels):
            series = _measured(panel.series)
            width = min(0.8 / max(len(series), 1), 0.16 * len(groups))  # one group: not a wall of colour
            labels = {name: [fmt(v, panel.digits) for v in values if v == v] for name, values in series.items()}
            longest = max((len(text) for texts in labels.values() for text in texts), default=0)
            bar_inches = 0.8 * CHART_WIDTH / len(panels) / len(groups) * width
            upright = longest * 0.06 > bar_inches  # the values would overlap side by side (8 pt: ~0.06 in a digit)
            for i, (name, values) in enumerate(series.items()):
                xs = [g + (i - (len(series) - 1) / 2) * width for g, v in enumerate(values) if v == v]
                ys = [v for v in values if v == v]
                bars = ax.bar(xs, ys, width * 0.92, color=colours[name], label=name)
                ax.bar_label(bars, labels[name], fontsize=7 if upright else 8, rotation=90 if upright else 0,
                             padding=2)
            ax.set_xticks(range(len(groups)), groups)
            ax.set_xlim(-0.5, len(groups) - 0.5)
            ax.grid(axis="x", visible=False)
            if panel.log_y:
                ax.set_yscale("log")
            _number_axis(ax.yaxis, panel.log_y)
            ax.margins(y=0.3 if upright else 0.15)  # room for the values on the bars
            ax.set_ylabel(panel.ylabel)
            ax.set_xlabel(xlabel)
            ax.set_title(panel.title)
        return _save(plt, figure, legend, path)


def line_chart(path: Path, title: str, x: list[float], panels: list[Panel], xlabel: str,
               log_x: bool = False, xticklabels: list[str] | None = None) -> Path:
    """Writes an SVG of lines to `path`: in each panel a line per system
    measured through its values at `x` (a NaN breaks the line), with a
    marker on each measured point. Returns `path`."""
    plt = _pyplot()
    with plt.rc_context(STYLE):
        colours = _colours(panels)
        figure, axes, legend = _figure(plt, title, panels, colours, lines=True)
        for ax, panel in zip(axes, panels):
            for name, values in _measured(panel.series).items():
                ax.plot(x, values, marker="o", markersize=5, linewidth=1.6, color=colours[name], label=name)
            if log_x:
                ax.set_xscale("log")
            if panel.log_y:
                ax.set_yscale("log")
            _number_axis(ax.yaxis, panel.log_y)
            ax.set_xticks(x, xticklabels or [fmt(v) for v in x])
            ax.xaxis.set_minor_formatter(plt.NullFormatter())
            ax.set_ylabel(panel.ylabel)
            ax.set_xlabel(xlabel)
            ax.set_title(panel.title)
        return _save(plt, figure, legend, path)


def cpu_chart(path: Path, title: str, names: dict, skipped: dict, samples: dict, loads: list[str]) -> Path:
    """A chart of run_rounds() results, the same medians as cpu_tables():
    req/s and CPU ms per 1000 requests side by side, a group of bars per
    load and a bar per system measured (skipped ones are left out)."""
    medians = {load: cpu_medians(names, skipped, samples, load) for load in loads}
    measured = [key for key in names if any(key in m for m in medians.values())]
    nan = (float("nan"), float("nan"))

    def series(index: int) -> dict[str, list[float]]:
        return {names[key]: [medians[load].get(key, nan)[index] for load in loads] for key in measured}
    return bar_chart(path, title, loads, [
        Panel("requests per second", series(0), title="throughput"),
        Panel("server CPU ms per 1000 requests", series(1), title="server CPU per request", digits=2),
    ])
