"""Chapter 10's bench of many held clients: `./course bench 10 --held
10000,50000,100000` (bench/10-hub/run imports this).

Per count of clients and per system: clients connect, each sends one GET,
and the system holds each until a worker answers. The worker
(bench/11-hubs/peer_worker --until-released) starts a job per request and
ends none by itself. Once every client is held:

  memory     the proportional set size (PSS, which splits pages that forked
             processes share) of every process of the system, less before
             the clients came, per held client; for the hubs also the part
             in their stack pools, once every hold has trimmed its stack;
             and the kernel's TCP buffers (/proc/net/sockstat), apart;
  take-in    the time from the first connect to the last request held;
  release    the worker lets a tenth of the jobs end, RATE per second
             (2,000), while the rest stay held: the CPU time of the
             system's processes per answer (perf task-clock), and the
             delivery time of each, from the moment the worker posted it
             (its body says when) to its arrival at the client, p50 and p99;
  lost       clients that got anything but their answer, or were dropped;
  dropped    connects the kernel dropped at a full accept queue during
             the take-in (TcpExt ListenDrops: the client's retransmission
             brings each in later);
  stalls     while the answers come, the bench watches both cores
             (benchlib.StallWatch) for stretches in which they ran nothing
             of the systems', the clients' or the worker's: a real-time
             thread on each notes every millisecond's turn that ends late
             (the host, a hypervisor say, or the kernel had the core), and
             perf notes every switch to a task of another program on the
             machine (which a real-time thread cannot see: it takes the
             core from it). Where either took a fifth or more of a core's
             time for a while, that while is a stall: how many stalls took
             over 2 ms, the most one took, which other programs ran and for
             how long, and the p99 of delivery over the answers no stall
             overlapped, the part of the p99 that is the system's own.

This machine lets no process open more than 20,000 files, root included,
so the clients come from several processes (bench/held_clients, Release),
each from its own source address in 127.0.1.0/24, and the hubs are several
chapter 11 hubs sharing the front port (--reuse-port) on one bus, each with
a reply port of its own that its forwards name (X-Hub-Reply-To), where the
worker posts; a second row shares the reply port too, so that the kernel
hands each reply to any hub and most cross the bus; nchan runs as
many nginx workers on a port shared the same way. Pushpin keeps every
client in one process (condure): it runs only where that process can hold
them all. On a machine with a raised limit, one hub holds them all.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import shutil
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import benchlib as b
import peers

HERE = Path(__file__).resolve().parent
PER_PROCESS = 15_000  # clients per hub (or nginx worker) and per load process, below the limit
DESCRIPTORS = 20_000  # what each process may open here
RATE = 2_000          # answers released per second
IN_FLIGHT = 256       # connects under way at once, per client process
NATS_SERVER = shutil.which("nats-server") or "/usr/sbin/nats-server"
CHART = "held-memory.svg"
NAMES = {
    "hub": "hubs (chapter 11) + NATS, replies to the holder",
    "hub-routed": "hubs (chapter 11) + NATS, one shared reply port",
    "nchan": "nchan (nginx workers, reuseport)",
    "pushpin": "Pushpin (GRIP)",
}


@dataclass
class Scale:
    """One system holding `clients` clients: what it cost, and how the answers went."""
    clients: int
    processes: int = 0          # hub processes (or nginx workers) holding them
    take_in: float = math.nan   # seconds from the first connect to all held
    pss: float = math.nan       # bytes per held client, every process of the system
    stacks: float = math.nan    # of which in the hubs' stack pools
    kernel: float = math.nan    # bytes of TCP buffers in the kernel per held client
    released: int = 0           # answers the worker posted and the system took
    answered: int = 0           # of them, 200s that reached their client
    cpu_us: float = math.nan    # CPU of the system per answer, while answers came
    p50_ms: float = math.nan    # delivery: from posted to arrived
    p99_ms: float = math.nan
    lost: int = 0               # clients given anything else, or dropped
    dropped: int = 0            # connects dropped at a full accept queue during the take-in
    stalls: int = 0             # stretches that took over 2 ms of a core from all of ours
    stall_ms: float = math.nan  # the most one of them took
    others: str = ""            # the other programs that ran on the cores, and how long
    clear: int = 0              # answers no stall overlapped
    clear_p99_ms: float = math.nan  # their delivery p99
    note: str = ""              # why there are no figures


@dataclass
class System:
    servers: list[b.Server] = field(default_factory=list)
    port: int = 0
    worker: str = ""
    processes: int = 0
    held: Callable[[], bool] = lambda: True  # every client is held (and, in a hub, trimmed)

    def pids(self) -> list[int]:
        return [pid for s in self.servers for pid in s.pids()]


def pss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
    return total


def listen_drops() -> int:
    """Connects the kernel dropped at a full accept queue, machine-wide (TcpExt ListenDrops)."""
    lines = [line.split() for line in Path("/proc/net/netstat").read_text().splitlines()
             if line.startswith("TcpExt:")]
    return int(dict(zip(lines[0], lines[1]))["ListenDrops"])


def percentile(values: list[float], fraction: float) -> float:
    """The value `fraction` of the way up sorted `values` (nan if none)."""
    return values[min(len(values) - 1, int(len(values) * fraction))] if values else math.nan


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()


def worker(stack, port: int, mode: str, to: str | None) -> b.Server:
    """The worker; in hub mode with `to` None, each reply goes to its forward's X-Hub-Reply-To."""
    binary = b.built(b.BUILD / "bench" / "peer_worker")
    where = ["--follow-reply-to"] if to is None else ["--reply-to" if mode == "hub" else "--publish", to]
    return stack.enter_context(b.Server(
        f"peer_worker {mode}", [str(binary), "--listen", f"127.0.0.1:{port}", "--mode", mode, *where,
                                "--until-released"],
        port, core=b.LOAD_CORE))


