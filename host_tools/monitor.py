"""Read the output of many tiles at once: lines, parsed game events, reconnection, JSON Lines.

Each port has a reader thread that opens the port with pyserial (no raw REPL: the game keeps
running), splits its output into lines and hands them on with the host time. When a port
vanishes (unplugged, tile reset) the reader reports it and keeps trying to open it again.

A record (one JSON object per line) looks like
    {"time": 12.345, "port": "/dev/ttyACM0", "line": "LG state tile=... ", "event": {...}}
    {"time": 13.0, "port": "/dev/ttyACM0", "status": "disconnected"}
    {"time": 0.1, "port": "/dev/ttyACM1", "status": "waiting", "detail": "no such port yet; ..."}
where time is seconds since the monitor started and event is the parsed structured line.
"""

import json
import os
import queue
import re
import threading
import time

import serial

RETRY_S = 0.25
_FIELD = re.compile(r"(\w+)=(\S+)")
_FATAL = re.compile(r"^BLINKS (boot failed|game crashed):? ?(.*)$")


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
        m = re.match(r"tile=(\S+) t=(-?\d+) (.+?) -> (.+) shard=(\S+)$", rest)
        if not m:
            return None
        event.update(
            tile=m.group(1),
            t=int(m.group(2)),
            old=m.group(3),
            new=m.group(4),
            shard=None if m.group(5) == "-" else m.group(5),
        )
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
            try:
                self._read(link)
            except (OSError, serial.SerialException, TypeError) as exc:
                # pyserial raises TypeError from a read on a port closed under it
                self._status("disconnected", f"{type(exc).__name__}: {exc}")
            finally:
                try:
                    link.close()
                except (OSError, serial.SerialException):
                    pass
            self._halt.wait(RETRY_S)

    def _read(self, link):
        pending = b""
        while not self._halt.is_set():
            data = link.read(max(1, link.in_waiting))
            if not data:
                continue
            pending += data
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                text = raw.decode("utf-8", "replace").rstrip("\r")
                if text.strip():
                    rec = {"time": self.clock(), "port": self.port, "line": text}
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


def load_records(path):
    """The records of a --record file; a malformed line is an error naming the line."""
    records = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc})") from None
            if not isinstance(rec, dict) or "port" not in rec or "time" not in rec:
                raise ValueError(f"{path}:{n}: a record needs 'time' and 'port'")
            records.append(rec)
    return records
