"""The monitor against lines no tile should send: 16 MB without a newline, thousands of
" -> " in one state line, a line the port vanished in the middle of. Each is read and parsed
in time linear in its bytes, with bounded memory, and nothing that was said is dropped."""

import queue
import re
import time

from hypothesis import given
from hypothesis import strategies as st

from host_tools.bridge import monitor
from host_tools.bridge.monitor import MAX_LINE, LineSplitter, PortReader, parse_line

# The state pattern the monitor used to match with; the linear parser must agree with it.
OLD_STATE = re.compile(r"tile=(\S+) t=(-?\d+) (.+?) -> (.+) shard=(\S+)$")
GENEROUS_S = 10.0  # linear work here takes milliseconds; the quadratic kind took 15 to 38 s


def old_state(rest):
    m = OLD_STATE.match(rest)
    if not m:
        return None
    shard = None if m.group(5) == "-" else m.group(5)
    return {
        "tile": m.group(1),
        "t": int(m.group(2)),
        "old": m.group(3),
        "new": m.group(4),
        "shard": shard,
    }


pieces = st.sampled_from([" -> ", " shard=", "face down", "-", "R1", " ", "x", "->", "  "])


@given(st.lists(pieces, max_size=12))
def test_the_linear_state_parser_agrees_with_the_regex_it_replaces(parts):
    rest = "tile=ab t=5 " + "".join(parts)
    event = parse_line("LG state " + rest)
    want = old_state(rest.rstrip())  # parse_line strips the line first, as it always did
    assert (event and {k: v for k, v in event.items() if k != "kind"}) == (want or None)


def test_a_state_line_of_many_arrows_parses_right_and_at_once():
    states = " -> ".join(["s"] * 100_000)  # 400 kB: the old pattern needed hours
    start = time.process_time()
    event = parse_line(f"LG state tile=ab t=1 {states} shard=R1")
    assert time.process_time() - start < GENEROUS_S
    assert event["old"] == "s" and event["new"] == " -> ".join(["s"] * 99_999)
    assert event["shard"] == "R1"


def test_the_splitter_keeps_the_first_bytes_of_a_long_line_and_counts_the_rest():
    lines = LineSplitter(limit=8)
    assert lines.feed(b"abc\nlong") == [(b"abc", 0)]
    assert lines.feed(b"er than eight") == []
    assert lines.feed(b" bytes\nok\n") == [(b"longer t", 15), (b"ok", 0)]
    assert lines.rest() == (b"", 0)


class FakeSerial:
    """A port that sends `chunks`, then vanishes (OSError); opening it again stops the reader."""

    opened = 0

    def __init__(self, chunks, reader):
        self.chunks = iter(chunks)
        self.reader = reader
        self.in_waiting = 4096

    def read(self, size):
        chunk = next(self.chunks, None)
        if chunk is None:
            raise OSError(5, "Input/output error")
        return chunk

    def close(self):
        pass


def read_port(monkeypatch, chunks):
    """The records a PortReader puts out for a port sending `chunks` then vanishing."""
    out = queue.Queue()
    reader = PortReader("/dev/fake", out, clock=lambda: 0.0)

    def open_port(port, baudrate, timeout):
        FakeSerial.opened += 1
        if FakeSerial.opened > 1:  # the reader tries again after the port vanished: enough
            reader.stop()
            raise OSError(2, "No such file or directory")
        return FakeSerial(chunks, reader)

    FakeSerial.opened = 0
    monkeypatch.setattr(monitor.serial, "Serial", open_port)
    monkeypatch.setattr(monitor, "RETRY_S", 0.0)
    reader.run()
    return [out.get_nowait() for _ in range(out.qsize())]


def test_a_16_mb_line_without_newline_does_not_hold_up_the_next_line(monkeypatch):
    chunk = b"x" * 4096  # what a tty hands over at a time
    chunks = [chunk] * 4096 + [b"\nLG state tile=ab t=1 face down -> revealed shard=R1\n"]
    start = time.process_time()
    records = read_port(monkeypatch, chunks)
    assert time.process_time() - start < GENEROUS_S
    lines = [r for r in records if "line" in r]
    assert lines[0]["line"] == "x" * MAX_LINE
    assert lines[0]["truncated"] == 4096 * 4096 - MAX_LINE
    assert lines[1]["event"]["new"] == "revealed" and "truncated" not in lines[1]
    assert records[-1]["status"] == "disconnected"


def test_a_line_the_port_vanished_in_the_middle_of_is_kept_and_flagged(monkeypatch):
    records = read_port(monkeypatch, [b"LG count tile=ab t=9 sco", b"re=7\nBLINKS game cra"])
    assert [r.get("line") for r in records[1:-1]] == [
        "LG count tile=ab t=9 score=7",
        "BLINKS game cra",
    ]
    assert records[2]["unfinished"] is True and "unfinished" not in records[1]
    assert records[0]["status"] == "connected" and records[-1]["status"] == "disconnected"
