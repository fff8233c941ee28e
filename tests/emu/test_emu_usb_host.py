"""The USB host at the other end of an emulated tile's serial port behaves as a computer's.

On the rp2 port each write to the USB serial blocks for up to 500 ms
(MICROPY_HW_USB_CDC_TX_TIMEOUT) while the host has the port open (DTR set) but does not read:
the host's buffer, then TinyUSB's 256-byte FIFO, fill up. A line is two writes, its text and
then CR LF (stdout cooks each newline into a write of its own), so a blocked print takes a
second. With no host process on the port (DTR clear) nothing blocks. A plain MicroPython
script at boot, no game: it first prints more than a host's buffer holds, then times 10 prints
of 100 characters and 10 writes of 100 characters without a newline, in emulated time, and
keeps the times in a file.
"""

import subprocess
import sys

SCRIPT = """
import os, sys, time
os.remove("main.py")  # once
time.sleep(1)  # USB is up
for _ in range(24):
    print("y" * 1000)  # more than the host's buffer holds
times = []
for _ in range(10):
    t = time.ticks_ms()
    print("x" * 100)
    times.append(time.ticks_diff(time.ticks_ms(), t))
for _ in range(10):
    t = time.ticks_ms()
    sys.stdout.write("z" * 100)  # no newline: one write
    times.append(time.ticks_diff(time.ticks_ms(), t))
with open("times.txt", "w") as f:
    f.write(" ".join(str(ms) for ms in times))
"""
RESULT = "print(open('times.txt').read())"


def mpremote(port, *args):
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def print_times(cluster, tmp_path, hold):
    """Boot the script on a fresh tile, with or without a host that holds the port and never
    reads; the times of the 10 prints and of the 10 writes, in emulated ms."""
    tiles = cluster(1, mode="fast")
    script = tmp_path / "main.py"
    script.write_text(SCRIPT)
    mpremote(tiles.ports[0], "fs", "cp", str(script), ":main.py")
    tiles.set_mode("driven")
    if hold:
        tiles.hold_port(0)  # DTR set, and nothing read from here on
    tiles.power(0, False)
    tiles.power(0, True)  # boots into main.py
    tiles.advance(40_000)
    nak = tiles.stats()["usb_nak"][0]
    tiles.release_port(0)
    tiles.set_mode("fast")
    times = [int(ms) for ms in mpremote(tiles.ports[0], "exec", RESULT).split()]
    assert len(times) == 20
    return times[:10], times[10:], nak


def test_a_write_blocks_500_ms_while_a_connected_host_does_not_read(cluster, tmp_path):
    prints, writes, nak = print_times(cluster, tmp_path, hold=True)
    assert all(495 <= ms <= 520 for ms in writes), writes
    assert all(995 <= ms <= 1030 for ms in prints), prints  # two writes a print
    assert nak > 0  # the host refused packets: the device's FIFO filled, as on a board


def test_a_print_never_blocks_while_no_host_has_the_port_open(cluster, tmp_path):
    prints, writes, nak = print_times(cluster, tmp_path, hold=False)
    assert sum(prints) + sum(writes) < 100, (prints, writes)
    assert nak == 0
