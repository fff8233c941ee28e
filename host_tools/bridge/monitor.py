"""Read the output of many tiles at once: lines, parsed game events, reconnection, JSON Lines.

Each port has a reader thread that opens the port with pyserial (no raw REPL: the game keeps
running), splits its output into lines and hands them on with the host time. When a port
vanishes (unplugged, tile reset) the reader reports it and keeps trying to open it again.

A record (one JSON object per line) looks like
    {"time": 12.345, "port": "/dev/ttyACM0", "line": "LG state tile=... ", "event": {...}}
    {"time": 13.0, "port": "/dev/ttyACM0", "status": "disconnected"}
    {"time": 0.1, "port": "/dev/ttyACM1", "status": "waiting", "detail": "no such port yet; ..."}
where time is seconds since the monitor started and event is the parsed structured line.

A line longer than MAX_LINE bytes keeps its first MAX_LINE bytes, and its record says how many
more it had (`"truncated": N`): a tile that never ends a line cannot hold up the next ones or
fill the memory. A line the port vanished in the middle of is kept, as `"unfinished": true`.
Reading and parsing take time in proportion to the bytes, whatever they hold.
"""

import json
import os
import queue
import re
import threading
import time

import serial

RETRY_S = 0.25
MAX_LINE = 4096  # bytes kept of one line (a Lost Gems line is under 100)
_FIELD = re.compile(r"(\w+)=(\S+)")
_FATAL = re.compile(r"^BLINKS (boot failed|game crashed):? ?(.*)$")
_STAMP = re.compile(r"tile=(\S+) t=(-?\d+) ")


def parse_line(line):
    """The structured event in a tile's log line, or None for free text.

    Lost Gems lines: `LG state tile=<hex> t=<ms> <old> -> <new> shard=<shard>` (state names may
    contain a space), `LG restore|deal|count tile=<hex> t=<ms> ...`; the bridge's own:
    `BLINKS boot tile=<hex> fw=<dir> game=<module:Class>`, and the fatal ones firmware/main.py
    prints, which carry no tile id: `BLINKS boot failed: <error>`, `BLINKS game crashed: <error>`
    (kind "boot failed" / "game crashed", with the error). Any other `BLINKS ...` line is still
    an event (kind = its second word, text = the rest): the bridge's lines are never dropped.
    """
    fatal = _FATAL.match(line.strip())
    if fatal:
        return {"kind": fatal.group(1), "error": fatal.group(2)}
    parts = line.strip().split(" ", 2)
    if len(parts) == 2 and parts[0] == "BLINKS":
        return {"kind": parts[1]}
    if len(parts) < 3 or parts[0] not in ("LG", "BLINKS"):
        return None
    kind, rest = parts[1], parts[2]
    event = {"kind": kind}
    if parts[0] == "LG" and kind == "state":
        change = state_change(rest)
        if change is None:
            return None
        event.update(change)
        return event
    fields = dict(_FIELD.findall(rest))
    if "tile" not in fields:
        return {"kind": kind, "text": rest} if parts[0] == "BLINKS" else None
    event.update(fields)
    if "t" in event:
        try:
            event["t"] = int(event["t"])
        except ValueError:
            return None
    if parts[0] == "LG" and kind == "restore":
        m = re.match(r"tile=\S+ t=-?\d+ (.+?) shard=(\S+)", rest)
        if m:
            event["state"] = m.group(1)
            event["shard"] = None if m.group(2) == "-" else m.group(2)
    return event


def state_change(rest):
    """The fields of `tile=<hex> t=<ms> <old> -> <new> shard=<shard>`, or None.

    State names may hold spaces, so the old state runs to the first " -> " after its first
    character and the new one to the last " shard=" (whose value holds none); neither may be
    empty. Plain string searches, where a regex with two open-ended groups backtracks over
    every " -> " pair: an 80 kB line took 15 s."""
    stamp = _STAMP.match(rest)
    if stamp is None:
        return None
    states, sep, shard = rest[stamp.end() :].rpartition(" shard=")
    arrow = states.find(" -> ", 1)
    if not (sep and shard) or arrow < 0 or arrow + 4 == len(states):
        return None
    if any(c.isspace() for c in shard):
        return None
    old, new = states[:arrow], states[arrow + 4 :]
    return {
        "tile": stamp.group(1),
        "t": int(stamp.group(2)),
        "old": old,
        "new": new,
        "shard": None if shard == "-" else shard,
    }


class LineSplitter:
    """Bytes in, whole lines out, in time linear in the bytes: each chunk is searched for
    newlines once, and at most `limit` bytes of a line are kept (the rest only counted)."""

    def __init__(self, limit=MAX_LINE):
        self.limit = limit
        self.pending = bytearray()
        self.dropped = 0  # bytes of the current line past the limit

    def feed(self, data):
        """The lines `data` completes, as (bytes, bytes dropped) pairs."""
        view = memoryview(data)
        lines = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                self._keep(view[start:])
                return lines
            self._keep(view[start:end])
            lines.append(self.rest())
            start = end + 1

    def rest(self):
        """The line so far, as (bytes, bytes dropped), and start a new one."""
        line = (bytes(self.pending), self.dropped)
        self.pending = bytearray()
        self.dropped = 0
        return line

    def _keep(self, chunk):
        room = max(0, self.limit - len(self.pending))
        self.pending += chunk[:room]
        self.dropped += max(0, len(chunk) - room)


