"""./course doctor: what this machine has of what the course needs, each
line ✓, or ✗ with the one command that fixes it. Reads only: it installs
and builds nothing."""

from __future__ import annotations

import dataclasses
import os
import resource
from collections.abc import Callable

from . import machine, packages, ui

# What the course's commands need, measured on a full build of every preset
# that ./course test, book, verify and bench use (see CONTRIBUTING.md).
DISK_NEEDED = 12 * 2**30
# Chapter 7's tests hold 1,000 clients and the server's 1,000 sockets in one
# process. Debian's default soft limit, 1024, is too few; its hard limit
# is not, and ./course raises the soft one (machine.raise_open_files).
OPEN_FILES_NEEDED = 4096
# GCC 12's ThreadSanitizer cannot map its shadow memory when the kernel
# randomises more than 28 bits of mmap addresses (newer kernels may use 32).
TSAN_MMAP_RND_BITS = 28
# Where ./course book serves the book; a container listens on every
# interface instead, for the host's forwarded port to reach it.
BOOK_LISTEN_VARIABLE = "COURSE_BOOK_LISTEN"
BOOK_LISTEN = os.environ.get(BOOK_LISTEN_VARIABLE, "127.0.0.1:8000")


@dataclasses.dataclass
class Finding:
    """One line of the report: ok is None for a fact that is neither good nor bad."""
    ok: bool | None
    what: str
    detail: str
    fix: str = ""

    def show(self) -> None:
        mark = {True: ui.green(ui.PASS), False: ui.red(ui.FAIL), None: ui.dim("·")}[self.ok]
        ui.say(f"  {mark} {self.what}: {self.detail}")
        if self.fix:
            ui.say(f"      fix: {self.fix}")


def _release() -> list[Finding]:
    rel = packages.release()
    if not rel.debian_like:
        return [Finding(False, "system", f"{rel.name}: the course installs its packages with apt, and its "
                        "servers use Linux's epoll, sendfile and openat2",
                        "use the dev container (README, \"On macOS or Windows\")")]
    if rel.known:
        return [Finding(True, "system", f"{rel.name}, a release the course is tested on")]
    return [Finding(False, "system", f"{rel.name}: Debian-like, but not a release the course is tested on "
                    f"({', '.join(packages.KNOWN_RELEASES.values())}); it will try",
                    "if a package is missing, use the dev container (README, \"On macOS or Windows\")")]


def _packages() -> list[Finding]:
    if not packages.can_install():
        return [Finding(None, "packages", "not a Debian system; by hand, their Debian 13 names are: " +
                        " ".join(packages.reference_names(packages.BUILD + packages.BOOK)))]
    found = []
    absent = packages.missing(packages.BUILD + packages.BOOK)
    if absent:
        found.append(Finding(False, "packages for building, testing and the book", f"{len(absent)} missing: "
                             f"{' '.join(absent)}", "./course test   (it installs them, with sudo if needed)"))
    else:
        found.append(Finding(True, "packages for building, testing and the book", "all installed"))
    for label, templates, command in (("./course verify", packages.VERIFY, "./course verify --quick"),
                                      ("./course watch", packages.WATCH, "./course watch NN"),
                                      ("./course bench", packages.BENCH, "./course bench NN")):
        absent = packages.missing(templates)
        found.append(Finding(None, f"packages for {label}",
                             f"{len(absent)} not installed yet; {command} installs them when first run"
                             if absent else "all installed"))
    absent = packages.missing(packages.perf())
    found.append(Finding(None, "perf, for the benchmarks' CPU columns",
                         f"not installed ({' '.join(absent)}); ./course bench NN installs it where apt offers it"
                         if absent else "installed"))
    return found


def _tools() -> list[Finding]:
    found = []
    checks: list[tuple[str, str | None, tuple[int, ...], str]] = [
        ("g++", machine.version_of(["g++", "-dumpfullversion"], r"(\d+[.\d]*)"), (12,), "C++20"),
        ("clang", machine.version_of(["clang", "--version"], r"clang version (\d+[.\d]*)"), (14,),
         "the fuzz target"),
        ("CMake", machine.version_of(["cmake", "--version"], r"cmake version (\d+[.\d]*)"), (3, 25),
         "the presets"),
        ("Boost", machine.boost_installed(), (1, packages.OLDEST_BOOST), "Asio's spawn on Boost.Context"),
        ("Doxygen", machine.version_of(["doxygen", "--version"], r"(\d+[.\d]*)"), (1, 9, 4), "the book"),
    ]
    for name, version, oldest, why in checks:
        wanted = ".".join(map(str, oldest))
        if version is None:
            found.append(Finding(False, name, f"not installed (needs {wanted} or newer, for {why})",
                                 "./course test (it installs it)"))
        elif machine.as_tuple(version) < oldest:
            found.append(Finding(False, name, f"{version}, older than {wanted} (for {why})",
                                 "use a newer release, or the dev container"))
        else:
            found.append(Finding(True, name, version))
    return found


def _disk() -> list[Finding]:
    free = machine.free_disk_bytes()
    text = f"{free / 2**30:.1f} GiB free where the repository is ({DISK_NEEDED / 2**30:.0f} GiB for every build)"
    if free >= DISK_NEEDED:
        return [Finding(True, "disk", text)]
    return [Finding(False, "disk", text, "free some space, or remove old builds: rm -rf build/asan build/fuzz")]


