"""./course doctor: each problem named with the command that fixes it."""

from __future__ import annotations

import os
import socket
import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import doctor, machine  # noqa: E402  (after the path is set)


def listening_socket() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


class Ports(unittest.TestCase):
    def test_a_taken_book_port_names_who_holds_it_and_a_free_port_to_use(self):
        with listening_socket() as held:
            port = held.getsockname()[1]
            findings = doctor._ports(f"127.0.0.1:{port}")
        book = next(f for f in findings if f.what == f"port {port}")
        self.assertFalse(book.ok)
        self.assertIn(f"PID {os.getpid()}", book.detail)
        self.assertRegex(book.fix, r"^\./course book --listen 127\.0\.0\.1:\d+")
        other = int(book.fix.split(":")[1].split()[0])
        self.assertNotEqual(other, port)

    def test_the_one_line_for_a_taken_port(self):
        with listening_socket() as held:
            port = held.getsockname()[1]
            line = machine.port_in_use_message("127.0.0.1", port, "./course book --listen {listen}")
        self.assertIn(f"port {port} is in use by PID {os.getpid()}", line)
        self.assertIn("try ./course book --listen 127.0.0.1:", line)
        self.assertNotIn("\n", line)

    def test_the_chapters_default_ports_are_read_from_their_programs(self):
        found = {(d.chapter, d.program, d.flag, d.port) for d in machine.default_addresses()}
        self.assertIn(("01", "keepalive", "--listen", 8081), found)
        self.assertIn(("10", "hub", "--reply-listen", 14000), found)
        self.assertIn(("10", "worker", "--listen", 9000), found)
        self.assertIn(("06", "idle-echo", "--listen", 7007), found)


class OpenFiles(unittest.TestCase):
    def test_a_low_hard_limit_is_a_problem_with_its_fix(self):
        with mock.patch.object(machine, "open_files_limit", lambda: (256, 256)):
            [finding] = doctor._open_files()
        self.assertFalse(finding.ok)
        self.assertIn("256", finding.detail)
        self.assertTrue(finding.fix)

    def test_a_low_soft_limit_is_raised_by_the_course_itself(self):
        with mock.patch.object(machine, "open_files_limit", lambda: (256, 20000)):
            [finding] = doctor._open_files()
        self.assertTrue(finding.ok)
        self.assertIn("raises it to 20000", finding.detail)


if __name__ == "__main__":
    unittest.main()