def jobs_begun(system: System) -> int:
    return int(fetch(system.worker + "/count"))


def start_hubs(stack, scratch: Path, clients: int, routed: bool = False) -> System:
    """Enough chapter 11 hubs for `clients` on one front port, on one bus.

    Each hub has a reply port of its own, named in its forwards'
    X-Hub-Reply-To, and the worker posts each reply there: to the hub that
    holds the client, as it would to one hub holding them all. `routed`
    shares one reply port among them instead, and the worker posts every
    reply to it: the kernel hands each to any hub, and most cross the bus."""
    program = b.built(b.BUILD / "bin" / "ch11" / "hub")
    b.need(NATS_SERVER)
    system = System(processes=math.ceil(clients / PER_PROCESS))
    if routed and system.processes == 1:
        raise b.Skip("one hub holds them all: no reply to route")
    bus_port = b.free_port()
    system.servers.append(stack.enter_context(
        b.Server("nats-server", [NATS_SERVER, "-a", "127.0.0.1", "-p", str(bus_port)], bus_port)))
    system.port, work = b.free_port(), b.free_port()
    replies = [b.free_port()] * system.processes if routed else \
        [b.free_port() for _ in range(system.processes)]
    for n, reply_port in enumerate(replies):
        system.servers.append(stack.enter_context(b.Server(f"hub h{n}", [
            str(program), "--listen", f"127.0.0.1:{system.port}", "--reply-listen", f"127.0.0.1:{reply_port}",
            "--backend", f"127.0.0.1:{work}", "--bus", f"nats://127.0.0.1:{bus_port}", "--hub-id", f"h{n}",
            "--reuse-port", "--timeout-ms", "3600000", "--max-pending", str(DESCRIPTORS)], reply_port)))
    worker(stack, work, "hub", f"127.0.0.1:{replies[0]}" if routed else None)
    system.worker = f"http://127.0.0.1:{work}"

    def hubs() -> list[dict]:
        """Every hub's /stats; [] until each has answered."""
        if not routed:
            return [json.loads(fetch(f"http://127.0.0.1:{port}/stats")) for port in replies]
        # A shared reply port: each /stats comes from whichever hub the
        # connection reached. Ask until every hub has answered lately.
        seen: dict[str, dict] = {}
        for _ in range(50 * system.processes):
            stats = json.loads(fetch(f"http://127.0.0.1:{replies[0]}/stats"))
            seen[stats["bus"]["hub"]] = stats
            if len(seen) == system.processes:
                return list(seen.values())
        return []

    def joined() -> bool:
        every = hubs()
        return bool(every) and all(h["bus"]["connected"] for h in every)

    def held() -> bool:
        every = hubs()
        return bool(every) and sum(h["pending"] for h in every) >= clients and \
            all(h["trimmed"] >= h["pending"] for h in every)

    if not b.poll_until(joined, 30):
        raise b.Skip("the hubs did not all listen and join their bus within 30 s")
    system.held = held
    return system


