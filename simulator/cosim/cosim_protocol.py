"""The co-simulation wire protocol, shared by both ends of the pipe.

This module runs under CPython (the world's side) and under MicroPython (the tile host), so it
uses only `json` and `bytes.hex()`/`bytes.fromhex()`. One message is one line of JSON, UTF-8,
ending in "\\n"; bytes travel as lowercase hex strings, so frames of any value are safe. The full
description, with an example exchange, is in PROTOCOL.md next to this file.

World -> MicroPython (requests):
    {"op": "boot", "t": ms, "game": "module:Class", "serial": hex}   a fresh Tile (also a reset)
    {"op": "step", "t": ms, "b": [[ms, down], ...], "f": [[face, ms, hex], ...], "busy": [face, ...]}
    {"op": "inspect"}
    {"op": "ret", "v": value}                                answer to a "call" below
MicroPython -> world (replies):
    {"op": "ready"}                                          after boot
    {"op": "done", "s": [[face, hex], ...], "c": [[six colours], ...], "l": [text, ...],
     "v": [hex, ...]}                                        after a step: sends, shows, logs, saves
    {"op": "inspect", "v": {...}}
    {"op": "call", "m": "entropy" | "load"}                  a HAL call only the world can answer
    {"op": "error", "trace": text}                           the firmware raised; the tile is stopped
"""

import json

# The HAL calls the tile host forwards to the world while a step is under way (rare ones only:
# everything frequent travels in the step request or the step reply).
CALLS = ("entropy", "load")


def encode(message):
    """One message as a line of bytes."""
    return json.dumps(message).encode() + b"\n"


def decode(line):
    """A line of bytes back to a message; raises ValueError on anything that is not a message."""
    if not line:
        raise ValueError("empty line: the other end closed the pipe")
    message = json.loads(line)
    if not isinstance(message, dict) or "op" not in message:
        raise ValueError(f"not a co-simulation message: {line[:80]!r}")
    return message


def to_hex(data):
    """Frame or blob bytes as text (None stays None)."""
    if data is None:
        return None
    return bytes(data).hex()


def from_hex(text):
    """Text back to bytes (None stays None)."""
    if text is None:
        return None
    return bytes.fromhex(text)
