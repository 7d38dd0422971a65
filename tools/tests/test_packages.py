"""How ./course names its packages on each release, and what it says when
it cannot install them. apt and dpkg are played by a table of answers, one
per release, taken from the real releases' archives."""

from __future__ import annotations

import contextlib
import io
import sys
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import packages  # noqa: E402  (after the path is set)

# What apt-cache says on each release (abridged to what the course asks).
RELEASES = {
    "bookworm": {"boost_default": "libboost1.74-dev", "boosts": ["1.74", "1.81"], "clang": "14",
                 "os": ("debian", "12", ()), "perf": ["linux-perf"]},
    "trixie": {"boost_default": "libboost1.83-dev", "boosts": ["1.83", "1.88"], "clang": "19",
               "os": ("debian", "13", ()), "perf": ["linux-perf"]},
    "noble": {"boost_default": "libboost1.83-dev", "boosts": ["1.74", "1.83"], "clang": "18",
              "os": ("ubuntu", "24.04", ("debian",)),
              # perf itself comes per kernel build, for Ubuntu's own kernels only
              "perf": ["linux-tools-common", "linux-tools-6.8.0-31-generic"]},
}


class FakeApt:
    """Answers the commands packages.py runs, as a release's apt would."""

    def __init__(self, release: str, installed: set[str] = frozenset(), clang_installed: str | None = None):
        self.release = RELEASES[release]
        self.installed = set(installed)
        self.clang_installed = clang_installed

    def offered(self) -> set[str]:
        names = set()
        for version in self.release["boosts"]:
            names |= {f"libboost{version}-dev", f"libboost-context{version}-dev", f"libboost-json{version}-dev"}
        names.add(f"libclang-rt-{self.release['clang']}-dev")
        names.update(self.release["perf"])
        return names | {"cmake", "g++", "clang", "doxygen", "libgtest-dev", "clang-format-19"}

    def run(self, command: list[str]) -> str:
        tool, *args = command
        if tool == "dpkg-query":
            pattern_or_names = args[2:]
            rows = []
            for name in sorted(self.installed):
                if any(name == p or (p.endswith("*-dev") and name.startswith(p[:-5]) and name.endswith("-dev"))
                       for p in pattern_or_names):
                    rows.append(f"{name} installed")
            return "\n".join(rows) + "\n"
        if command[:2] == ["apt-cache", "depends"]:
            if args[1] == "libboost-dev":
                return f"libboost-dev\n  Depends: {self.release['boost_default']}\n"
            if args[1] == "clang":
                return f"clang\n  Depends: clang-{self.release['clang']}\n"
        if command[:2] == ["apt-cache", "pkgnames"]:
            return "\n".join(sorted(n for n in self.offered() if n.startswith(args[1]))) + "\n"
        if command[:2] == ["apt-cache", "policy"]:
            out = []
            for name in args[1:]:
                out.append(f"{name}:")
                out.append("  Candidate: " + ("1.0" if name in self.offered() else "(none)"))
            return "\n".join(out) + "\n"
        if tool == "clang":
            return f"Debian clang version {self.clang_installed}.0.1\n" if self.clang_installed else ""
        raise AssertionError(f"unexpected command {command}")


@contextlib.contextmanager
def machine(release: str, **kwargs):
    apt = FakeApt(release, **kwargs)
    packages.boost_version.cache_clear()
    packages.llvm_version.cache_clear()
    packages.release.cache_clear()
    which = {"clang": "/usr/bin/clang" if apt.clang_installed else None,
             "dpkg-query": "/usr/bin/dpkg-query", "apt-get": "/usr/bin/apt-get"}
    os_id, version, like = apt.release["os"]
    with mock.patch.object(packages, "_run", apt.run), \
            mock.patch.object(packages, "release", lambda: packages.Release(os_id, version, like, release)), \
            mock.patch.object(packages, "_apt_has_lists", lambda: True), \
            mock.patch.object(packages.shutil, "which", lambda name: which.get(name, f"/usr/bin/{name}")):
        yield apt
    packages.boost_version.cache_clear()
    packages.llvm_version.cache_clear()
    packages.release.cache_clear()


