"""The faces' values taken in viper (hal/ir_values.py) agree with the plain Python path, on the
rp2 port it is written for: the official MicroPython on an emulated RP2040."""

import os
import subprocess
import sys

from emu_helpers import booted_build, flashed_image

from host_tools.bridge.build import build

HERE = os.path.dirname(os.path.abspath(__file__))


def test_viper_and_python_take_the_same_values_from_the_same_rings(cluster, tmp_path):
    image = build()
    state = tmp_path / "tile"
    flashed_image(image, state)
    tiles = cluster(1, state=state, mode="fast")
    booted_build(tiles, 0)  # its game is running: mpremote stops it as it stops any tile's
    script = tmp_path / "check.py"
    with open(os.path.join(HERE, "ir_values_check.py")) as src:
        script.write_text(f"FW = {image.fw_dir!r}\nARGS = (7, 120)\n" + src.read())
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", tiles.ports[0], "run", str(script)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    result = [line for line in proc.stdout.splitlines() if line.startswith("RESULT")]
    assert result == ["RESULT 120 0"], proc.stdout[-2000:] + proc.stderr[-2000:]