def start_nchan(stack, scratch: Path, clients: int) -> System:
    b.need("nginx")
    if not Path("/usr/lib/nginx/modules/ngx_nchan_module.so").exists():
        raise b.Skip("nchan is not installed (Debian package libnginx-mod-nchan)")
    system = System(processes=math.ceil(clients / PER_PROCESS))
    system.port, work = b.free_port(), b.free_port()
    for folder in ("body", "proxy"):
        (scratch / folder).mkdir()
    conf = peers.configure(HERE / "nchan-held.conf.in", scratch, system.port, WORKER=str(work),
                           WORKERS=str(system.processes), FILES=str(DESCRIPTORS),
                           CONNECTIONS=str(DESCRIPTORS - 1000))
    system.servers.append(stack.enter_context(
        b.Server("nchan", ["nginx", "-p", str(scratch), "-c", str(conf)], system.port)))
    worker(stack, work, "nchan", f"127.0.0.1:{system.port}")
    system.worker = f"http://127.0.0.1:{work}"
    system.held = settled(system, clients)
    return system


def start_pushpin(stack, scratch: Path, clients: int) -> System:
    b.need("pushpin")
    if clients > PER_PROCESS:
        raise b.Skip(f"stops before {clients:,}: condure, one process, holds every client, and no "
                     f"process here may open more than {DESCRIPTORS:,} files")
    system = System(processes=1)
    system.port, publish, work = b.free_port(), b.free_port(), b.free_port()
    for folder in ("run", "log"):
        (scratch / folder).mkdir()
    (scratch / "routes").write_text(f"* 127.0.0.1:{work}\n")
    conf = peers.configure(b.ROOT / "bench" / "11-hubs" / "pushpin.conf.in", scratch, system.port,
                           PUBLISH_PORT=str(publish), PUSH_PORT=str(b.free_port()),
                           SUB_PORT=str(b.free_port()), COMMAND_PORT=str(b.free_port()))
    system.servers.append(stack.enter_context(b.Server("pushpin", ["pushpin", "--config", str(conf)], system.port)))
    worker(stack, work, "grip", f"127.0.0.1:{publish}")
    if not b.wait_listening(publish):
        raise b.Skip(f"Pushpin's publish port {publish} does not listen")
    system.worker = f"http://127.0.0.1:{work}"
    # Pushpin subscribes to a client's channel after the worker's answer to
    # its request, and says nothing of it outside ZeroMQ: once every job has
    # begun, its memory has to stop growing.
    system.held = settled(system, clients)
    return system


def settled(system: System, clients: int) -> Callable[[], bool]:
    """A test that every job has begun and the system's memory has stopped
    growing since the test before (called a second apart)."""
    last = [-1]

    def held() -> bool:
        if jobs_begun(system) < clients:
            return False
        now = pss_bytes(system.pids())
        before, last[0] = last[0], now
        return before >= 0 and abs(now - before) <= 0.01 * now
    return held


