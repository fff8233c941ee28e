"""A HAL with no hardware, for the unix port (virtual tiles, a quick `micropython main.py`).

It is a tile lying alone on the table with nobody touching it: no button edges, frames sent go
nowhere, LEDs are not drawn. Time, entropy, storage and the serial log are real, so the game
boots, saves and logs as it does on a board. The serial number is made once and kept in the
tile's flash directory, so a virtual tile keeps its identity across resets.
"""

import os
import time

from runtime.hal import Hal

FACE_COUNT = 6
STATE_FILE = "tile_state.bin"
SERIAL_FILE = "tile_serial.bin"


def _ticks_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


def _write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, path)


class HeadlessHal(Hal):
    loop_pause_ms = 20  # nothing to react to quickly; leave the CPU to others

    def __init__(self):
        self._colors = [0] * FACE_COUNT
        try:
            with open(SERIAL_FILE, "rb") as f:
                self._serial = f.read()
        except OSError:
            self._serial = os.urandom(8)
            _write_atomic(SERIAL_FILE, self._serial)

    def millis(self):
        return _ticks_ms()

    def button_edges(self):
        return []

    def send_frame(self, face, data):
        return True

    def receive_frames(self, face):
        return []

    def show(self, colors):
        self._colors = list(colors)

    def entropy(self):
        return int.from_bytes(os.urandom(4), "little")

    def serial_number(self):
        return self._serial

    def load(self):
        try:
            with open(STATE_FILE, "rb") as f:
                return f.read()
        except OSError:
            return None

    def save(self, data):
        _write_atomic(STATE_FILE, data)

    def log(self, text):
        print(text)
