"""Servers that several benchmarks compare with (see benchlib.run_rounds)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import benchlib as b

HERE = Path(__file__).resolve().parent


def configure(template: Path, scratch: Path, port: int, **more: str) -> Path:
    """Writes `template` into `scratch` with @DIR@ and @PORT@ filled in, and
    @NAME@ for each further NAME=value given."""
    text = template.read_text().replace("@DIR@", str(scratch)).replace("@PORT@", str(port))
    for name, value in more.items():
        text = text.replace(f"@{name}@", value)
    conf = scratch / template.name.removesuffix(".in")
    conf.write_text(text)
    return conf


def course_program(program: str, name: str, port: int, *args: str, core: str = b.SERVER_CORE,
                   env: dict[str, str] | None = None) -> b.Server:
    """One of the course's programs, from the Release build, listening on
    127.0.0.1:`port` (pinned to `core`: a backend may run on the load's),
    with `env` added to its environment."""
    binary = b.built(b.BUILD / "bin" / program)
    return b.Server(name, [str(binary), "--listen", f"127.0.0.1:{port}", *args], port, core=core, env=env or {})


def ours(program: str, name: str, *args: str, congestion: str = ""):
    """A factory for one of the course's programs, as run_rounds() wants it;
    with `congestion`, its sockets get that congestion control from the
    preloaded shim (b.congestion_env(), which may skip it when it is called)."""
    return lambda scratch, port: course_program(program, name, port, *args, env=b.congestion_env(congestion))


def nginx_version() -> str:
    return subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.split("/")[-1].strip()


def nginx_seven_bytes(scratch: Path, port: int) -> b.Server:
    """nginx, one process, answering every request with `return 200 "1234567"`."""
    b.need("nginx")
    conf = configure(HERE / "nginx-seven-bytes.conf.in", scratch, port)
    return b.Server(f"nginx {nginx_version()} (return 200)", ["nginx", "-p", str(scratch), "-c", str(conf)], port)
