"""Log lines out of a tile's USB serial without ever waiting for the host.

On the rp2 port a write to the USB serial waits up to 500 ms for room whenever a host holds the
port open (DTR set) but does not read (MICROPY_HW_USB_CDC_TX_TIMEOUT; TinyUSB's buffer holds
256 bytes). A few log lines in one pass would then outlast the 2 s watchdog: a stuck monitor or
a terminal left open would reset tiles mid-game.

So a line is only queued when it is logged, and the queue is written in the idle time between
passes (`pump`), one byte at a time, each byte only once `select.poll` says the USB serial has
room for it: the one test the port offers that never waits (it says "at least one byte free").
A line the host does not take stays queued; when the queue is full, new lines are dropped and
counted, and the next line that gets through is preceded by `BLINKS log lost=N`. A line never
goes out in pieces mixed with another.

Writing a byte at a time costs ~60 us a byte on an RP2040, so a line ~4 ms: spent between passes,
never inside one. The queue holds QUEUE_LINES lines.
"""

import select
import sys
import time

QUEUE_LINES = 16


class SerialLog:
    def __init__(self, stream=None):
        stream = stream or sys.stdout
        self._out = getattr(stream, "buffer", stream)
        self._poll = select.poll()
        self._poll.register(stream, select.POLLOUT)
        self._lines = []  # encoded lines, oldest first
        self._sent = 0  # bytes of _lines[0] already out
        self._one = bytearray(1)
        self.lost = 0  # lines dropped since the last notice went into the queue
        self.lost_total = 0

    def line(self, text) -> None:
        """Queue one line (without its newline); dropped and counted when the queue is full."""
        room = QUEUE_LINES - len(self._lines)
        if room < (2 if self.lost else 1):
            self.lost += 1
            self.lost_total += 1
            return
        if self.lost:
            self._lines.append(f"BLINKS log lost={self.lost}\r\n".encode())
            self.lost = 0
        self._lines.append(str(text).encode() + b"\r\n")

    @property
    def pending(self) -> int:
        return len(self._lines)

    def _room(self) -> bool:
        for _ in self._poll.ipoll(0):
            return True
        return False

    def pump(self, ms: int) -> None:
        """Write queued bytes for at most `ms` milliseconds, each only when there is room."""
        lines = self._lines
        if not lines:
            return
        start = time.ticks_ms()
        one = self._one
        out = self._out
        while lines and time.ticks_diff(time.ticks_ms(), start) < ms:
            if not self._room():
                return  # the host is not reading: try again next time
            line = lines[0]
            one[0] = line[self._sent]
            out.write(one)
            self._sent += 1
            if self._sent == len(line):
                lines.pop(0)
                self._sent = 0

    def flush(self, ms: int) -> None:
        """Pump until the queue is empty or `ms` milliseconds passed (a crash report)."""
        start = time.ticks_ms()
        while self._lines and time.ticks_diff(time.ticks_ms(), start) < ms:
            self.pump(ms - time.ticks_diff(time.ticks_ms(), start))
            if self._lines:
                time.sleep_ms(1)
