"""The faces' values taken in viper (hal/ir_values.py), and sent in viper (hal/ir_send.py),
agree with the plain Python paths, on the rp2 port they are written for: the official
MicroPython on an emulated RP2040."""

import os
import subprocess
import sys

from emu_helpers import booted_build, flashed_image

from simulator.mpy.build import build

HERE = os.path.dirname(os.path.abspath(__file__))


def run_check(cluster, tmp_path, name, args):
    """The stdout of tests/emu/`name` run on a booted tile of the current build."""
    image = build()
    state = tmp_path / "tile"
    flashed_image(image, state)
    tiles = cluster(1, state=state, mode="fast")
    booted_build(tiles, 0)  # its game is running: mpremote stops it as it stops any tile's
    script = tmp_path / "check.py"
    with open(os.path.join(HERE, name)) as src:
        script.write_text(f"FW = {image.fw_dir!r}\nARGS = {args!r}\n" + src.read())
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", tiles.ports[0], "run", str(script)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    return [line for line in proc.stdout.splitlines() if line.startswith("RESULT")], (
        proc.stdout[-2000:] + proc.stderr[-2000:]
    )


def test_viper_and_python_take_the_same_values_from_the_same_rings(cluster, tmp_path):
    result, out = run_check(cluster, tmp_path, "ir_values_check.py", (7, 120))
    assert result == ["RESULT 120 0"], out


def test_viper_sends_the_faces_values_python_would(cluster, tmp_path):
    result, out = run_check(cluster, tmp_path, "ir_send_check.py", (11, 150))
    assert result == ["RESULT 150 0 True True"], out


def test_viper_encodes_the_words_python_would(cluster, tmp_path):
    result, out = run_check(cluster, tmp_path, "ir_encode_check.py", (5, 300))
    assert result == ["RESULT 300 0 True"], out
