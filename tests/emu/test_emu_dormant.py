"""machine.lightsleep() on an emulated tile: DORMANT until a pin it enabled wakes it.

A plain MicroPython script at boot, no game: it enables a wake-up on a pin (IO_BANK0
DORMANT_WAKE_INTE, written with machine.mem32: MicroPython has no call for it), goes DORMANT
with machine.lightsleep(), and prints the timer's milliseconds before and after. While it is
DORMANT the board runs nothing; it wakes at the moment the pin changes, as a board would, and
its timer, which counts the stopped crystal's time, has not moved meanwhile.
"""

import re
import subprocess
import sys

IO_BANK0 = 0x40014000
INTR0 = 0x0F0
DORMANT_WAKE_INTE0 = 0x160
EDGE_LOW = 1 << 2

SCRIPT = """
import machine, os, time
os.remove("main.py")  # once
PIN = {pin}
machine.Pin(PIN, machine.Pin.IN, machine.Pin.PULL_UP)
time.sleep_ms(500)
reg = 4 * (PIN // 8)
shift = 4 * (PIN % 8)
machine.mem32[{io} + {intr} + reg] = 0xF << shift  # forget edges latched before
machine.mem32[{io} + {inte} + reg] = {edge} << shift  # wake on a falling edge
print("sleeping", time.ticks_ms())
machine.lightsleep()
print("awake", time.ticks_ms())
"""


def boot_script(tiles, i, pin, tmp_path):
    """Put the script on tile i, waking on `pin`, and boot it (driven from then on)."""
    script = tmp_path / f"main{i}.py"
    script.write_text(
        SCRIPT.format(pin=pin, io=IO_BANK0, intr=INTR0, inte=DORMANT_WAKE_INTE0, edge=EDGE_LOW)
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", tiles.ports[i], "fs", "cp"]
        + [str(script), ":main.py"],
        check=False,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def printed(tiles, i, word):
    """The numbers tile i printed after `word` (a line may follow the REPL's prompt)."""
    return [int(m.group(1)) for m in re.finditer(word + r" (\d+)", "\n".join(tiles.log_lines(i)))]


def until_asleep(tiles, i, limit_ms=5000):
    waited = 0
    while not tiles.dormancy[i]:
        assert waited < limit_ms, tiles.log_lines(i)[-5:]
        tiles.advance(50)
        waited += 50
    assert tiles.dormancy[i] == [(tiles.dormancy[i][0][0], "asleep")]
    return tiles.dormancy[i][0][0]


def test_lightsleep_stops_a_tile_until_its_button_wakes_it(cluster, tmp_path):
    from hal import board

    tiles = cluster(1, mode="fast")
    boot_script(tiles, 0, board.BUTTON_PIN, tmp_path)
    tiles.set_mode("driven")
    tiles.power(0, False)
    tiles.power(0, True)
    asleep = until_asleep(tiles, 0)
    busy = tiles.stats()["busy_ms"][0]
    tiles.advance(3000)
    assert tiles.stats()["busy_ms"][0] == busy  # not one instruction while DORMANT
    assert tiles.dormancy[0] == [(asleep, "asleep")]
    pressed = tiles.now_ms
    tiles.press(0, 200)
    tiles.advance(1000)
    assert tiles.dormancy[0] == [(asleep, "asleep"), (pressed, "awake")]  # at that moment
    (before,), (after,) = printed(tiles, 0, "sleeping"), printed(tiles, 0, "awake")
    assert 0 <= after - before <= 5  # its timer stood still with the crystal


LIGHTER = """
import machine, os, time
os.remove("main.py")
machine.Pin({button}, machine.Pin.IN, machine.Pin.PULL_UP)
face = machine.Pin({tx}, machine.Pin.OUT, value=0)
while machine.Pin({button}).value():  # until its button is pressed
    time.sleep_ms(1)
face.value(1)  # light towards the sleeping tile
print("lit", time.ticks_ms())
"""


def test_lightsleep_wakes_when_light_reaches_an_enabled_face(cluster, tmp_path):
    from hal import board

    tiles = cluster(2, shape="line", mode="fast")
    a, fa, b, fb = tiles.wires[0]
    boot_script(tiles, a, board.IR_RX_PINS[fa], tmp_path)  # A wakes on its detector's output
    lighter = tmp_path / "lighter.py"
    lighter.write_text(LIGHTER.format(button=board.BUTTON_PIN, tx=board.IR_TX_PINS[fb]))
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", tiles.ports[b], "fs", "cp"]
        + [str(lighter), ":main.py"],
        check=False,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tiles.set_mode("driven")
    for i in (a, b):
        tiles.power(i, False)
        tiles.power(i, True)
    asleep = until_asleep(tiles, a)
    tiles.advance(2000)
    busy = tiles.stats()["busy_ms"][a]
    assert tiles.dormancy[a] == [(asleep, "asleep")]
    pressed = tiles.now_ms
    tiles.press(b, 200)  # B lights its face within a few ms
    tiles.advance(1000)
    assert tiles.stats()["busy_ms"][a] > busy
    assert len(tiles.dormancy[a]) == 2
    woke, again = tiles.dormancy[a][1]
    assert again == "awake" and pressed < woke < pressed + 5
    assert tiles.stats()["late_light"] == [0, 0]
    (before,), (after,) = printed(tiles, a, "sleeping"), printed(tiles, a, "awake")
    assert 0 <= after - before <= 5
