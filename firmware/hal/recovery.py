"""A tile that crashes restarts; a tile that keeps crashing stops and waits for a re-flash.

- The game loop feeds the watchdog (WATCHDOG_MS): a hung loop resets the tile.
- An exception in the game is printed, counted and the tile resets at once (`crashed`).
- A crash (or a watchdog reset) within QUICK_MS of boot is a quick one. After QUICK_LIMIT
  quick crashes in a row the tile boots into safe mode: no game and no watchdog, the REPL free
  for `blinks flash` or mpremote. Holding the button at power-up does the same. A game that
  runs QUICK_MS without crashing clears the count.
- The count lives in CRASH_FILE (one line, "count reason"), and every boot after a crash says
  it on the serial log: `BLINKS crashes=N last=<reason>`.
- Ctrl-C from the host (mpremote, `blinks flash`) is not a crash: the watchdog is stopped so the
  REPL stays usable (MicroPython's WDT cannot be stopped; its CTRL register can).

How a hang is told from a deliberate reset: the watchdog's scratch register 0 holds RUNNING
while the game loop runs (a watchdog reset keeps scratch registers, a power cut clears them).
"""

import os

import machine

from hal.storage import read_file, write_atomic

WATCHDOG_MS = 2000  # a pass is 20 ms; a saved state or a collection is far below this
QUICK_MS = 60000
QUICK_LIMIT = 3
CRASH_FILE = "blinks_crashes.txt"
RUNNING = 0x5AFE1001  # in watchdog scratch 0 while the game loop runs
_WATCHDOG_BASE = {"RP2040": 0x40058000, "RP2350": 0x400D8000}
_CTRL_ENABLE = 1 << 30
_SCRATCH0 = 0x0C


def _watchdog_base():
    machine_name = os.uname().machine
    for chip, base in _WATCHDOG_BASE.items():
        if chip in machine_name:
            return base
    return None


def read_crashes():
    """(count, last reason) from CRASH_FILE; (0, '') when there is none."""
    data = read_file(CRASH_FILE)
    if not data:
        return 0, ""
    count, _, reason = data.decode().partition(" ")
    return (int(count), reason) if count.isdigit() else (0, "")


def write_crashes(count, reason=""):
    write_atomic(CRASH_FILE, f"{count} {reason}".encode())


class Recovery:
    """The watchdog and crash bookkeeping around one run of the game loop."""

    def __init__(self, button_pin):
        self._base = _watchdog_base()
        self._wdt = None
        self._cleared = False
        self.boot_ms = 0
        hang = self._base is not None and machine.mem32[self._base + _SCRATCH0] == RUNNING
        self._mark(0)
        count, reason = read_crashes()
        if hang:
            count, reason = count + 1, "hang (watchdog)"
            write_crashes(count, reason)
        self.crashes = count
        self.last_reason = reason
        pin = machine.Pin(button_pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.button_held = pin.value() == 0

    def safe_mode_reason(self):
        """Why the tile must not run its game now, or None."""
        if self.button_held:
            return "button held at power-up"
        if self.crashes >= QUICK_LIMIT:
            return f"{self.crashes} quick crashes in a row (last: {self.last_reason})"
        return None

    def start(self, now_ms):
        self.boot_ms = now_ms
        self._wdt = machine.WDT(timeout=WATCHDOG_MS)
        self._mark(RUNNING)

    def feed(self, now_ms):
        self._wdt.feed()  # type: ignore[union-attr]
        if not self._cleared and now_ms - self.boot_ms >= QUICK_MS:
            self._cleared = True
            if self.crashes:
                write_crashes(0)
                self.crashes = 0

    def stopped_by_host(self):
        """Ctrl-C: leave the REPL usable (no watchdog reset, not counted as a crash)."""
        self._mark(0)
        self.disarm()

    def disarm(self):
        """Stop the watchdog (MicroPython's WDT cannot be stopped; its CTRL register can)."""
        if self._base is not None:
            machine.mem32[self._base] &= ~_CTRL_ENABLE

    def crashed(self, now_ms, exc):
        """Count the crash and restart the tile."""
        quick = now_ms - self.boot_ms < QUICK_MS
        count = self.crashes + 1 if quick else 1
        write_crashes(count, repr(exc)[:80])
        print(f"BLINKS restarting after a crash: crashes={count}")
        self._mark(0)
        machine.reset()

    def _mark(self, value):
        if self._base is not None:
            machine.mem32[self._base + _SCRATCH0] = value
