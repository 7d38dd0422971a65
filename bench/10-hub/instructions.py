"""Chapter 10's counted bench: `./course bench 10 --instructions` (bench/10-hub/run
imports this).

The CPU time the main bench measures drifts with the host: on a shared
virtual machine one five-second round of a system can cost a fifth more or
less than the next, and a change worth a few per cent disappears in that.
This bench counts instead what does not drift, per request, for the hub
(per rendezvous) and for nginx as a reverse proxy (per proxied request),
set up as the main bench sets them up:

  instructions  run in user space, counted by Valgrind's callgrind with
                counting switched on (callgrind_control -i on) only while
                wrk loads the system, after a warm-up; the system runs
                under Valgrind for this, about fifty times slower;
  system calls  made, by name, counted by `perf trace -s` on the system
                running at full speed (skipped where perf cannot trace).

Both come from the server process alone: the hub's worker and nginx's
process-server run beside it uncounted, as in the main bench. With
--baseline DIR it counts another build's hub too (DIR/bin/hub and
DIR/bin/worker), which is how a change is measured against the code before
it.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import benchlib as b
import peers

HERE = Path(__file__).resolve().parent
RESULTS = "instructions.md"  # beside results.md: {{result 10:instructions ...}}
WARM_SECONDS = 2  # of wrk before counting: connections, pools and caches made


@dataclass
class Count:
    """What one system did per request."""
    instructions: float = float("nan")
    calls: dict[str, float] = field(default_factory=dict)  # system call -> per request
    note: str = ""  # why there are no figures, if there are none


@dataclass
class Setup:
    """How to start a system: its backend first, then the server itself."""
    name: str
    backend: list[str]  # argv, listening on {backend}
    server: list[str]   # argv, listening on {port}, its backend at {backend}
    config: Path | None = None  # an nginx configuration template, if it is nginx


def setups(baseline: Path | None) -> list[tuple[str, Setup]]:
    """The systems counted, by key: this build's hub, a baseline's, nginx."""
    def hub(build: Path, name: str) -> Setup:
        return Setup(name, [str(build / "bin" / "worker"), "--listen", "127.0.0.1:{backend}"],
                     [str(build / "bin" / "hub"), "--listen", "127.0.0.1:{port}", "--reply-listen",
                      "127.0.0.1:{replies}", "--backend", "127.0.0.1:{backend}"])
    systems = [("hub", hub(b.BUILD, "hub + worker (chapter 10)"))]
    if baseline:
        systems.append(("before", hub(baseline, f"hub + worker, baseline ({baseline})")))
    version = f" {peers.nginx_version()}" if shutil.which("nginx") else ""
    systems.append(("nginx", Setup(f"nginx{version} (proxy_pass, keepalive 1024)",
                                   [str(b.BUILD / "bin" / "process-server"), "--listen", "127.0.0.1:{backend}",
                                    "--idle-ms", "600000"],
                                   ["nginx", "-p", "{scratch}", "-c", "{config}"],
                                   HERE / "nginx-proxy.conf.in")))
    return systems


def start(stack: contextlib.ExitStack, setup: Setup, scratch: Path, prefix: list[str]) -> b.Server:
    """Starts the system's backend on the load's core, and the server,
    behind `prefix` (Valgrind's command line, or nothing), on its own."""
    backend, port = b.free_port(), b.free_port()
    fill = {"backend": str(backend), "port": str(port), "replies": str(b.free_port()), "scratch": str(scratch)}
    if setup.config:
        fill["config"] = str(peers.configure(setup.config, scratch, port, BACKEND=f"127.0.0.1:{backend}"))
    stack.enter_context(b.Server(f"{setup.name}: backend", [a.format(**fill) for a in setup.backend], backend,
                                 core=b.LOAD_CORE))
    return stack.enter_context(b.Server(setup.name, prefix + [a.format(**fill) for a in setup.server], port))


def load(server: b.Server, clients: int, seconds: int) -> int:
    """wrk against `server` for `seconds`; the requests it made, all answered."""
    result = b.wrk(server.url + "/test", 1, clients, seconds, timeout=30)
    if result["failed"]:
        raise b.Skip(f"{result['failed']} of {result['requests']} requests failed ({result['failures']})")
    return result["requests"]


def instructions(setup: Setup, clients: int, seconds: int, keep: Path | None = None) -> float:
    """Instructions in user space per request: callgrind, counting only
    while wrk loads the system. The profile is copied to `keep`, if given."""
    with tempfile.TemporaryDirectory(prefix="rdv-bench-10-count-") as scratch:
        out = Path(scratch) / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
        with contextlib.ExitStack() as stack:
            server = start(stack, setup, Path(scratch), valgrind)
            load(server, clients, WARM_SECONDS)
            pid = str(server.process.pid)  # Valgrind runs the program in its own process
            subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
            requests = load(server, clients, seconds)
            subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
            # Written now, to OUT.1, while the program runs: nginx under
            # Valgrind takes its time to stop.
            subprocess.run(["callgrind_control", "-d", pid], check=True, capture_output=True)
            dump = out.with_name(out.name + ".1")
            totals = re.search(r"^totals:\s+(\d+)", dump.read_text(errors="replace") if dump.exists() else "",
                               re.MULTILINE)
            if totals and keep:
                keep.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(dump, keep)
        if not totals:
            raise b.Skip(f"callgrind wrote no totals to {dump.name}")
        return int(totals[1]) / requests


def system_calls(setup: Setup, clients: int, seconds: int) -> dict[str, float]:
    """System calls per request, by name: perf trace -s on the server at
    full speed. Empty if perf cannot trace here."""
    if not shutil.which("perf"):
        return {}
    with tempfile.TemporaryDirectory(prefix="rdv-bench-10-calls-") as scratch, contextlib.ExitStack() as stack:
        server = start(stack, setup, Path(scratch), [])
        load(server, clients, WARM_SECONDS)
        report = Path(scratch) / "trace.txt"
        trace = subprocess.Popen(["perf", "trace", "-s", "-p", str(server.process.pid), "-o", str(report)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)  # let perf attach before the load starts
        requests = load(server, clients, seconds)
        trace.send_signal(signal.SIGINT)  # perf prints its summary
        _, err = trace.communicate(timeout=30)
        text = report.read_text() if report.exists() else ""
    calls: dict[str, float] = {}
    for name, count in re.findall(r"^\s+([a-z_0-9]+)\s+(\d+)\s+\d+", text, re.MULTILINE):
        calls[name] = calls.get(name, 0) + int(count) / requests
    if not calls:
        b.warn(f"perf trace counted nothing: {err[-300:]}")
    return calls


# A system call gets a column of its own if some system makes this many per
# request; the rest are summed in "other calls".
SHOWN = 0.05


def run(clients: int, seconds: int, baseline: Path | None, write: bool, profiles: Path | None = None) -> int:
    b.need("wrk", "valgrind", "callgrind_control")
    counts: dict[str, Count] = {}
    names: dict[str, str] = {}
    for key, setup in setups(baseline):
        names[key] = setup.name
        b.warn(f"  counting {setup.name}")
        try:
            if setup.config:
                b.need("nginx")
            keep = profiles / f"{key}.callgrind" if profiles else None
            counts[key] = Count(instructions(setup, clients, seconds, keep), system_calls(setup, clients, seconds))
        except b.Skip as why:
            counts[key] = Count(note=f"skipped: {why}")
    header = (f"Chapter 10 counted benchmark — {b.machine()}; each server alone on CPU {b.SERVER_CORE}, its "
              f"backend and wrk on CPU {b.LOAD_CORE}; wrk -t1 -c{clients} -d{seconds}s after {WARM_SECONDS} s "
              f"of warm-up; instructions under callgrind, system calls by perf trace at full speed")
    text, markdown = tables(names, counts, clients)
    print("\n" + header + "\n\n" + text + "\n")
    if write:
        (HERE / RESULTS).write_text("\n".join([f"Measured with `./course bench 10 --instructions` ({header}).", ""]
                                              + markdown))
        print(f"wrote {(HERE / RESULTS).relative_to(b.ROOT)}")
    if profiles:
        print(f"callgrind's profiles are in {profiles}: callgrind_annotate {profiles}/hub.callgrind")
    return 0


def tables(names: dict[str, str], counts: dict[str, Count], clients: int) -> tuple[str, list[str]]:
    """The table of counts per request, and the system calls by name, as text
    and as Markdown lines."""
    nginx = counts.get("nginx", Count())
    title = f"per request, wrk -c{clients}"
    most: dict[str, float] = {}
    for count in counts.values():
        for call, per_request in count.calls.items():
            most[call] = max(most.get(call, 0.0), per_request)
    shown = sorted((c for c, n in most.items() if n >= SHOWN), key=lambda c: -most[c])
    headers = ["system", "instructions", "instructions vs nginx", "system calls", *shown, "other calls"]
    rows = []
    for key, name in names.items():
        count = counts[key]
        if count.note:
            rows.append([name, count.note] + [""] * (len(headers) - 2))
            continue
        total = sum(count.calls.values()) if count.calls else float("nan")
        rows.append([name, b.fmt(count.instructions), b.ratio(count.instructions, nginx.instructions),
                     b.fmt(total, 2), *(b.fmt(count.calls.get(c, 0.0), 2) for c in shown),
                     b.fmt(total - sum(count.calls.get(c, 0.0) for c in shown), 2)])
    return b.table(title, headers, rows), b.markdown_table(f"`{title}`", headers, rows)
