"""firmware/main.py boots the configured game on the headless HAL, on MicroPython and CPython."""

import importlib.util
import os

from vtile_helpers import ROOT, run_micropython

FIRMWARE = os.path.join(ROOT, "firmware")
BOOT = """
import main
hal, tile = main.boot()
for _ in range(20):
    tile.step()
print(type(hal).__name__, len(hal.serial_number()))
"""


def test_main_boots_on_micropython(tmp_path):
    proc = run_micropython(BOOT, cwd=tmp_path, micropypath=FIRMWARE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "BLINKS boot tile=" in proc.stdout and "game=games.lostgems:LostGems" in proc.stdout
    assert "HeadlessHal 8" in proc.stdout
    assert (tmp_path / "tile_serial.bin").stat().st_size == 8  # kept across boots


def test_main_boots_on_cpython(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location("tile_main", os.path.join(FIRMWARE, "main.py"))
    main = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(main)
    hal, tile = main.boot()
    for _ in range(20):
        tile.step()
    assert type(hal).__name__ == "HeadlessHal"
    assert "BLINKS boot tile=" in capsys.readouterr().out
    assert main.load_game_class("games.lostgems:LostGems").__name__ == "LostGems"


def test_a_missing_config_means_the_default_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location("tile_main2", os.path.join(FIRMWARE, "main.py"))
    main = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(main)
    assert main.read_config() == {"game": main.DEFAULT_GAME}
    (tmp_path / "tile_config.json").write_text("{not json")
    assert main.read_config() == {"game": main.DEFAULT_GAME}
