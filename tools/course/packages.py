"""The Debian packages the course needs, named as apt names them here, and
installed on first use.

Releases name their versioned packages differently (Boost 1.81 on Debian 12,
1.83 on Debian 13 and Ubuntu 24.04; LLVM 14, 19, 18), so the lists below say
`{boost}` and `{llvm}` and `resolve()` fills them in from what this machine
has installed or apt offers."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import ui

# What building and testing the course needs.
BUILD = ["cmake", "ninja-build", "g++", "clang", "libclang-rt-{llvm}-dev", "ccache", "git",
         "libboost{boost}-dev", "libboost-context{boost}-dev", "libboost-json{boost}-dev",
         "libgtest-dev", "libhttp-parser-dev", "libpugixml-dev", "netcat-openbsd", "iproute2",
         "util-linux", "procps",
         "doxygen", "graphviz", "doxygen-awesome-css",
         # chapter 11: the NATS C client, the server its tests start, and
         # openssl, which makes their nkeys and certificates
         "libnats-dev", "pkg-config", "nats-server", "openssl"]
# What writing the book needs (installed with the build: CMake looks for it
# when it configures, and ./course test and ./course book share one build).
BOOK = ["doxygen", "graphviz", "doxygen-awesome-css"]
# What ./course watch needs.
WATCH = ["inotify-tools"]
# The clang-format that judges the code's layout: one version, so that the
# verdict is the same on every release (Debian 12 and 13 and Ubuntu 24.04
# all offer 19).
FORMATTER = "clang-format-19"
# What ./course verify needs beyond the build.
VERIFY = ["shellcheck", FORMATTER]
# The peers and load generators of the benchmarks (./course bench only).
BENCH = ["wrk", "apache2-utils", "erlang-nox", "ruby", "nginx-light", "lighttpd", "libcaf-dev",
         "libboost-fiber{boost}-dev", "node-llhttp", "libh2o-evloop-dev", "util-linux", "procps",
         "python3-matplotlib", "valgrind",
         # chapter 11: the hub's peers, and what nchan shares its channels through
         "pushpin", "libnginx-mod-nchan", "redis-server"]


# What the benchmarks lose on a machine without perf.
WITHOUT_PERF = "the benchmarks' CPU columns come out empty and the held-clients bench cannot see other programs"


def perf() -> list[str]:
    """The packages that bring `perf`, which the benchmarks read CPU time with
    (`perf stat -e task-clock`) and the held-clients bench watches the cores
    with. Debian packages it once for every kernel (linux-perf); Ubuntu puts a
    launcher in linux-tools-common and perf itself in one package per kernel
    build, which exists only for Ubuntu's own kernels (not for WSL's, or a
    container's host). Without perf the benchmarks run and leave those columns
    empty, so it is installed where apt offers it and skipped, with a word,
    where not (ensure_optional)."""
    rel = release()
    if rel.id == "ubuntu" or "ubuntu" in rel.like:
        return ["linux-tools-common", f"linux-tools-{os.uname().release}"]
    return ["linux-perf"]

# Set by someone who installed the packages their own way: ./course then goes
# straight to CMake, which says what it cannot find.
SKIP_VARIABLE = "COURSE_SKIP_PACKAGES"
OLDEST_BOOST = 81  # Boost 1.81: Asio's spawn on Boost.Context, without Boost.Coroutine
# The releases the course is tested on; another Debian-like one is tried all the same.
KNOWN_RELEASES = {("debian", "12"): "Debian 12 (bookworm)", ("debian", "13"): "Debian 13 (trixie)",
                  ("ubuntu", "24.04"): "Ubuntu 24.04 LTS (noble)"}
DEV_CONTAINER = ("the dev container works everywhere: open the repository in VS Code with the Dev Containers\n"
                 "  extension (or in GitHub Codespaces), or build .devcontainer/Dockerfile with Docker or\n"
                 "  Podman; the README says how (\"On macOS or Windows\")")


# ---------------------------------------------------------------- the release

@dataclasses.dataclass(frozen=True)
class Release:
    """What /etc/os-release says of this system."""
    id: str
    version: str
    like: tuple[str, ...]
    name: str

    @property
    def debian_like(self) -> bool:
        return self.id == "debian" or "debian" in self.like

    @property
    def known(self) -> bool:
        return (self.id, self.version) in KNOWN_RELEASES


@functools.cache
def release() -> Release:
    fields: dict[str, str] = {}
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            key, _, value = line.partition("=")
            fields[key.strip()] = value.strip().strip('"')
    except OSError:
        pass
    system = os.uname().sysname
    return Release(id=fields.get("ID", system.lower()), version=fields.get("VERSION_ID", ""),
                   like=tuple(fields.get("ID_LIKE", "").split()),
                   name=fields.get("PRETTY_NAME", system))


def can_install() -> bool:
    """Whether the course can install its packages itself (Debian-like, with apt)."""
    return release().debian_like and bool(shutil.which("apt-get")) and bool(shutil.which("dpkg-query"))


# ---------------------------------------------------------------- apt's and dpkg's answers

def _run(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, env=_apt_env()).stdout
    except OSError:
        return ""


# A mirror that drops a connection now and then should not stop a learner's
# first day (or CI): apt tries each download this many times more.
APT_RETRIES = ["-o", "Acquire::Retries=3"]


def _apt_env() -> dict[str, str]:
    return dict(os.environ, DEBIAN_FRONTEND="noninteractive", LC_ALL="C")


def installed(names: list[str]) -> set[str]:
    """The packages of `names` that dpkg has installed (one dpkg-query for all)."""
    if not names or not shutil.which("dpkg-query"):
        return set()
    out = _run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *names])
    return {line.split()[0].split(":")[0] for line in out.splitlines() if line.endswith(" installed")}


def _installed_matching(pattern: str) -> list[str]:
    out = _run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", pattern])
    return [line.split()[0] for line in out.splitlines() if line.endswith(" installed")]


def _apt_has_lists() -> bool:
    return any(Path("/var/lib/apt/lists").glob("*_Packages*"))


def candidates(names: list[str]) -> set[str]:
    """The packages of `names` that apt could install (they have a candidate)."""
    if not names:
        return set()
    found, name = set(), None
    for line in _run(["apt-cache", "policy", *names]).splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            name = line[:-1].split(":")[0]
        elif name and line.strip().startswith("Candidate:") and "(none)" not in line:
            found.add(name)
    return found


def _boost_minor(package: str) -> int:
    m = re.fullmatch(r"libboost1\.(\d+)-dev(?::\w+)?", package)
    return int(m[1]) if m else 0


@functools.cache
def boost_version() -> str | None:
    """The Boost the course builds with, as "1.NN": the one installed, if new
    enough; else the release's own (what libboost-dev depends on), if new
    enough; else the newest that apt offers."""
    have = [m for m in map(_boost_minor, _installed_matching("libboost1.*-dev")) if m >= OLDEST_BOOST]
    if have:
        return f"1.{max(have)}"
    default = re.search(r"Depends: (libboost1\.\d+-dev)", _run(["apt-cache", "depends", "libboost-dev"]))
    if default and _boost_minor(default[1]) >= OLDEST_BOOST:
        return f"1.{_boost_minor(default[1])}"
    offered = [m for m in map(_boost_minor, _run(["apt-cache", "pkgnames", "libboost1."]).split())
               if m >= OLDEST_BOOST]
    offered = [m for m in offered if f"libboost1.{m}-dev" in candidates([f"libboost1.{m}-dev"])]
    return f"1.{max(offered)}" if offered else None


@functools.cache
def llvm_version() -> str | None:
    """The major version of the clang the course builds its fuzz target with:
    the installed clang's, else the one the release's clang package brings."""
    if shutil.which("clang"):
        m = re.search(r"clang version (\d+)", _run(["clang", "--version"]))
        if m:
            return m[1]
    m = re.search(r"Depends: clang-(\d+)", _run(["apt-cache", "depends", "clang"]))
    return m[1] if m else None


def resolve(templates: list[str]) -> tuple[list[str], list[str]]:
    """`templates` with {boost} and {llvm} filled in for this machine, in order
    and without repeats; and the templates that cannot be filled in here."""
    names, unknown = [], []
    for template in dict.fromkeys(templates):
        values = {}
        if "{boost}" in template:
            values["boost"] = boost_version()
        if "{llvm}" in template:
            values["llvm"] = llvm_version()
        if None in values.values():
            unknown.append(template.format(boost=f"1.NN (NN ≥ {OLDEST_BOOST})", llvm="NN"))
        else:
            names.append(template.format(**values))
    return names, unknown


# Debian 13's versions, which the dev container has: the names shown to
# someone who installs by hand on a system apt cannot serve.
REFERENCE_VERSIONS = {"boost": "1.83", "llvm": "19"}


def reference_names(templates: list[str]) -> list[str]:
    """The packages as Debian 13 names them, for someone installing by hand."""
    return list(dict.fromkeys(t.format(**REFERENCE_VERSIONS) for t in templates))


# ---------------------------------------------------------------- installing

def missing(templates: list[str]) -> list[str]:
    """The packages of `templates` (resolved for this machine) not installed."""
    names, unknown = resolve(templates)
    have = installed(names)
    return [n for n in names if n not in have] + unknown


def ensure(templates: list[str]) -> None:
    """Installs what is missing of `templates`, or says plainly why it cannot."""
    if os.environ.get(SKIP_VARIABLE):
        return
    if not can_install():
        _stop_not_debian(templates)
    absent = missing(templates)
    if not absent:
        return
    if not _apt_has_lists():  # a fresh system or container: apt knows no package yet
        _apt_update()
        _forget_versions()
        absent = missing(templates)
    unknown = resolve(templates)[1]
    if unknown or set(absent) - candidates(absent):
        _apt_update()  # the lists may be old; ask once more before giving up
        _forget_versions()
        absent = missing(templates)
        unknown = resolve(templates)[1]
    known = [n for n in absent if n not in unknown]
    unavailable = unknown + [n for n in known if n not in candidates(known)]
    if unavailable:
        _stop_unavailable(unavailable)
    prefix = _root_prefix(absent)
    ui.say(f"Installing {len(absent)} {release().name} package(s) the course needs: {' '.join(absent)}")
    command = prefix + ["apt-get", *APT_RETRIES, "install", "-y", "-q", "--no-install-recommends", *absent]
    result = subprocess.run(command, env=_apt_env(), capture_output=True, text=True)
    _forget_versions()
    still = [n for n in absent if n not in installed(absent)]
    if result.returncode != 0 or still:
        errors = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith(("E:", "W:"))]
        ui.error(f"apt-get could not install {' '.join(still) or 'them'}" +
                 (":\n  " + "\n  ".join(errors[-6:]) if errors else "") +
                 "\n  Try it yourself to see everything apt says:\n    " + " ".join(command) +
                 "\n  ./course doctor checks the rest of this machine.")
        sys.exit(2)


def ensure_optional(names: list[str], without: str) -> None:
    """Installs `names` (all or none) if apt offers every one of them; if not,
    says what goes `without` them and goes on."""
    if os.environ.get(SKIP_VARIABLE) or not can_install():
        return
    absent = missing(names)
    if not absent:
        return
    if not _apt_has_lists():
        _apt_update()
    if unoffered := sorted(set(absent) - candidates(absent)):
        ui.warn(f"apt on this machine offers no {' '.join(unoffered)}, so {without}")
        return
    ensure(absent)


def _forget_versions() -> None:
    boost_version.cache_clear()
    llvm_version.cache_clear()


def _apt_update() -> None:
    ui.step("apt-get update")
    result = subprocess.run(_root_prefix([]) + ["apt-get", *APT_RETRIES, "update", "-q"], env=_apt_env(),
                            capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith(("E:", "W:", "Err:"))]
        ui.warn("apt-get update did not finish cleanly" + (":\n  " + "\n  ".join(errors[-4:]) if errors else ""))


def _root_prefix(absent: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo"):
        return ["sudo"]
    ui.error("installing packages needs root, and there is no sudo. As root, run:\n"
             "    apt-get update && apt-get install " + " ".join(absent or reference_names(BUILD)))
    sys.exit(2)


def _stop_not_debian(templates: list[str]) -> None:
    ui.error(f"this system ({release().name}) is not Debian or Ubuntu, so the course cannot install\n"
             "  what it needs, and its servers use Linux's own calls (epoll, sendfile, openat2).\n"
             f"  Use the dev container instead: {DEV_CONTAINER}.\n"
             "  To install by hand on a Linux of your own, these are the packages' Debian 13 names:\n"
             "    " + " ".join(reference_names(templates)) +
             f"\n  (then set {SKIP_VARIABLE}=1, and ./course leaves packages to you)")
    sys.exit(2)


def _stop_unavailable(unavailable: list[str]) -> None:
    rel = release()
    where = "is one the course is tested on" if rel.known else \
        "is not one the course is tested on (" + ", ".join(KNOWN_RELEASES.values()) + ")"
    advice = []
    if rel.id == "ubuntu":
        advice.append("Ubuntu keeps several of them in 'universe': sudo add-apt-repository universe")
    if any(n.startswith("libboost") for n in unavailable):
        advice.append(f"the course needs Boost 1.{OLDEST_BOOST} or newer with Boost.Context and Boost.JSON")
    ui.error(f"apt on this machine offers no package for: {' '.join(unavailable)}.\n"
             f"  {rel.name} {where}." + "".join(f"\n  {line}." for line in advice) +
             f"\n  Install them another way, or use the dev container: {DEV_CONTAINER}.")
    sys.exit(2)