class Names(unittest.TestCase):
    def test_each_release_gets_its_own_boost_and_llvm(self):
        expected = {"bookworm": ("libboost1.81-dev", "libclang-rt-14-dev"),
                    "trixie": ("libboost1.83-dev", "libclang-rt-19-dev"),
                    "noble": ("libboost1.83-dev", "libclang-rt-18-dev")}
        for release, (boost, rt) in expected.items():
            with self.subTest(release=release), machine(release):
                names, unknown = packages.resolve(["libboost{boost}-dev", "libclang-rt-{llvm}-dev"])
                self.assertEqual(names, [boost, rt])
                self.assertEqual(unknown, [])

    def test_the_release_default_wins_over_a_newer_boost_on_offer(self):
        with machine("trixie"):  # trixie also offers 1.88, but its Boost is 1.83
            self.assertEqual(packages.boost_version(), "1.83")

    def test_a_boost_already_installed_is_kept(self):
        with machine("trixie", installed={"libboost1.88-dev"}):
            self.assertEqual(packages.boost_version(), "1.88")

    def test_an_installed_boost_that_is_too_old_is_passed_over(self):
        with machine("bookworm", installed={"libboost1.74-dev"}):
            self.assertEqual(packages.boost_version(), "1.81")

    def test_the_installed_clang_decides_the_runtime(self):
        with machine("trixie", clang_installed="20"):
            self.assertEqual(packages.resolve(["libclang-rt-{llvm}-dev"])[0], ["libclang-rt-20-dev"])

    def test_only_what_is_not_installed_is_missing(self):
        with machine("trixie", installed={"cmake", "libboost1.83-dev"}):
            self.assertEqual(packages.missing(["cmake", "libboost{boost}-dev", "g++"]), ["g++"])


class Perf(unittest.TestCase):
    """perf is optional: the benchmarks run without it, with empty CPU columns."""

    def installs(self, release: str, kernel: str) -> tuple[list[list[str]], str]:
        asked, err = [], io.StringIO()
        with machine(release), mock.patch.object(packages.os, "uname", lambda: mock.Mock(release=kernel)), \
                mock.patch.object(packages, "ensure", asked.append), contextlib.redirect_stderr(err), \
                mock.patch.dict("os.environ", clear=False) as env:
            env.pop(packages.SKIP_VARIABLE, None)
            packages.ensure_optional(packages.perf(), packages.WITHOUT_PERF)
        return asked, err.getvalue()

    def test_debian_installs_linux_perf_whatever_the_kernel(self):
        for release in ("bookworm", "trixie"):
            with self.subTest(release=release):
                self.assertEqual(self.installs(release, "6.18.44-fc-v1272"), ([["linux-perf"]], ""))

    def test_ubuntu_installs_the_perf_of_its_own_kernel(self):
        asked, err = self.installs("noble", "6.8.0-31-generic")
        self.assertEqual(asked, [["linux-tools-common", "linux-tools-6.8.0-31-generic"]])
        self.assertEqual(err, "")

    def test_ubuntu_on_a_kernel_it_has_no_perf_for_says_so_and_goes_on(self):
        asked, err = self.installs("noble", "5.15.167.4-microsoft-standard-WSL2")
        self.assertEqual(asked, [], "not even linux-tools-common: its launcher alone runs nothing")
        self.assertIn("linux-tools-5.15.167.4-microsoft-standard-WSL2", err)
        self.assertIn("CPU columns come out empty", err)

    def test_an_installed_perf_is_left_alone(self):
        asked = []
        with machine("trixie", installed={"linux-perf"}), mock.patch.object(packages, "ensure", asked.append):
            packages.ensure_optional(packages.perf(), packages.WITHOUT_PERF)
        self.assertEqual(asked, [])


class Messages(unittest.TestCase):
    def stderr_of_stop(self, call) -> str:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            with self.assertRaises(SystemExit) as stop:
                call()
        self.assertEqual(stop.exception.code, 2)
        return err.getvalue()

    def test_a_system_without_apt_is_sent_to_the_dev_container_with_the_package_list(self):
        mac = packages.Release(id="darwin", version="", like=(), name="Darwin")
        with mock.patch.object(packages, "release", lambda: mac), mock.patch.dict("os.environ", clear=False) as env:
            env.pop(packages.SKIP_VARIABLE, None)
            text = self.stderr_of_stop(lambda: packages.ensure(packages.BUILD))
        self.assertIn("dev container", text)
        self.assertIn("libboost1.83-dev", text, "the packages' Debian 13 names, for installing by hand")
        self.assertIn(packages.SKIP_VARIABLE, text)

    def test_a_package_apt_does_not_offer_is_named_not_reported_by_apt(self):
        with machine("noble"), mock.patch.object(packages, "_apt_update", lambda: None), \
                mock.patch.object(packages, "_apt_has_lists", lambda: True), \
                mock.patch.object(packages, "release", lambda: packages.Release("ubuntu", "24.04", ("debian",),
                                                                                 "Ubuntu 24.04 LTS")):
            text = self.stderr_of_stop(lambda: packages.ensure(["cmake", "nats-server"]))
        self.assertIn("offers no package for: nats-server", text)
        self.assertIn("add-apt-repository universe", text)
        self.assertIn("dev container", text)
        self.assertNotIn("E:", text)

    def test_skipping_packages_leaves_them_to_the_learner(self):
        mac = packages.Release(id="darwin", version="", like=(), name="Darwin")
        with mock.patch.object(packages, "release", lambda: mac), \
                mock.patch.dict("os.environ", {packages.SKIP_VARIABLE: "1"}):
            packages.ensure(packages.BUILD)  # no exit


if __name__ == "__main__":
    unittest.main()