def waiting_reason(port, exc):
    """Why `port` cannot be opened yet, in words (the reader keeps trying)."""
    if not os.path.exists(port):
        return "no such port yet; waiting for it"
    return f"cannot open it ({exc}); retrying"


class PortReader(threading.Thread):
    """Reads one port for ever (until stop()), reconnecting; puts records on `out`."""

    def __init__(self, port, out, clock, baudrate=115200):
        super().__init__(daemon=True)
        self.port = port
        self.out = out
        self.clock = clock
        self.baudrate = baudrate
        self.connected_once = False
        self.waiting_for = None  # why the port could not be opened yet
        self._halt = threading.Event()

    def stop(self):
        self._halt.set()

    def _status(self, status, detail=None):
        rec = {"time": self.clock(), "port": self.port, "status": status}
        if detail:
            rec["detail"] = detail
        self.out.put(rec)

    def run(self):
        while not self._halt.is_set():
            try:
                link = serial.Serial(self.port, self.baudrate, timeout=0.1)
            except (OSError, serial.SerialException, ValueError) as exc:
                if not self.connected_once:
                    # Say once (per reason) why nothing comes yet, instead of staying silent.
                    why = waiting_reason(self.port, exc)
                    if why != self.waiting_for:
                        self._status("waiting", why)
                        self.waiting_for = why
                self._halt.wait(RETRY_S)
                continue
            self._status("reconnected" if self.connected_once else "connected")
            self.connected_once = True
            lines = LineSplitter()
            try:
                self._read(link, lines)
            except (OSError, serial.SerialException, TypeError) as exc:
                # pyserial raises TypeError from a read on a port closed under it
                self._line(*lines.rest(), unfinished=True)
                self._status("disconnected", f"{type(exc).__name__}: {exc}")
            else:
                self._line(*lines.rest(), unfinished=True)  # stopped mid-line
            finally:
                try:
                    link.close()
                except (OSError, serial.SerialException):
                    pass
            self._halt.wait(RETRY_S)

    def _read(self, link, lines):
        while not self._halt.is_set():
            data = link.read(max(1, link.in_waiting))
            if data:
                for raw, dropped in lines.feed(data):
                    self._line(raw, dropped)

    def _line(self, raw, dropped=0, unfinished=False):
        """Put one line's record on the queue (nothing for a blank line)."""
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if not text.strip():
            return
        rec = {"time": self.clock(), "port": self.port, "line": text}
        if dropped:
            rec["truncated"] = dropped
        if unfinished:
            rec["unfinished"] = True
        event = parse_line(text)
        if event:
            rec["event"] = event
        self.out.put(rec)


class Monitor:
    """Readers for several ports feeding one queue; `records()` yields them as they come."""

    def __init__(self, ports, record_path=None):
        self.ports = list(ports)
        self.queue = queue.Queue()
        self._t0 = time.monotonic()
        self.readers = [PortReader(p, self.queue, self.clock) for p in self.ports]
        self._record = open(record_path, "w") if record_path else None  # noqa: SIM115
        self.tile_of_port = {}

    def clock(self):
        return round(time.monotonic() - self._t0, 4)

    def start(self):
        self.queue.put(
            {
                "time": 0.0,
                "port": "*",
                "status": "started",
                "wall": time.time(),
                "ports": self.ports,
            }
        )
        for r in self.readers:
            r.start()
        return self

    def stop(self):
        for r in self.readers:
            r.stop()
        for r in self.readers:
            r.join(2)
        self.drain()
        if self._record:
            self._record.close()
            self._record = None

    def _take(self, rec):
        event = rec.get("event")
        if event and "tile" in event:
            self.tile_of_port[rec["port"]] = event["tile"]
        if self._record:
            self._record.write(json.dumps(rec, sort_keys=True) + "\n")
            self._record.flush()
        return rec

    def next(self, timeout=0.1):
        """The next record (written to the record file), or None after `timeout` seconds."""
        try:
            return self._take(self.queue.get(timeout=timeout))
        except queue.Empty:
            return None

    def drain(self):
        out = []
        while True:
            try:
                out.append(self._take(self.queue.get_nowait()))
            except queue.Empty:
                return out


SIM_RECORDING = "blinks-sim"  # the "kind" of a `blinks sim --record` file's first line


def load_records(path):
    """The records of a --record file; a malformed line is an error naming the file and line
    (a file of the simulator's own recordings is told apart, with the command that plays it)."""
    records = []
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(
                    f"{path}:{n}: not UTF-8 text, so no `blinks monitor --record` file"
                )
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc})") from None
            if n == 1 and isinstance(rec, dict) and rec.get("kind") == SIM_RECORDING:
                raise ValueError(
                    f"{path} is a recording of the simulator (`blinks sim --record`), not of "
                    f"tiles: play it with `blinks sim --replay {path}`"
                )
            if not isinstance(rec, dict) or "port" not in rec or "time" not in rec:
                raise ValueError(
                    f"{path}:{n}: a record of `blinks monitor --record` needs 'time' and 'port'"
                )
            records.append(rec)
    return records
