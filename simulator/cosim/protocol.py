"""The co-simulation wire protocol, shared by both ends of the pipe.

This module runs under CPython (the world's side) and under MicroPython (the tile host), so it
uses only `json` and `bytes.hex()`/`bytes.fromhex()`. One message is one line of JSON, UTF-8,
ending in "\\n"; bytes travel as lowercase hex strings, so frames of any value are safe. A request
(world -> host) is preceded by its length in six ASCII digits: MicroPython's stdin `readline`
reads one byte per system call, `read(n)` reads n at once, which makes a step several times
cheaper. Replies are bare lines (the world reads the pipe in large chunks). The full
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


LENGTH_DIGITS = 6
MAX_REQUEST = 10**LENGTH_DIGITS - 1


def frame(message):
    """A request: its length in six digits, then its line."""
    line = encode(message)
    if len(line) > MAX_REQUEST:
        raise ValueError(f"a request of {len(line)} bytes is over the protocol's {MAX_REQUEST}")
    return f"{len(line):06d}".encode() + line


def read_request(stream):
    """The next framed request from a binary stream, or None when the world closed the pipe."""
    head = stream.read(LENGTH_DIGITS)
    if not head:
        return None
    if len(head) != LENGTH_DIGITS or not head.isdigit():
        raise ValueError(f"bad request length {head!r}")
    size = int(head)
    body = stream.read(size)
    while len(body) < size:  # a pipe may hand over a long request in pieces
        more = stream.read(size - len(body))
        if not more:
            raise ValueError("the pipe closed inside a request")
        body += more
    return decode(body)


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