STARTERS = {"hub": start_hubs, "hub-routed": functools.partial(start_hubs, routed=True),
            "nchan": start_nchan, "pushpin": start_pushpin}


class Loads:
    """The client processes: PER_PROCESS clients each at most, each from its own address."""

    def __init__(self, stack, port: int, clients: int, in_flight: int) -> None:
        binary = b.built(b.BUILD / "bench" / "held_clients")
        count = math.ceil(clients / PER_PROCESS)
        self.processes = []
        for n in range(count):
            share = clients // count + (1 if n < clients % count else 0)
            process = subprocess.Popen(
                b.pinned(b.LOAD_CORE, [str(binary), "--connect", f"127.0.0.1:{port}", "--from",
                                       f"127.0.1.{n + 1}", "--clients", str(share),
                                       "--in-flight", str(in_flight)]),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            stack.callback(self._stop, process)
            self.processes.append(process)

    @staticmethod
    def _stop(process: subprocess.Popen) -> None:
        with contextlib.suppress(OSError):
            process.stdin.close()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def sent(self) -> int:
        """Waits for every process to have sent its requests; how many it sent."""
        return sum(int(p.stdout.readline().split()[1]) for p in self.processes)

    def reports(self) -> list[dict]:
        for p in self.processes:
            p.stdin.write("report\n")
            p.stdin.flush()
        return [json.loads(p.stdout.readline()) for p in self.processes]


STALL = 20  # seconds without a job begun, and the system is taken to hold no more


def taken_in(system: System, sent: int) -> bool:
    """Waits until every request sent has begun a job; False once none has for STALL seconds."""
    progress = [0, time.monotonic()]

    def done() -> bool:
        jobs = jobs_begun(system)
        if jobs > progress[0]:
            progress[:] = [jobs, time.monotonic()]
        return jobs >= sent or time.monotonic() - progress[1] > STALL
    b.poll_until(done, 24 * 3600)
    return progress[0] >= sent


def turned_away(reports: list[dict]) -> str:
    """What the clients that were not held got instead, e.g. '; 5,536 were answered 502'."""
    answered: dict[str, int] = {}
    for r in reports:
        for status, n in r["statuses"].items():
            answered[status] = answered.get(status, 0) + n
    closed = sum(r["closed"] for r in reports)
    said = [f"{n:,} were answered {status}" for status, n in sorted(answered.items())]
    said += [f"{closed:,} were closed without an answer"] if closed else []
    return "; " + ", ".join(said) if said else ""


def measure(key: str, clients: int) -> Scale:
    """A fresh `key` holding `clients`, then answering a tenth of them."""
    scale = Scale(clients)
    b.allow_descriptors(DESCRIPTORS)
    with contextlib.ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"rdv-held-{key}-")))
        try:
            system = STARTERS[key](stack, scratch, clients)
        except b.Skip as why:
            scale.note = str(why)
            return scale
        scale.processes = system.processes
        pids = system.pids()
        before = (pss_bytes(pids), b.stack_pool_rss(pids), b.tcp_memory_bytes())
        began, drops = time.monotonic(), listen_drops()
        loads = Loads(stack, system.port, clients, IN_FLIGHT)
        sent = loads.sent()
        if not taken_in(system, sent):
            scale.note = (f"stops at {jobs_begun(system):,} held: the other requests of {sent:,} sent "
                          f"did not reach the worker, nor did any in the last {STALL} s"
                          f"{turned_away(loads.reports())}")
            return scale
        scale.take_in = time.monotonic() - began
        scale.dropped = listen_drops() - drops
        if not b.poll_until(system.held, 120, every=1):
            scale.note = "not every client was held (and trimmed) within 120 s of the last one's job"
            return scale
        pids = system.pids()  # nginx's workers, Pushpin's helpers: there by now
        scale.pss = (pss_bytes(pids) - before[0]) / sent
        scale.stacks = (b.stack_pool_rss(pids) - before[1]) / sent if key.startswith("hub") else math.nan
        scale.kernel = max(b.tcp_memory_bytes() - before[2], 0) / sent  # machine-wide: clamp
        release = sent // 10
        with b.StallWatch([b.SERVER_CORE, b.LOAD_CORE]) as watch, b.task_clock(pids) as clock:
            fetch(f"{system.worker}/release/{release}/{RATE}")
            b.poll_until(lambda: int(fetch(system.worker + "/released")) >= release,
                         release / RATE + 60)
            answers = 0

            def all_answered() -> bool:
                nonlocal answers
                reports = loads.reports()
                answers = sum(r["statuses"].get("200", 0) for r in reports)
                return answers >= release
            b.poll_until(all_answered, 30, every=0.2)
        reports = loads.reports()
        scale.released = int(fetch(system.worker + "/released"))
        scale.answered = sum(r["statuses"].get("200", 0) for r in reports)
        delivered = [(posted, us) for r in reports for posted, us in zip(r["posted_ns"], r["latency_us"])]
        latencies = sorted(us / 1000 for _, us in delivered)
        scale.p50_ms, scale.p99_ms = percentile(latencies, 0.5), percentile(latencies, 0.99)
        stalls = watch.taken()
        scale.stalls, scale.stall_ms = len(stalls), max(stalls, default=0.0)
        scale.others = ", ".join(f"{name} {ms:.0f} ms" for name, ms in
                                 sorted(watch.others.items(), key=lambda item: -item[1])[:3] if ms >= 1)
        clear = sorted(us / 1000 for posted, us in delivered if not watch.touches(posted, posted + int(us * 1000)))
        scale.clear, scale.clear_p99_ms = len(clear), percentile(clear, 0.99)
        if clock.seconds is not None and scale.answered:
            scale.cpu_us = clock.seconds * 1e6 / scale.answered
        others = sum(n for r in reports for s, n in r["statuses"].items() if s != "200")
        scale.lost = (clients - sent) + others + sum(r["closed"] for r in reports) + \
            max(scale.released - scale.answered, 0)
    return scale


