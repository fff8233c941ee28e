"""Fixtures for the serial bridge: virtual tiles on pseudo-terminals, and checks of a tile's flash."""

import os
import shutil

import pytest
from vtile_helpers import ROOT

from host_tools.virtual_tile import VirtualTile


@pytest.fixture
def make_tile(tmp_path):
    """make_tile(name, **speeds) -> a started VirtualTile whose flash is tmp_path/name."""
    tiles = []

    def make(name="tile0", **speeds):
        t = VirtualTile(str(tmp_path / name), name=name, port_dir=str(tmp_path), **speeds)
        tiles.append(t.start())
        return t

    yield make
    for t in tiles:
        t.stop()


@pytest.fixture
def firmware_copy(tmp_path):
    """copy(tag) -> a copy of firmware/ with a marker module, so two copies build differently."""

    def copy(tag):
        dest = tmp_path / f"firmware-{tag}"
        shutil.copytree(
            os.path.join(ROOT, "firmware"), dest, ignore=shutil.ignore_patterns("__pycache__")
        )
        (dest / "hal" / "build_tag.py").write_text(f'"""Test build marker."""\nTAG = "{tag}"\n')
        return str(dest)

    return copy