def _open_files() -> list[Finding]:
    soft, hard = machine.open_files_limit()
    unlimited = hard == resource.RLIM_INFINITY
    if soft >= OPEN_FILES_NEEDED:
        return [Finding(True, "ulimit -n", f"{soft} open files per process")]
    if unlimited or hard >= OPEN_FILES_NEEDED:
        return [Finding(True, "ulimit -n", f"{soft} open files per process, but ./course raises it to "
                        f"{machine.open_files_target()} for what it runs (the hard limit allows it); for a "
                        f"program you start yourself, raise it first: ulimit -n {machine.open_files_target()}")]
    fresh = machine.init_open_files_hard_limit()
    if fresh is not None and (fresh == resource.RLIM_INFINITY or fresh >= OPEN_FILES_NEEDED):
        fix = (f"open a new terminal (or log in again): this shell lowered its own hard limit, and a new "
               f"one starts from {fresh if fresh != resource.RLIM_INFINITY else 'no limit'}")
    elif machine.in_container():
        fix = ("start the container with a higher limit: docker run --ulimit nofile=65536:65536 ... "
               "(the dev container's devcontainer.json does)")
    elif os.geteuid() == 0:
        fix = f"ulimit -n {OPEN_FILES_NEEDED}   (as root you may raise the hard limit)"
    else:
        fix = ("open a new terminal: the hard limit comes back with a new login (if it is as low there, raise it "
               f"in /etc/security/limits.d/: '* hard nofile {OPEN_FILES_NEEDED * 16}')")
    return [Finding(False, "ulimit -n", f"{soft} open files per process, and the hard limit is {hard}: chapter "
                    f"7's tests hold 1,000 clients and the server's 1,000 sockets in one process, chapter 10's "
                    f"a hub and 500 clients; they need {OPEN_FILES_NEEDED}", fix)]


def _ports(book_listen: str) -> list[Finding]:
    host, _, port = book_listen.rpartition(":")
    book = machine.DefaultAddress("", "the book", "--listen", host, int(port))
    found, seen = [], set()
    for default in [book] + machine.default_addresses():
        if default.port in seen:
            continue
        seen.add(default.port)
        user = "./course book" if not default.chapter else f"chapter {default.chapter}'s {default.program}"
        if machine.can_listen(default.host, default.port):
            found.append(Finding(True, f"port {default.port}", f"free, for {user}"))
            continue
        other = f"{default.host}:{machine.free_port_near(default.host, default.port)}"
        holder = machine.listener(default.port)
        retry = (f"./course book --listen {other}" if not default.chapter else
                 f"./course run {default.chapter} {default.program} {default.flag} {other}")
        found.append(Finding(False, f"port {default.port}",
                             f"{'in use by ' + str(holder) if holder else 'not available'}, and {user} listens "
                             "there by default", retry + (f"   (or stop PID {holder.pid})" if holder and holder.pid else "")))
    return found


def _kernel() -> list[Finding]:
    found = []
    release = os.uname().release
    found.append(Finding(machine.has_openat2(), "openat2(2)",
                         f"Linux {release}: chapter 8 opens files beneath its root with RESOLVE_BENEATH",
                         "" if machine.has_openat2() else "use Linux 5.6 or newer (or the dev container on a newer host)"))
    found.append(Finding(machine.has_reuse_port(), "SO_REUSEPORT", "chapter 11's hubs share one port",
                         "" if machine.has_reuse_port() else "use Linux 3.9 or newer"))
    guard = machine.kernel_release() >= (6, 13)
    found.append(Finding(None, "MADV_GUARD_INSTALL",
                         "present: chapter 3's guard-page test runs" if guard else
                         "absent before Linux 6.13: chapter 3's guard-page test is skipped, with its reason"))
    congestion = machine.sysctl("net.ipv4.tcp_congestion_control") or "unknown"
    effect = {"bbr": "BBR paces each connection, so chapter 8's CPU figures differ from CUBIC's; "
                     "./course bench 08 measures under both",
              "cubic": "Debian's default; ./course bench 08 also measures under BBR"}.get(
        congestion, "./course bench 08 measures under cubic and bbr")
    found.append(Finding(None, "TCP congestion control", f"{congestion}: {effect}"))
    bits = machine.sysctl("vm.mmap_rnd_bits")
    if bits is not None and int(bits) > TSAN_MMAP_RND_BITS:
        found.append(Finding(False, "vm.mmap_rnd_bits", f"{bits}: ThreadSanitizer (./course test --preset tsan) "
                             "may stop at once with 'unexpected memory mapping'",
                             f"sudo sysctl vm.mmap_rnd_bits={TSAN_MMAP_RND_BITS}"))
    elif bits is not None:
        found.append(Finding(True, "vm.mmap_rnd_bits", f"{bits}: ThreadSanitizer can map its memory"))
    return found


SECTIONS: list[tuple[str, Callable[[], list[Finding]]]] = [
    ("System", _release), ("Packages", _packages), ("Compilers and tools", _tools),
    ("Resources", lambda: _disk() + _open_files()), ("Kernel", _kernel),
]


def run(book_listen: str = BOOK_LISTEN) -> int:
    """Prints the whole report; returns 1 if anything is ✗."""
    problems = 0
    for title, check in SECTIONS + [("Ports", lambda: _ports(book_listen))]:
        ui.say(ui.bold(title))
        for finding in check():
            finding.show()
            problems += finding.ok is False
    ui.say()
    ui.say(ui.green("Everything the course needs is here.") if not problems else
           f"{problems} thing(s) to fix; each ✗ line says how.")
    return 1 if problems else 0


def warnings_for(command: str, preset: str = "dev") -> list[Finding]:
    """The ✗ findings that would make `command` fail, cheap to check: shown
    before it starts, so that a learner reads the cause and not its symptom."""
    found = _disk()
    if command in ("test", "check", "verify"):
        found += _open_files()
    if preset == "tsan":
        found += [f for f in _kernel() if f.what == "vm.mmap_rnd_bits"]
    return [f for f in found if f.ok is False]
