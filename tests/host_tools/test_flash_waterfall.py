"""`blinks flash --game waterfall` to a virtual tile: the tile boots into Waterfall."""

from vtile_helpers import FAST, boot_check, run_blinks

from simulator.mpy.build import build, resolve_game


def test_waterfall_resolves_to_its_game_class():
    assert resolve_game("waterfall") == "games.waterfall:Waterfall"


def test_flash_waterfall_to_a_virtual_tile_boots_it(make_tile):
    tile = make_tile(**FAST)
    proc = run_blinks("flash", "--quiet", "--port", tile.port, "--game", "waterfall")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    image = build("waterfall")
    assert "games/waterfall/game.mpy" in image.files
    ok, out = boot_check(tile.flash_dir)
    assert ok, out
    assert "Waterfall" in out.split("BOOTS", 1)[1]
