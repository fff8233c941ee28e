"""Emulated rp2 tiles: the official MicroPython firmware on rp2040js (host_tools/emu).

The tests need the MicroPython UF2 for the Raspberry Pi Pico and the RP2040 bootrom, which are
not part of this repository (host_tools/emu/images.py says where a user gets them). Without
them the tests skip and say so; with BLINKS_REQUIRE_EMU=1 (as .ci/run sets) they fail instead,
so CI cannot pass without running them.
"""

import os
import shutil

import pytest
from session_summary import EMU_UNAVAILABLE

from host_tools.emu import images
from host_tools.emu.cluster import EmuCluster
from host_tools.emu.node_env import EmuSetupError, harness_dir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _unavailable(problems):
    """Skip with one short reason a test (each problem's first line); the whole advice, how to
    supply each missing part, is printed once at the end of the run (tests/session_summary.py)."""
    if os.environ.get("BLINKS_REQUIRE_EMU"):
        pytest.fail(
            "emulated tiles required (BLINKS_REQUIRE_EMU) but unavailable:\n" + "\n".join(problems)
        )
    short = "; ".join(p.splitlines()[0] for p in problems)
    pytest.skip(f"{EMU_UNAVAILABLE}{short} (how to supply it: the end of the run)")


@pytest.fixture(scope="session")
def rp2_images():
    """(firmware UF2, bootrom) paths, with Node and rp2040js set up."""
    found, problems = [], []
    for find in (images.firmware_path, images.bootrom_path):
        try:
            found.append(find())
        except images.MissingImage as exc:
            problems.append(str(exc))
    try:
        harness_dir()
    except EmuSetupError as exc:
        problems.append(str(exc))
    if problems:
        _unavailable(problems)
    return tuple(found)


@pytest.fixture
def cluster(rp2_images, tmp_path):
    """cluster(tiles=1, **options) -> a started EmuCluster whose state is under tmp_path."""
    started = []

    def make(tiles=1, state=None, **options):
        c = EmuCluster(
            tiles=tiles, state_dir=str(state or tmp_path / f"emu{len(started)}"), **options
        )
        started.append(c)
        return c.start()

    yield make
    for c in started:
        c.stop()


@pytest.fixture
def firmware_copy(tmp_path):
    """copy(tag) -> a copy of firmware/ with a marker module, so two copies build differently.

    The copy leaves Waterfall out: the tests that flash it back and forth need two builds of the
    firmware, not every game, and each of their flashes is then a fifth smaller."""

    def copy(tag):
        dest = tmp_path / f"firmware-{tag}"
        shutil.copytree(
            os.path.join(ROOT, "firmware"),
            dest,
            ignore=shutil.ignore_patterns("__pycache__", "waterfall"),
        )
        (dest / "hal" / "build_tag.py").write_text(f'"""Test build marker."""\nTAG = "{tag}"\n')
        return str(dest)

    return copy
