"""When ./course configures a build again: the environment's cache values
(CI's RDV_WERROR=ON) must reach a build made without them."""

from __future__ import annotations

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from course import build  # noqa: E402  (after the path is set)


class CacheDiffers(unittest.TestCase):
    def differs(self, cache: str | None, options: list[str]) -> bool:
        with tempfile.TemporaryDirectory() as folder:
            if cache is not None:
                (Path(folder) / "CMakeCache.txt").write_text(cache)
            return build.cache_differs(Path(folder), options)

    def test_a_build_made_without_werror_is_configured_again_when_it_is_asked_for(self):
        self.assertTrue(self.differs("RDV_WERROR:BOOL=OFF\n", ["-DRDV_WERROR=ON"]))

    def test_a_build_that_has_it_is_left_alone(self):
        self.assertFalse(self.differs("CMAKE_BUILD_TYPE:STRING=Debug\nRDV_WERROR:BOOL=ON\n", ["-DRDV_WERROR=ON"]))

    def test_nothing_asked_leaves_any_build_alone(self):
        self.assertFalse(self.differs("RDV_WERROR:BOOL=OFF\n", []))

    def test_a_build_without_a_cache_is_configured(self):
        self.assertTrue(self.differs(None, ["-DRDV_WERROR=ON"]))

    def test_a_name_that_only_begins_the_same_is_another(self):
        self.assertTrue(self.differs("RDV_WERROR_EXTRA:BOOL=ON\n", ["-DRDV_WERROR=ON"]))


if __name__ == "__main__":
    unittest.main()
