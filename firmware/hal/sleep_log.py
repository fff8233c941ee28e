"""A tile's wakes from DORMANT, kept on its flash for `blinks diag --sleep-log` to read.

A builder leaves a tile on battery overnight and reads back what woke it: a press, a
neighbour's light, light that was no frame (a false wake: a remote, a lamp), USB. One record a
wake: what woke it, the tile's clock at the wake, how long it was awake after, and whether the
tile woke for good (its game woke, or USB kept it up) or went back to DORMANT (a false wake).

The tile's clock stands still in DORMANT, as every clock of an RP2040 does: `at_ms` is the
tile's running time since it started, the sleep itself not counted, so a record says in what
order things happened, not at what hour. A false wake's `awake_ms` runs from the clocks being
back (the crystal's 6 ms start comes before) to DORMANT again.

Writing flash keeps a tile awake (a littlefs commit takes milliseconds, an erase tens), and a
false wake must be back in DORMANT within 20 ms: so the records wait in RAM (the last RECORDS of
them, in a ring made once) and go to flash when the tile wakes for good, which a builder's
press or USB plug does before reading them. A flat battery loses those not yet written, and a
ring that overflowed its oldest (their numbers, `seq`, are skipped: the gap shows them). The
file holds the last RECORDS records and is rewritten whole through storage.write_atomic (a new
file renamed over the old: a power cut leaves one or the other, never half of each). Pure
Python: the host decodes the file with `decode`.
"""

import struct

from hal import storage

LOG_FILE = "sleep_log.bin"
RECORDS = 64  # the file keeps the latest this many (768 bytes)
RECORD = "<IIHBB"  # seq, at_ms, awake_ms (capped), source, flags
RECORD_BYTES = 12
SOURCES = ("button", "light", "usb")  # codes 1, 2, 3
WOKE = 1  # flags: the tile woke for good


def decode(data):
    """The file's records as dicts, oldest first (a record that makes no sense is left out)."""
    out = []
    for i in range(0, len(data) - RECORD_BYTES + 1, RECORD_BYTES):
        seq, at_ms, awake_ms, code, flags = struct.unpack(RECORD, data[i : i + RECORD_BYTES])
        if 1 <= code <= len(SOURCES) and flags <= WOKE:
            out.append(
                {
                    "seq": seq,
                    "source": SOURCES[code - 1],
                    "at_ms": at_ms,
                    "awake_ms": awake_ms,
                    "woke": bool(flags & WOKE),
                }
            )
    out.sort(key=lambda r: r["seq"])
    return out


class SleepLog:
    """The rp2 HAL's record keeper: `woke` after DORMANT, `slept` going back into it, `up` when
    the tile woke for good. Nothing is allocated until `up` writes the file."""

    def __init__(self, path=LOG_FILE):
        self.path = path
        self._source = None  # what woke the tile, while its wake is not yet recorded
        self._at = 0
        self._ring = bytearray(RECORDS * RECORD_BYTES)
        self._count = 0  # records noted since the last write (the ring keeps the last RECORDS)

    def woke(self, source, now):
        self._source = source
        self._at = now

    def slept(self, now):
        """Going into DORMANT: the wake before, if any, was a false one."""
        if self._source is not None:
            self._note(now, False)

    def up(self, now):
        """The tile woke for good: its wake is recorded and the records go to flash."""
        if self._source is not None:
            self._note(now, True)
        if self._count:
            self._write()

    def _note(self, now, woke):
        at = (self._count % RECORDS) * RECORD_BYTES
        struct.pack_into(
            RECORD,
            self._ring,
            at,
            0,  # its seq is given when it is written
            self._at & 0xFFFFFFFF,
            min(max(now - self._at, 0), 0xFFFF),
            SOURCES.index(self._source) + 1,
            WOKE if woke else 0,
        )
        self._source = None
        self._count += 1

    def _write(self):
        old = storage.read_file(self.path) or b""
        old = old[: len(old) - len(old) % RECORD_BYTES]  # whole records only
        seq = 0
        if old:
            seq = struct.unpack(RECORD, old[len(old) - RECORD_BYTES :])[0] + 1
        n = min(self._count, RECORDS)
        first = self._count - n
        seq += first  # records the ring lost keep their numbers: the gap shows them
        new = bytearray(n * RECORD_BYTES)
        for i in range(n):
            at = ((first + i) % RECORDS) * RECORD_BYTES
            new[i * RECORD_BYTES : (i + 1) * RECORD_BYTES] = self._ring[at : at + RECORD_BYTES]
            struct.pack_into("<I", new, i * RECORD_BYTES, (seq + i) & 0xFFFFFFFF)
        data = old + bytes(new)
        storage.write_atomic(self.path, data[max(0, len(data) - RECORDS * RECORD_BYTES) :])
        self._count = 0