def run(counts: list[int], systems: list[str], write: bool) -> int:
    results: dict[tuple[str, int], Scale] = {}
    b.warn(f"  how long the host keeps CPU {b.SERVER_CORE} from a thread that asks for it (10 s)")
    stalls = b.host_stalls(b.SERVER_CORE, 10)
    for clients in counts:
        for key in systems:
            b.warn(f"  {clients:,} clients held by {NAMES[key]}")
            results[(key, clients)] = scale = measure(key, clients)
            if scale.note:
                b.warn(f"    {scale.note}")
    header = (f"Chapter 10 benchmark of held clients — {b.machine()}; the systems on CPU {b.SERVER_CORE}, "
              f"the worker and the clients on CPU {b.LOAD_CORE}; a tenth of the clients answered, "
              f"{RATE:,} per second, while the rest stay held; before the run, {stalls}")
    text, markdown = tables(results, counts, systems, stalls)
    print("\n" + header + "\n\n" + text + "\n")
    if write:
        print(f"wrote {chart(HERE / CHART, results, counts, systems).relative_to(b.ROOT)}")
        (HERE / "held.md").write_text("\n".join([f"Measured with `./course bench 10 --held "
                                                 f"{','.join(map(str, counts))}` ({header}).", ""] + markdown))
        print(f"wrote {(HERE / 'held.md').relative_to(b.ROOT)}")
    return 0


HEADERS = ["system", "processes", "take-in s", "KiB per held client", "KiB in stacks",
           "KiB of TCP buffers in the kernel", "answers", "CPU µs per answer", "delivery p50 ms",
           "delivery p99 ms", "lost", "connects dropped at a full queue", "stalls over 2 ms (most ms taken)",
           "p99 ms of the answers no stall touched"]


