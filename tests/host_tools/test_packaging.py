"""An installed blinks claims only its host packages in site-packages: the firmware's
packages keep their tile names (`runtime`, `hal`, `games`) on sys.path, but are not installed
as top-level packages, where they could clash with other distributions. The firmware tree
ships whole inside simulator (simulator/firmware/), the lower layer, so a wheel install can still flash,
co-simulate and run sessions from any folder."""

import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from vtile_helpers import ROOT

from simulator.mpy.build import project_version
from simulator.mpy.firmware_tree import FIRMWARE

FIRMWARE_NAMES = {"runtime", "hal", "games"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel built from a copy of the source (so the checkout gets no build/ or egg-info)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), source / name)
    for folder in ("firmware", "simulator", "host_tools"):
        shutil.copytree(
            os.path.join(ROOT, folder),
            source / folder,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(tmp / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    (built,) = (tmp / "dist").glob("*.whl")
    return built


def firmware_files():
    """Every file of the firmware tree, relative to it."""
    found = set()
    for dirpath, dirnames, names in os.walk(FIRMWARE):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in names:
            found.add(os.path.relpath(os.path.join(dirpath, name), FIRMWARE).replace(os.sep, "/"))
    return found


def test_the_wheel_claims_no_firmware_package_name_at_the_top_level(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        claimed = set(z.read(top_level).decode().split())
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"host_tools", "simulator"}
    assert claimed == {"host_tools", "simulator"}
    assert not FIRMWARE_NAMES & (tops | claimed)


def test_the_wheel_ships_the_whole_firmware_tree_inside_simulator(wheel):
    with zipfile.ZipFile(wheel) as z:
        shipped = {n.removeprefix("simulator/firmware/") for n in z.namelist()}
    assert {"main.py", "manifest.py", "tile_config.json", "runtime/tile.py"} <= firmware_files()
    assert firmware_files() <= shipped


def test_a_wheel_install_runs_from_anywhere_on_its_own_copy_of_the_firmware(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site)]
        + [str(wheel)],
        check=True,
        capture_output=True,
    )
    # Some distributions leave a pyproject.toml of theirs in site-packages: not ours.
    (site / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9.9.9"\n')
    away = tmp_path / "elsewhere"  # no checkout in sight
    away.mkdir()
    # The installed copy comes first on the path, before this checkout's editable install.
    env = dict(os.environ, PYTHONPATH=str(site))

    def python(*args):
        done = subprocess.run(
            [sys.executable, *args], cwd=away, env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    shipped = str(site / "simulator" / "firmware")
    where = "import simulator, runtime.tile, hal, games.lostgems; print(runtime.__file__)"
    assert python("-c", where).startswith(shipped)
    # A session on simulated tiles, two of them real MicroPython processes (co-simulation).
    example = os.path.join(ROOT, "examples", "rules-basics.lg")
    ran = python("-m", "host_tools.cli", "session", "run", example, "-q", "--mpy", "2")
    assert "0 expect(s) failed" in ran
    built = python("-m", "host_tools.cli", "flash", "--dry-run")
    assert "main.py" in built and "nothing was sent" in built
    assert f"version {project_version()}:" in built
