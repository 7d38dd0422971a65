"""The benchmarks' free ports (bench/benchlib.py, free_port): never the same
one twice in a run, however often the kernel would pick it again."""

from __future__ import annotations

import socket
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import benchlib as b  # noqa: E402  (after the path is set)


class FreePort(unittest.TestCase):
    def test_no_port_is_handed_out_twice(self):
        # Two thousand picks from some 28,000 ephemeral ports: by the
        # birthday rule the kernel alone repeats one almost surely.
        ports = [b.free_port() for _ in range(2000)]
        self.assertEqual(len(set(ports)), len(ports))

    def test_each_port_is_free_to_listen_on(self):
        port = b.free_port()
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))
            s.listen()


if __name__ == "__main__":
    unittest.main()
