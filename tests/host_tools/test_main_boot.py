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


HEAP = """
import main
main.HEAP_LOG_MS = 30
hal, tile = main.boot()
passes = [0]


def idle(ms):
    passes[0] += 1
    if passes[0] == 6:
        raise KeyboardInterrupt
    main.sleep_ms(ms)


hal.idle = idle
main.run(hal, tile, None)
"""


def test_an_awake_tile_logs_its_heap_at_boot_and_then_now_and_again(tmp_path):
    # `BLINKS heap free=N used=N` after the first pass and every HEAP_LOG_MS (a minute on a
    # tile; 30 ms here over six 20 ms passes): what `blinks emu --window` shows of the heap
    proc = run_micropython(HEAP, cwd=tmp_path, micropypath=FIRMWARE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.startswith("BLINKS heap ")]
    assert 2 <= len(lines) <= 4, proc.stdout
    first = lines[0].split()
    assert first[2].startswith("free=") and first[3].startswith("used=")
    free, used = int(first[2][5:]), int(first[3][5:])
    assert free > 0 and used > 0
    assert proc.stdout.index("BLINKS boot tile=") < proc.stdout.index("BLINKS heap ")
    assert "BLINKS stopped" in proc.stdout


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
