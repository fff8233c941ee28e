"""What a person at a tile's serial port would see: is the tile at its friendly REPL?

A tile left in the raw REPL takes typed text silently (no echo, nothing runs until Ctrl-D); at
the friendly REPL `1+1` Enter echoes and prints 2. Also: a port that never answers.
"""

import os
import time

import serial

ANSWER = b"1+1\r\n2\r\n"


def typed_answer(port, give_up_s=10.0):
    """Type `1+1` Enter on `port`; everything the tile sent back, up to the answer if it comes.

    give_up_s only bounds a failing check (a tile in the raw REPL never answers).
    """
    data = b""
    with serial.Serial(port, timeout=0.1) as link:
        link.write(b"1+1\r")
        end = time.monotonic() + give_up_s
        while ANSWER not in data and time.monotonic() < end:
            data += link.read(4096)
    return data


class SilentPort:
    """A pseudo-terminal that nobody answers on: `path` is its /dev/pts/N device."""

    def __init__(self):
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)

    def close(self):
        os.close(self.master)
