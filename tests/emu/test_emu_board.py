"""An emulated tile is a MicroPython board: the official firmware, driven with the official mpremote.

What a user does with a Pico on a USB port, here on emulated ones: the REPL, files both ways,
running a script, a soft reset, machine.reset(), a power cut (the emulator stopped and started
again from the tile's flash image), and the board's own identity and peripherals.
"""

import subprocess
import sys
import time

import pytest

MPREMOTE = [sys.executable, "-m", "mpremote"]


def mpremote(port, *args, timeout=180):
    proc = subprocess.run(
        [*MPREMOTE, "connect", port, *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_mpremote_uses_an_emulated_tile_as_a_board(cluster, tmp_path):
    tiles = cluster(2, mode="fast")
    port = tiles.ports[0]
    uname = mpremote(port, "exec", "import os; print(os.uname().sysname, os.uname().release)")
    assert uname.split()[0] == "rp2" and uname.split()[1].count(".") == 2
    assert "Raspberry Pi Pico with RP2040" in mpremote(port, "exec", "import os; print(os.uname())")
    # files both ways, byte for byte
    data = bytes(range(256)) * 40
    (tmp_path / "blob.bin").write_bytes(data)
    mpremote(port, "fs", "cp", str(tmp_path / "blob.bin"), ":blob.bin")
    mpremote(port, "fs", "cp", ":blob.bin", str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == data
    # a script, and a soft reset that keeps the file
    (tmp_path / "script.py").write_text("import os\nprint('size', os.stat('blob.bin')[6])\n")
    assert f"size {len(data)}" in mpremote(port, "run", str(tmp_path / "script.py"))
    assert "blob.bin" in mpremote(port, "soft-reset", "fs", "ls")
    # each tile is its own board: its own flash chip id, and its own randomness
    ids = [
        mpremote(
            p, "exec", "import machine, os; print(machine.unique_id().hex(), os.urandom(8).hex())"
        )
        for p in tiles.ports
    ]
    assert ids[0] != ids[1]
    assert [i.split()[0] for i in ids] == [tiles.serial_of(i).hex() for i in range(2)]


def test_machine_reset_and_a_power_cut_keep_the_flash(cluster, tmp_path):
    state = tmp_path / "state"
    tiles = cluster(1, state=state, mode="fast")
    port = tiles.ports[0]
    mpremote(port, "exec", "f = open('kept.txt', 'w'); f.write('still here'); f.close()")
    # machine.reset() goes through the watchdog: the board restarts from its flash
    subprocess.run(
        [*MPREMOTE, "connect", port, "reset"], check=False, capture_output=True, timeout=60
    )
    assert tiles.wait_reset(0, 1)[1] == "watchdog"
    tiles.wait_up([0])
    assert "still here" in mpremote(port, "exec", "print(open('kept.txt').read())")
    # a power cut: the emulator is killed outright, then started again from the flash image
    tiles.kill()
    again = cluster(1, state=state, mode="fast")
    assert "still here" in mpremote(again.ports[0], "exec", "print(open('kept.txt').read())")


def test_peripherals_the_harness_repairs(cluster):
    """Each line failed on the bare npm package (see docs/emulated-tiles.md): a UART hung the
    board in its interrupt, and PIO ran outside emulated time, ignoring its clock divider."""
    tiles = cluster(1, mode="fast")
    port = tiles.ports[0]
    out = mpremote(
        port,
        "exec",
        "import machine; u = machine.UART(0, 115200); u.write(b'hi'); print('uart ok')",
    )
    assert "uart ok" in out
    # a state machine at 100 kHz (clock divider 1250) pushes once per 1,058 of its cycles
    # (delays included): ten pushes take 105.8 ms of the board's time
    script = """
import rp2, time
@rp2.asm_pio()
def ticker():
    set(y, 31)[31]
    label('wait')
    jmp(y_dec, 'wait')[31]
    push(block)
sm = rp2.StateMachine(0, ticker, freq=100000)
sm.active(1)
sm.get()
t = time.ticks_us()
for _ in range(10):
    sm.get()
print('us', time.ticks_diff(time.ticks_us(), t))
sm.active(0)
"""
    us = int(mpremote(port, "exec", script).split("us")[1])
    assert abs(us - 105800) <= 200


def test_switched_to_realtime_after_running_flat_out_a_tile_goes_on_at_the_walls_pace(cluster):
    """`blinks emu`'s realtime mode keeps emulated time to the wall clock; a cluster that ran
    flat out first (a test's fast setup, then a person's part) goes on from where it is, not
    frozen until the wall clock catches up with it."""
    tiles = cluster(1, mode="fast")
    port = tiles.ports[0]
    mpremote(port, "exec", "import time; time.sleep(40)")  # flat out: in a few wall seconds
    now = tiles.stats()
    assert now["t"] >= now["wall_ms"] + 20_000, now  # far ahead of the wall clock
    tiles.set_mode("realtime")
    start = time.monotonic()
    out = mpremote(port, "exec", "import time; time.sleep(1); print('on time')")
    took = time.monotonic() - start
    assert "on time" in out
    assert took < 15, took  # a second's sleep and mpremote's own, not the 20 s and more ahead


@pytest.mark.parametrize("shape, wires", [("line", 5), ("ring", 6), ("blob", 9)])
def test_cluster_shapes_wire_facing_faces(shape, wires):
    from host_tools.emu.cluster import layout

    cells, links = layout(6, shape)
    assert len(cells) == 6 and len(links) == wires
    for a, fa, b, fb in links:
        assert fb == (fa + 3) % 6 and a != b
