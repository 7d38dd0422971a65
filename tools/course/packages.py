"""The Debian packages the course needs, installed on first use."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import ui

# What building and testing the course needs.
BUILD = ["cmake", "ninja-build", "g++", "clang", "libclang-rt-14-dev", "ccache", "git",
         "libboost1.81-dev", "libboost-context1.81-dev", "libboost-json1.81-dev",
         "libgtest-dev", "libhttp-parser-dev", "libpugixml-dev", "netcat-openbsd", "iproute2",
         "doxygen", "graphviz", "doxygen-awesome-css",
         # chapter 11: the NATS C client, and the server its tests start
         "libnats-dev", "pkg-config", "nats-server"]
# What writing the book needs (installed with the build: CMake looks for it
# when it configures, and ./course test and ./course book share one build).
BOOK = ["doxygen", "graphviz", "doxygen-awesome-css"]
# What ./course watch needs.
WATCH = ["inotify-tools"]
# What ./course verify needs beyond the build.
VERIFY = ["shellcheck", "clang-format-14"]
# The peers and load generators of the benchmarks (./course bench only).
BENCH = ["wrk", "apache2-utils", "erlang-nox", "ruby", "nginx-light", "lighttpd", "libcaf-dev",
         "libboost-fiber1.81-dev", "node-llhttp", "libh2o-evloop-dev", "util-linux", "procps",
         "python3-matplotlib",
         # chapter 11: the hub's peers, and what nchan shares its channels through
         "pushpin", "libnginx-mod-nchan", "redis-server"]


def missing(packages: list[str]) -> list[str]:
    """The packages of `packages` that dpkg does not have installed."""
    if not shutil.which("dpkg-query"):
        return list(packages)
    absent = []
    for package in packages:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                capture_output=True, text=True).stdout
        if "install ok installed" not in status:
            absent.append(package)
    return absent


def _is_debian() -> bool:
    try:
        release = Path("/etc/os-release").read_text()
    except OSError:
        return False
    return "ID=debian" in release or "ID_LIKE=debian" in release or 'ID_LIKE="debian' in release


def ensure(packages: list[str]) -> None:
    """Installs what is missing of `packages`, or explains how to."""
    absent = missing(packages)
    if not absent:
        return
    if not _is_debian():
        ui.error("this machine is not Debian, so the course cannot install what it needs.\n"
                 "  Install these (Debian 12 names; your system's may differ), then run again:\n"
                 "    " + " ".join(absent))
        sys.exit(2)
    prefix: list[str] = []
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            ui.error("installing needs root and there is no sudo. As root, run:\n"
                     "    apt-get install " + " ".join(absent))
            sys.exit(2)
        prefix = ["sudo"]
    ui.say(f"Installing {len(absent)} Debian package(s) the course needs: {' '.join(absent)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends", *absent]
    lists = list(Path("/var/lib/apt/lists").glob("*_Packages"))
    if not lists or subprocess.run(install, env=env, capture_output=True).returncode != 0:
        ui.step("apt-get update")
        subprocess.run(prefix + ["apt-get", "update", "-q"], env=env, check=False, capture_output=True)
        result = subprocess.run(install, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            ui.error("apt-get could not install them:\n" + result.stdout[-2000:] + result.stderr[-2000:])
            sys.exit(2)
    still = missing(absent)
    if still:
        ui.error("these are still missing after apt-get: " + " ".join(still))
        sys.exit(2)
