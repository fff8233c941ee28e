"""Record every table input with its simulated time, and play a recording back.

File format (JSON Lines, one object a line):
  line 1: {"kind": "blinks-sim", "version": 1, "game": NAME, "seed": N, "tiles": N,
           "ir_loss": P, "ir_bit_flip": P (optional, 0), "layout": [[q, r, rotation], ...]}
  then:   {"t": ms, "op": OP, ...} with OP one of
          press {tile} · release {tile} · lift {tile} · place {tile, q, r, rot} ·
          rotate {tile, steps} · tokens {hints, errors} · end
Events are in time order. Replaying the same header and events on the same firmware gives the
same LEDs, because the world is deterministic for a given seed and input timeline.
"""

import json

FORMAT = "blinks-sim"
VERSION = 1
OPS = {
    "press": ("tile",),
    "release": ("tile",),
    "lift": ("tile",),
    "place": ("tile", "q", "r", "rot"),
    "rotate": ("tile", "steps"),
    "tokens": ("hints", "errors"),
    "end": (),
}


class RecordingError(ValueError):
    """A recording file that cannot be replayed; the message names the file and line."""


class Recorder:
    """Appends events to a JSON Lines file as they happen (flushed, so a crash loses nothing)."""

    def __init__(self, path: str, header: dict):
        self.path = path
        self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - stays open while recording
        head = {"kind": FORMAT, "version": VERSION}
        head.update(header)
        self._write(head)
        self.closed = False

    def _write(self, obj):
        self._file.write(json.dumps(obj, sort_keys=True) + "\n")
        self._file.flush()

    def record(self, t: int, op: str, **fields):
        if op not in OPS:
            raise ValueError(f"unknown op {op!r}")
        event = {"t": int(t), "op": op}
        event.update(fields)
        self._write(event)

    def close(self, t: int):
        if not self.closed:
            self.record(t, "end")
            self._file.close()
            self.closed = True


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(path, n, event, key):
    if not _is_int(event.get(key)):
        raise RecordingError(f"{path}:{n}: {event.get('op')!r} needs an integer {key!r}")


def _check_header(path, n, head):
    """The header rebuilds the table: its layout, game and infrared loss must make sense."""
    for key in ("seed", "tiles"):
        if not _is_int(head.get(key)):
            raise RecordingError(f"{path}:{n}: the header needs an integer {key!r}")
    layout = head.get("layout")
    if not (
        isinstance(layout, list)
        and layout
        and all(isinstance(c, list) and len(c) == 3 and all(map(_is_int, c)) for c in layout)
    ):
        raise RecordingError(
            f"{path}:{n}: the header needs a 'layout': a list of [q, r, rotation] integers"
        )
    if len({(q, r) for q, r, _ in layout}) < len(layout):
        raise RecordingError(f"{path}:{n}: the layout puts two tiles on one cell")
    for key in ("ir_loss", "ir_bit_flip"):
        p = head.get(key, 0.0)
        if not (isinstance(p, (int, float)) and not isinstance(p, bool)) or not 0.0 <= p <= 1.0:
            raise RecordingError(f"{path}:{n}: {key!r} must be a probability between 0 and 1")
    if not isinstance(head.get("game"), (str, type(None))):
        raise RecordingError(f"{path}:{n}: 'game' must be a game's name")


def load(path: str) -> tuple:
    """Read a recording: (header dict, list of events). Raises RecordingError with FILE:LINE."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise RecordingError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordingError(f"{path}: not a blinks sim recording (not UTF-8 text)") from None
    header = None
    events = []
    last_t = 0
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            raise RecordingError(f"{path}:{n}: not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise RecordingError(f"{path}:{n}: expected a JSON object")
        if header is None:
            if obj.get("kind") != FORMAT:
                raise RecordingError(
                    f'{path}:{n}: not a blinks sim recording (no "kind": "{FORMAT}")'
                )
            if obj.get("version") != VERSION:
                raise RecordingError(
                    f"{path}:{n}: recording version {obj.get('version')!r}, this simulator reads {VERSION}"
                )
            _check_header(path, n, obj)
            header = obj
            continue
        op = obj.get("op")
        if op not in OPS:
            raise RecordingError(f"{path}:{n}: unknown op {op!r} (known: {', '.join(sorted(OPS))})")
        _check_int(path, n, obj, "t")
        if obj["t"] < last_t:
            raise RecordingError(
                f"{path}:{n}: time {obj['t']} goes back (previous event at {last_t})"
            )
        last_t = obj["t"]
        for key in OPS[op]:
            _check_int(path, n, obj, key)
        events.append(obj)
    if header is None:
        raise RecordingError(f"{path}: empty recording")
    return header, events


class Replay:
    """Hands out recorded events as simulated time reaches them."""

    def __init__(self, events: list):
        self.events = list(events)
        self.index = 0

    @property
    def done(self) -> bool:
        return self.index >= len(self.events)

    def next_time(self):
        return None if self.done else self.events[self.index]["t"]

    def pop(self) -> dict:
        event = self.events[self.index]
        self.index += 1
        return event

    @property
    def end_time(self):
        return self.events[-1]["t"] if self.events else 0
