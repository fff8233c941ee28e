"""A HAL with no hardware, for the unix port (virtual tiles, a quick `micropython main.py`).

It is a tile lying alone on the table with nobody touching it: no button edges, frames sent go
nowhere, LEDs are not drawn. Time, entropy, storage and the serial log are real, so the game
boots, saves and logs as it does on a board. The serial number is machine.unique_id() where
the interpreter has one (a virtual tile's, as a board's); else it is made once and kept in the
tile's flash directory, so a tile keeps its identity across resets either way.
"""

import os
import time

from runtime.hal_contract import Hal

from hal.storage import STATE_FILE, read_file, write_atomic

FACE_COUNT = 6
SERIAL_FILE = "tile_serial.bin"


def _ticks_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(getattr(time, "monotonic")() * 1000)  # noqa: B009  CPython only: not in the stubs


def _unique_id():
    """machine.unique_id(), or None where there is none (the plain unix port, CPython)."""
    try:
        import machine

        return machine.unique_id()
    except (ImportError, AttributeError):
        return None


class HeadlessHal(Hal):
    loop_pause_ms = 20  # nothing to react to quickly; leave the CPU to others

    def __init__(self):
        self._last_ticks = _ticks_ms()
        self._ms = 0
        self._colors = [0] * FACE_COUNT
        self._serial = _unique_id() or read_file(SERIAL_FILE)
        if self._serial is None:
            self._serial = os.urandom(8)
            write_atomic(SERIAL_FILE, self._serial)
        self._store = None

    def millis(self) -> int:
        # the unix port's ticks_ms wraps after 2**30 ms too: count up from it without wrapping
        now = _ticks_ms()
        if hasattr(time, "ticks_diff"):
            self._ms += time.ticks_diff(now, self._last_ticks)
        else:
            self._ms += now - self._last_ticks
        self._last_ticks = now
        return self._ms

    def button_edges(self) -> list:
        return []

    def send_frame(self, face: int, data) -> bool:
        return True

    def receive_frame(self, face: int) -> int:
        return 0

    def show(self, colors) -> None:
        self._colors = list(colors)

    def entropy(self) -> int:
        return int.from_bytes(os.urandom(4), "little")

    def serial_number(self) -> bytes:
        return self._serial

    def load(self):
        return read_file(STATE_FILE)

    def save(self, data) -> None:
        write_atomic(STATE_FILE, data)

    def build_store(self):
        """The builds in this tile's flash files (hal/build_store.py), for sharing."""
        store = self._store
        if store is None:
            from hal.build_store import FileStore

            store = self._store = FileStore()
        return store

    def log(self, text: str) -> None:
        print(text)
