"""Helpers for the bulk and share unit tests (CPython and MicroPython): a face link between two
stand-in HALs that loses the frames a test says, builds laid out in folders as `blinks flash`
lays them, and a loop that runs a sender and a receiver against each other."""

import hashlib
import json
import os

from hal.build_store import FileStore
from runtime import bulk

VALUE = 0x80  # the value byte of face value 0 (odd parity)


class End:
    """One end of a face link: what the other end sends lands in `inbox`; `lose(k)` says
    whether the k-th frame this end sends is lost, `flip(k)` whether its bytes are damaged."""

    def __init__(self):
        self.inbox = []
        self.peer = None
        self.sent = 0
        self.lose = None
        self.flip = None
        self.now = 0  # the HAL's clock: run_pair keeps it

    def millis(self):
        return self.now

    def send_frames(self, face, frames):
        for frame in frames:
            self.sent += 1
            data = bytearray(frame)
            if self.lose is not None and self.lose(self.sent):
                continue
            if self.flip is not None and self.flip(self.sent):
                data[len(data) // 2] ^= 0x10
            self.peer.inbox.append(data)
        return len(frames)


def pair():
    a = End()
    b = End()
    a.peer = b
    b.peer = a
    return a, b


_count = [0]


def folder(tag):
    """A fresh, empty folder (MicroPython has no tempfile), under $BLINKS_RT_TMP: the test's own
    temporary folder, which pytest sets and removes (tests/firmware/conftest.py), so two workers'
    MicroPython runs never share one and nothing is left in /tmp."""
    _count[0] += 1
    base = "{}/blinks-rt-share-{}-{}".format(os.getenv("BLINKS_RT_TMP") or "/tmp", tag, _count[0])
    remove_tree(base)
    os.mkdir(base)
    return base + "/"


def remove_tree(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        p = path + "/" + name
        try:
            os.listdir(p)
            remove_tree(p)
        except OSError:
            os.remove(p)
    os.rmdir(path)


def write(root, path, data):
    parts = path.split("/")
    q = root.rstrip("/")
    for part in parts[:-1]:
        q += "/" + part
        try:
            os.mkdir(q)
        except OSError:
            pass
    with open(root + path, "wb") as f:
        f.write(data)


def hexs(data):
    return "".join(f"{b:02x}" for b in data)


def lay_build(root, build, files):
    """Write a build as `blinks flash` does: fw/<build>/... with a version.json, and main.py."""
    record = {}
    for rel, data in files.items():
        write(root, "fw/" + build + "/" + rel, data)
        record[rel] = hexs(hashlib.sha256(data).digest())
    write(root, "fw/" + build + "/version.json", json.dumps({"files": record}).encode())
    write(root, "main.py", ('FIRMWARE_DIR = "fw/' + build + '"\nprint(1)\n').encode())


def module(seed, n):
    """n bytes shaped like a .mpy file (header, then bytes from the seed)."""
    out = bytearray(n)  # made once: MicroPython's test heap is small
    out[:4] = b"M\x06\x00\x1f"
    x = seed * 2654435761 & 0xFFFFFFFF or 1
    for i in range(4, n):
        x ^= x << 13 & 0xFFFFFFFF
        x ^= x >> 17
        x ^= x << 5 & 0xFFFFFFFF
        out[i] = x & 0xFF
    return out


def two_tiles(shared=True):
    """(sender store, receiver store): the sender runs build "bbbb", the receiver "aaaa"; with
    `shared`, one module is the same in both (the receiver copies it instead of pulling)."""
    s = folder("s")
    r = folder("r")
    new = {"runtime/a.mpy": module(1, 3000), "runtime/b.mpy": module(2, 9500), "x.json": b"{}"}
    old = {"runtime/a.mpy": module(3, 2000), "x.json": b"[]"}
    if shared:
        new["games/g.mpy"] = old["games/g.mpy"] = module(4, 1200)
    lay_build(s, "bbbb", new)
    lay_build(r, "aaaa", old)
    return FileStore(s), FileStore(r)


def run_pair(step, a, b, server, take_from_b, limit=200000):
    """Drive a transfer: each 5 ms `step(now)`, the server answers what reached it, and
    `take_from_b(frame, now)` takes each frame that reached the receiver. Returns the ms."""
    now = 0
    while now < limit:
        now += 5
        a.now = b.now = now
        for frame in b.inbox:
            if bulk.check(frame, len(frame)) and frame[0] == bulk.REQ:
                server.take_req(0, frame, len(frame))
        b.inbox = []
        server.pump(0, VALUE)
        for frame in a.inbox:
            take_from_b(frame, now)
        a.inbox = []
        if step(now):
            return now
    raise AssertionError("the transfer did not end")
