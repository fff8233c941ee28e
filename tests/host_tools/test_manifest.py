"""firmware/manifest.py decides what goes on a tile, read as MicroPython reads a manifest."""

import os
import shutil

import pytest
from vtile_helpers import FAST, ROOT, boot_check, run_blinks

from host_tools.cli.flash import flash_all
from simulator.mpy.build import BuildError, build, compile_mpy
from simulator.mpy.manifest import ManifestError, read_manifest

FIRMWARE = os.path.join(ROOT, "firmware")


def python_files_under(*folders):
    found = set()
    for folder in folders:
        for dirpath, dirnames, names in os.walk(os.path.join(FIRMWARE, folder)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            found |= {
                os.path.relpath(os.path.join(dirpath, n), FIRMWARE)
                for n in names
                if n.endswith(".py")
            }
    return found


def test_the_firmware_manifest_lists_every_module_of_the_runtime_hal_and_games():
    manifest = read_manifest(FIRMWARE)
    assert set(manifest.files) == python_files_under("runtime", "hal", "games")
    assert manifest.files["runtime/tile.py"] == os.path.join(FIRMWARE, "runtime", "tile.py")
    assert "description" in manifest.metadata


def test_the_image_holds_what_the_manifest_lists_and_not_the_manifest_itself():
    image = build()
    modules = {p[: -len(".mpy")] + ".py" for p in image.files if p.endswith(".mpy")}
    assert modules == set(read_manifest(FIRMWARE).files)
    assert "manifest.mpy" not in image.files and "main.mpy" not in image.files


@pytest.fixture
def tree(tmp_path):
    """A copy of firmware/ whose manifest.py the test writes."""
    dest = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, dest, ignore=shutil.ignore_patterns("__pycache__"))

    def write(text):
        (dest / "manifest.py").write_text(text)
        return str(dest)

    return write


DEMO_ONLY = """metadata(description="a tile that only runs the demo")
package("runtime")
package("hal")
package("games", files=["__init__.py", "demo.py"])
"""


def test_a_manifest_leaves_a_game_off_the_tile_and_the_tile_still_boots(tree, make_tile):
    firmware = tree(DEMO_ONLY)
    image = build("demo", firmware_dir=firmware)
    assert "games/demo.mpy" in image.files
    assert not any(p.startswith("games/lostgems") for p in image.files)
    tile = make_tile(**FAST)
    result = flash_all([tile.port], image, quiet=True)[0]
    assert result.ok, result.error
    ok, out = boot_check(tile.flash_dir)
    assert ok, out
    assert "Demo" in out  # the game class the boot loaded


def test_a_game_the_manifest_leaves_out_cannot_be_flashed(tree):
    firmware = tree(DEMO_ONLY)
    with pytest.raises(BuildError, match="no game module 'games.lostgems' listed in manifest.py"):
        build("lostgems", firmware_dir=firmware)


def test_opt_sets_mpy_crosss_optimisation_level_for_that_package_only(tree, make_tile):
    firmware = tree(DEMO_ONLY.replace('package("runtime")', 'package("runtime", opt=3)'))
    image, plain = build("demo", firmware_dir=firmware), build("demo")
    source = os.path.join(firmware, "runtime", "tile.py")
    tile_arch = image.arch  # runtime/tile.py holds native code: compiled for the tile's CPU
    assert image.files["runtime/tile.mpy"] == compile_mpy(source, "runtime/tile.py", 3, tile_arch)
    assert image.files["runtime/tile.mpy"] != plain.files["runtime/tile.mpy"]
    assert image.files["hal/headless.mpy"] == plain.files["hal/headless.mpy"]
    tile = make_tile(**FAST)
    assert flash_all([tile.port], image, quiet=True)[0].ok
    ok, out = boot_check(tile.flash_dir)
    assert ok, out


def test_include_runs_a_manifest_beside_its_own_files_with_options(tmp_path):
    (tmp_path / "extras").mkdir()
    (tmp_path / "extras" / "sound.py").write_text("")
    (tmp_path / "extras" / "lights.py").write_text("")
    (tmp_path / "extras" / "manifest.py").write_text(
        "options.defaults(sound=False)\n"
        'module("lights.py")\n'
        "if options.sound:\n"
        '    module("sound.py")\n'
    )
    (tmp_path / "manifest.py").write_text('include("extras", sound=True)\n')
    assert sorted(read_manifest(str(tmp_path)).files) == ["lights.py", "sound.py"]
    (tmp_path / "manifest.py").write_text('include("extras/manifest.py")\n')
    assert sorted(read_manifest(str(tmp_path)).files) == ["lights.py"]


@pytest.mark.parametrize(
    "line, complaint",
    [
        ('package("runtime"', "manifest.py:3: '(' was never closed"),
        ('require("aioble")', "manifest.py:3: require('aioble'): blinks flash does not fetch"),
        ('package("nope")', "manifest.py:3: no package directory"),
        ('module("tile_config.json")', "manifest.py:3: module('tile_config.json'): a module must"),
        ('freeze("games")', "manifest.py:3: freeze() belongs in a MicroPython firmware build"),
        ('packages("games")', "manifest.py:3: name 'packages' is not defined (a manifest can"),
        ('include("$(PORT_DIR)/boards/manifest.py")', "manifest.py:3: $(PORT_DIR) in"),
        ('package("games", files=["nope.py"])', "manifest.py:3: no file"),
        ('module("../main.py", base_path="runtime")', "a file on the tile must stay inside"),
        ('include("extras.py")', "manifest.py:3: cannot read manifest"),
        ('package("games", opt=4)', "manifest.py:3: opt=4: mpy-cross optimisation levels are"),
    ],
)
def test_a_manifest_mistake_names_its_line(tree, line, complaint):
    firmware = tree(f'package("runtime")\npackage("hal")\n{line}\n')
    with pytest.raises(ManifestError) as caught:
        read_manifest(firmware)
    assert complaint in str(caught.value)
    assert str(caught.value).startswith(os.path.join(firmware, "manifest.py"))
    with pytest.raises(BuildError, match="manifest.py:3"):
        build(firmware_dir=firmware)


def test_a_missing_manifest_is_named(tmp_path):
    with pytest.raises(ManifestError, match="cannot read manifest .*manifest.py: No such file"):
        read_manifest(str(tmp_path))


def test_flash_with_a_broken_manifest_exits_2_and_touches_no_tile(tree, make_tile):
    firmware = tree('package("runtime")\nrequire("aioble")\n')
    tile = make_tile(**FAST)
    proc = run_blinks("flash", "--quiet", "--port", tile.port, "--firmware", firmware)
    assert proc.returncode == 2
    assert "manifest.py:2: require('aioble')" in proc.stderr
    assert "mpremote mip install aioble" in proc.stderr
    assert not os.path.exists(os.path.join(tile.flash_dir, "main.py"))


def test_dry_run_lists_what_a_tile_would_receive_without_a_port(tree):
    firmware = tree(DEMO_ONLY)
    proc = run_blinks("flash", "--dry-run", "--game", "demo", "--firmware", firmware)
    assert proc.returncode == 0, proc.stderr
    image = build("demo", firmware_dir=firmware)
    assert f"games.demo:Demo build {image.build}" in proc.stdout
    assert f"{image.fw_dir}/games/demo.mpy" in proc.stdout
    assert "lostgems" not in proc.stdout.replace(image.game, "")
    assert f"{len(image.files) + 1} files, {image.total_bytes()} bytes" in proc.stdout
