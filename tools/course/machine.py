"""Facts about this machine that the course depends on, read without
installing or building anything: who listens on a port, the descriptor
limit, the kernel's features, the tools' versions."""

from __future__ import annotations

import ctypes
import dataclasses
import errno
import os
import re
import resource
import shutil
import socket
import subprocess
from pathlib import Path

from .chapters import ROOT


# ---------------------------------------------------------------- ports

@dataclasses.dataclass(frozen=True)
class Listener:
    """A program that listens on a TCP port; pid 0 when /proc does not say
    (a process of another user, seen without root)."""
    pid: int
    command: str

    def __str__(self) -> str:
        return f"PID {self.pid} ({self.command})" if self.pid else "a process this user cannot see"


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def listener(port: int) -> Listener | None:
    """Who listens on TCP `port` (on any address), if anyone."""
    inodes = _listening_inodes(port)
    if not inodes:
        return None
    wanted = {f"socket:[{inode}]" for inode in inodes}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) in wanted:
                    return Listener(int(proc.name), (proc / "comm").read_text().strip())
        except OSError:
            continue
    return Listener(0, "")


def can_listen(host: str, port: int) -> bool:
    """Whether a server could listen on host:port now (as the course's do:
    SO_REUSEADDR, so a port in TIME_WAIT counts as free)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError:
            return False
    return True


def free_port_near(host: str, port: int) -> int:
    """The first port after `port` that a server could listen on."""
    for candidate in range(port + 1, min(port + 200, 65536)):
        if can_listen(host, candidate):
            return candidate
    return 0


def port_in_use_message(host: str, port: int, retry: str) -> str:
    """One line: who holds the port, and the command to try instead
    (`retry` with {listen} where the new address goes)."""
    holder = listener(port)
    other = free_port_near(host, port) or 0
    who = f"in use by {holder}" if holder else "not available (in use, or not an address of this machine)"
    return f"port {port} is {who}; try {retry.format(listen=f'{host}:{other}')}"


@dataclasses.dataclass(frozen=True)
class DefaultAddress:
    """Where a chapter's program listens unless told otherwise."""
    chapter: str  # "10"
    source: str   # "10-hub/hub_program.cpp"
    flag: str     # "--reply-listen"
    host: str
    port: int

    @property
    def program(self) -> str:
        """The program's name, as ./course run takes it: static_server_main.cpp is static-server."""
        stem = Path(self.source).stem
        return stem.removesuffix("_main").removesuffix("_program").replace("_", "-")


def default_addresses() -> list[DefaultAddress]:
    """Every --*listen default in the solutions, as the programs declare them: the flag is
    declared with its variable (`.option("listen", settings.listen, ...)`), whose initializer,
    in the same file or a header beside it, is the default (`host_port listen{"127.0.0.1", 8081}`)."""
    option = re.compile(r'\.option\(\s*"(?P<flag>[\w-]*listen)"\s*,\s*(?:[\w]+\.)*(?P<variable>\w+)\s*,')
    found = []
    for source in sorted((ROOT / "solutions").glob("[0-9][0-9]-*/*.cpp")):
        name = str(source.relative_to(ROOT / "solutions"))
        texts = [source.read_text()] + [h.read_text() for h in sorted(source.parent.glob("*.hpp"))]
        for m in option.finditer(texts[0]):
            initial = re.compile(r'host_port\s+(?:\w+\s*\{[^}]*\}\s*,\s*)*' + re.escape(m["variable"]) +
                                 r'\s*\{\s*"(?P<host>[\w.]+)"\s*,\s*(?P<port>\d+)\s*\}')
            where = next((w for text in texts for w in [initial.search(text)] if w), None)
            if where:
                found.append(DefaultAddress(name[:2], name, "--" + m["flag"], where["host"], int(where["port"])))
    return found


# ---------------------------------------------------------------- limits and kernel

def open_files_limit() -> tuple[int, int]:
    """`ulimit -n`, soft and hard."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft, hard


OPEN_FILES_WANTED = 65536  # what ./course gives what it runs, when the hard limit allows


def open_files_target() -> int:
    """The soft limit ./course raises `ulimit -n` to: the hard limit, at most OPEN_FILES_WANTED."""
    soft, hard = open_files_limit()
    return max(soft, OPEN_FILES_WANTED if hard == resource.RLIM_INFINITY else min(hard, OPEN_FILES_WANTED))


def raise_open_files() -> None:
    """Raises this process's soft limit on open files, which the tests and
    programs it starts inherit, as far as the hard limit lets it."""
    soft, hard = open_files_limit()
    target = open_files_target()
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _syscall_supported(number: int, *args: object) -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(ctypes.c_long(number), *args) == -1 and ctypes.get_errno() == errno.ENOSYS:
        return False
    return True


def has_openat2() -> bool:
    """openat2(2), Linux 5.6: chapter 8 opens files with RESOLVE_BENEATH."""
    if os.uname().machine not in ("x86_64", "aarch64"):
        return True  # the call's number differs; the tests will tell
    # openat2(AT_FDCWD, "", NULL, 0): EFAULT or EINVAL if the call exists.
    return _syscall_supported(437, ctypes.c_int(-100), ctypes.c_char_p(b""), None, ctypes.c_size_t(0))


def has_reuse_port() -> bool:
    """SO_REUSEPORT: chapter 11's hubs share one port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        except (OSError, AttributeError):
            return False
    return True


def init_open_files_hard_limit() -> int | None:
    """The hard limit on open files of PID 1, which a new login starts from."""
    try:
        for line in Path("/proc/1/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                value = line.split()[4]
                return resource.RLIM_INFINITY if value == "unlimited" else int(value)
    except (OSError, IndexError, ValueError):
        pass
    return None


def in_container() -> bool:
    """Whether this runs in a container (Docker, Podman), whose limits its runtime sets."""
    return Path("/.dockerenv").exists() or Path("/run/.containerenv").exists() or "container" in os.environ


def kernel_release() -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", os.uname().release)
    return (int(m[1]), int(m[2])) if m else (0, 0)


def sysctl(name: str) -> str | None:
    try:
        return Path("/proc/sys", name.replace(".", "/")).read_text().strip()
    except OSError:
        return None


def free_disk_bytes(path: Path = ROOT) -> int:
    return shutil.disk_usage(path).free


# ---------------------------------------------------------------- tools

def version_of(command: list[str], pattern: str) -> str | None:
    """The version `command` prints, as `pattern`'s first group, or None if it is absent."""
    if not shutil.which(command[0]):
        return None
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(pattern, out.stdout + out.stderr)
    return m[1] if m else None


def boost_installed() -> str | None:
    """The version of the Boost headers in /usr/include, as "1.NN.P"."""
    try:
        text = Path("/usr/include/boost/version.hpp").read_text()
    except OSError:
        return None
    m = re.search(r"#define BOOST_VERSION (\d+)", text)
    return f"{int(m[1]) // 100000}.{int(m[1]) // 100 % 1000}.{int(m[1]) % 100}" if m else None


def as_tuple(version: str | None) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version or ""))[:3]