def tables(results, counts, systems, stalls: b.Stalls) -> tuple[str, list[str]]:
    text, markdown = [], []
    for clients in counts:
        rows = []
        for key in systems:
            s = results[(key, clients)]
            if s.note:
                rows.append([NAMES[key], s.note] + [""] * (len(HEADERS) - 2))
                continue
            rows.append([NAMES[key], str(s.processes), b.fmt(s.take_in, 1), b.fmt(s.pss / 1024, 1),
                         b.fmt(s.stacks / 1024, 1) if key.startswith("hub") else "—", b.fmt(s.kernel / 1024, 1),
                         f"{s.answered:,} of {s.clients // 10:,}", b.fmt(s.cpu_us, 1), b.fmt(s.p50_ms, 2),
                         b.fmt(s.p99_ms, 2), f"{s.lost:,}", f"{s.dropped:,}",
                         f"{s.stalls:,} ({s.stall_ms:.1f})", b.fmt(s.clear_p99_ms, 2)])
        title = f"{clients:,} clients held"
        text.append(b.table(title, HEADERS, rows))
        markdown += b.markdown_table(f"**{title}**", HEADERS, rows)
    targets = target_lines(results, counts, stalls)
    text.append("Targets:\n" + "\n".join("  " + t for t in targets))
    markdown += ["Targets:", ""] + [f"- {b.in_code(t)}" for t in targets] + [""]
    return "\n\n".join(text), markdown


def target_lines(results, counts, stalls: b.Stalls) -> list[str]:
    most = max(counts)
    hub = results.get(("hub", most))
    if hub is None or hub.note:
        return [f"✗ the hubs did not hold {most:,} clients: {hub.note if hub else 'not measured'}"]

    def line(ok: bool, text: str) -> str:
        return ("✓ " if ok else "✗ ") + text
    lines = [
        line(hub.lost == 0 and hub.answered == most // 10,
             f"{most:,} clients held, {hub.lost:,} lost, {hub.answered:,} of {most // 10:,} answered"),
        line(hub.pss <= 6 * 1024, f"{hub.pss / 1024:.1f} KiB per held client in user space at {most:,} "
                                  f"(at most 6 KiB)"),
        # A host or a program that takes the core away for longer than the
        # target puts some answers past it whatever the hub does: the line
        # says how long.
        line(hub.p99_ms <= 10, f"delivery p99 {hub.p99_ms:.2f} ms at {most:,} held (at most 10 ms; before the "
                               f"run the host stalled CPU {stalls.core} for up to {stalls.worst_ms:.1f} ms, while "
                               f"the answers came the host or other programs took over 2 ms of a core "
                               f"{hub.stalls:,} times, up to {hub.stall_ms:.1f} ms"
                               + (f" ({hub.others})" if hub.others else "") +
                               f"; the {hub.clear:,} answers no stall touched: p99 {hub.clear_p99_ms:.2f} ms)"),
    ]
    for key in ("nchan", "pushpin"):
        peer = results.get((key, most))
        if peer and not peer.note:
            lines.append(line(hub.pss < peer.pss, f"{hub.pss / peer.pss:.2f}× {NAMES[key]}'s memory per "
                                                  f"held client at {most:,} (below 1×)"))
    return lines


def chart(path: Path, results, counts, systems) -> Path:
    panels = [b.Panel("KiB per held client", {NAMES[k]: [results[(k, c)].pss / 1024 for c in counts]
                                              for k in systems}),
              b.Panel("delivery p99 (ms)", {NAMES[k]: [results[(k, c)].p99_ms for c in counts]
                                            for k in systems})]
    return b.line_chart(path, "Chapter 10: memory and delivery against clients held", [float(c) for c in counts],
                        panels, "clients held")
