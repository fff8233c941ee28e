"""Bulk frames, the build stream and receiving a build into files (runtime/bulk.py, bundle.py,
receive.py, hal/build_store.py), on CPython and on the real MicroPython (mpy_runner)."""

import binascii

from rt_share import VALUE, End, module, pair, run_pair, two_tiles
from runtime import bulk, bundle, receive
from runtime.button import SHARE_CLICKS, Button


def _data_frame(n):
    buf = bytearray(bulk.DATA_HEAD + n + bulk.CRC)
    bulk.start(buf, bulk.DATA, VALUE, 0x1234)
    bulk.put32(buf, bulk.HEAD, 4096)
    buf[bulk.DATA_HEAD : bulk.DATA_HEAD + n] = module(9, n)
    return bytearray(bulk.seal(buf, len(buf)))


def test_a_bulk_frame_with_any_flipped_bit_is_refused():
    frame = _data_frame(bulk.BLOCK)
    n = len(frame)
    assert n == bulk.MAX_FRAME and bulk.check(frame, n)
    for bit in range(n * 8):
        frame[bit >> 3] ^= 1 << (bit & 7)
        assert not bulk.check(frame, n)
        frame[bit >> 3] ^= 1 << (bit & 7)
    x = 12345
    for _ in range(300):  # 2 to 4 flips at random places: CRC-32 catches every one
        flips = []
        while len(flips) < 2 + x % 3:
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if x % (n * 8) not in flips:
                flips.append(x % (n * 8))
        for bit in flips:
            frame[bit >> 3] ^= 1 << (bit & 7)
        assert not bulk.check(frame, n)
        for bit in flips:
            frame[bit >> 3] ^= 1 << (bit & 7)
    assert bulk.check(frame, n)


def test_a_frame_of_another_kind_or_length_is_not_a_bulk_frame():
    frame = _data_frame(16)
    assert bulk.check(frame, len(frame))
    assert not bulk.check(frame, len(frame) - 1)
    frame[0] = 0xA5  # a datagram's kind
    assert not bulk.check(frame, len(frame))
    assert not bulk.check(bytearray(300), 300)


def test_a_manifest_reads_back_and_a_bad_one_is_refused():
    d = bytes(range(32))
    entries = [("fw/b1/runtime/tile.mpy", 10, d), ("fw/b1/v.json", 0, d), ("main.py", 5, d)]
    data = bundle.encode("b1", entries)
    assert bundle.decode(data) == ("b1", entries)
    for path in ("fw/b1/../x", "/main.py", "fw/b2/x.mpy", "fw/b1/x.mpy.tmp", "fw/b1//x", "fw/b1/"):
        bad = bundle.encode("b1", [(path, 1, d), ("main.py", 1, d)])
        try:
            bundle.decode(bad)
            raise AssertionError("accepted " + path)
        except bundle.BadManifest:
            pass
    for bad in (data[:-1], data + b"x", b"XXXX" + data[4:], bundle.encode("b1", entries[:2])):
        try:
            bundle.decode(bad)
            raise AssertionError("accepted a bad manifest")
        except bundle.BadManifest:
            pass


class Sink:
    def __init__(self, size, start):
        self.got = bytearray(size)  # made once: MicroPython's test heap is small
        self.end = start

    def write(self, offset, view):
        assert offset == self.end
        self.got[offset : offset + len(view)] = view
        self.end += len(view)


class Stream:
    def __init__(self, data):
        self.data = data

    def read(self, offset, view):
        view[:] = self.data[offset : offset + len(view)]


def _transfer(lose=None, flip=None, start=0):
    data = module(7, 5000)
    a, b = pair()
    a.lose = lose
    b.lose = lose
    b.flip = flip
    sink = Sink(len(data), start)
    sink.got[:start] = data[:start]
    puller = bulk.Puller(a, 0, 77, sink)
    puller.pull(start, len(data))
    server = bulk.Server(b, Stream(data), len(data), 77)

    def take(frame, now):
        if bulk.check(frame, len(frame)):
            puller.take(frame, len(frame), now)
        else:
            puller.bad += 1

    def step(now):
        puller.poll(now, VALUE)  # the owner's order: the next REQ, then the window that came
        puller.flush()
        return puller.done()

    ms = run_pair(step, a, b, server, take)
    assert sink.end == len(data) and sink.got == data
    return puller, ms


def test_a_stream_arrives_whole_over_a_lossy_link_and_resumes_anywhere():
    clean, _ = _transfer()
    assert clean.requests == 3  # 5000 bytes in windows of 8 x 256
    lossy, _ = _transfer(lose=lambda k: k % 3 == 0)
    assert lossy.requests > clean.requests
    resumed, _ = _transfer(start=3333)
    assert resumed.received == 5000 - 3333


def test_the_next_req_goes_out_before_the_last_window_is_written_and_its_gap_counts_from_then():
    data = module(3, 4096)
    a, b = pair()
    sink = Sink(len(data), 0)
    puller = bulk.Puller(a, 0, 77, sink)
    puller.pull(0, len(data))
    server = bulk.Server(b, Stream(data), len(data), 77)
    a.now = 1000
    assert puller.poll(1000, VALUE) and a.sent == 1
    server.take_req(0, b.inbox[0], len(b.inbox[0]))
    server.pump(0, VALUE)
    for frame in a.inbox:
        puller.take(frame, len(frame), 1050)
    assert sink.end == 0 and puller.pending is not None  # the window waits for the REQ
    a.now = 1290  # the pass began at 1060; writing flash took it to 1290 before the REQ left
    assert puller.poll(1060, VALUE) and a.sent == 2
    puller.flush()
    assert sink.end == 2048 and sink.got[:2048] == data[:2048]
    # the gap counts from when the REQ left (1290), not from the pass's start: no REQ again yet
    assert not puller.poll(1300, VALUE) and a.sent == 2
    assert puller.poll(1500, VALUE) and a.sent == 3


def test_the_block_size_falls_on_a_noisy_link():
    noisy, _ = _transfer(flip=lambda k: k % 2 == 0)
    assert noisy.block < bulk.BLOCK


def _receive(store_s, store_r, cut_after=None):
    source = bundle.Source(store_s)
    a, b = pair()
    r = receive.Receiver(
        a,
        store_r,
        0,
        5,
        source.build,
        source.size,
        source.manifest_len,
        source.manifest_crc,
    )
    server = bulk.Server(b, source, source.size, 5)

    def take(frame, now):
        if bulk.check(frame, len(frame)) and frame[0] == bulk.DATA:
            r.puller.take(frame, len(frame), now)

    def step(now):
        r.step(now, VALUE)
        if cut_after is not None and r.got >= cut_after:
            return True
        return r.phase >= receive.READY

    run_pair(step, a, b, server, take)
    return r, source


def test_a_source_streams_the_manifest_a_piece_at_a_time_byte_for_byte():
    """A sharing tile never holds its manifest whole (a fragmented heap may have no block that
    size): read at any offset and length, the stream is the manifest, then the files."""
    store_s, _ = two_tiles()
    source = bundle.Source(store_s)
    whole = bundle.encode(source.build, source.entries)
    assert source.manifest_len == len(whole)
    assert source.manifest_crc == binascii.crc32(whole) & 0xFFFFFFFF
    assert bundle.decode(whole)[1] == source.entries
    first = source.entries[0]
    stream = whole + store_s_bytes(store_s, first[0])
    for offset in (0, 1, 4, 7, 40, len(whole) - 37, len(whole) - 1):
        for n in (1, 3, 37, 64, len(whole) - offset + 5):
            view = bytearray(n)
            source.read(offset, memoryview(view))
            assert bytes(view) == stream[offset : offset + n], (offset, n)


def store_s_bytes(store, path):
    view = bytearray(store.size(path))
    store.read(path, 0, memoryview(view))
    store.commit()
    return bytes(view)


def test_a_build_is_received_into_files_checked_then_switched_in_one_rename():
    store_s, store_r = two_tiles()
    r, source = _receive(store_s, store_r)
    assert r.phase == receive.READY and store_r.running() == "aaaa"  # not switched yet
    assert r.copied == 1200  # the module both builds share was copied on the tile
    for path, _size, digest in source.entries:
        where = "main.py.tmp" if path == "main.py" else path
        assert store_r.digest(where) == digest
    r.switch({"session": 5, "build": "bbbb", "parent": 0})
    assert store_r.running() == "bbbb" and store_r.load_state()["parent"] == 0
    assert store_r.size("fw/aaaa/x.json") >= 0  # the old build goes only after the switch
    store_r.prune(("bbbb",))
    assert store_r.size("fw/aaaa/x.json") < 0 and store_r.size("fw/bbbb/x.json") == 2


def test_a_cut_receive_resumes_from_what_was_committed():
    store_s, store_r = two_tiles(shared=False)
    _first, source = _receive(store_s, store_r, cut_after=9000)
    store_r.commit()  # what the file system kept of the file being written
    assert store_r.running() == "aaaa"
    again, _ = _receive(store_s, store_r)
    assert again.phase == receive.READY
    total = source.size - source.manifest_len
    assert again.puller.received - source.manifest_len < total - 8000
    for path, _size, digest in source.entries:
        assert store_r.digest("main.py.tmp" if path == "main.py" else path) == digest


def test_a_damaged_partial_file_is_caught_by_its_hash_and_received_again():
    store_s, store_r = two_tiles(shared=False)
    _receive(store_s, store_r, cut_after=5000)
    store_r.commit()
    with open(store_r.root + "fw/bbbb/runtime/b.mpy", "r+b") as f:
        f.seek(100)
        f.write(b"\x00\x01\x02")  # the flash lost a few bytes of what was committed
    r, source = _receive(store_s, store_r)
    assert r.phase == receive.READY
    for path, _size, digest in source.entries:
        assert store_r.digest("main.py.tmp" if path == "main.py" else path) == digest


def test_the_runtime_keeps_seven_clicks_from_every_game():
    b = Button()
    t = 1000
    for clicks in (3, SHARE_CLICKS, SHARE_CLICKS + 2):
        b.multi = b.share = False
        edges = []
        for _ in range(clicks):
            edges.append((t, True))
            edges.append((t + 60, False))
            t += 200
        b.ingest(edges, t, False)
        b.ingest([], t + 400, False)
        t += 1000
        if clicks == 3:
            assert b.multi and not b.share and b.click_count == 3
        else:
            assert b.share and not b.multi and b.click_count == 3  # the last game click
    End()  # (the helpers import on MicroPython too)


def test_a_tile_that_cannot_carry_a_share_on_after_its_restart_still_boots_its_game():
    """The receiver restarts into the new build and would offer it on; a file of it damaged
    since (its digest not version.json's) makes that impossible. The game boots all the same,
    and the log says why the share stopped here."""
    from rt_hal import Recorder, RtHal, run_to
    from runtime.tile import Tile

    _, store = two_tiles()
    with open(store.root + "fw/aaaa/x.json", "wb") as f:
        f.write(b"{}")  # not the bytes version.json names
    store.save_state({"session": 5, "build": "aaaa", "parent": 0})

    class StoreHal(RtHal):
        def build_store(self):
            return store

    hal = StoreHal()
    tile = Tile(hal, Recorder)
    assert any(line.startswith("BLINKS share resume failed") for line in hal.lines), hal.lines
    run_to(hal, tile, 200)
    assert tile.game.passes > 0  # the game runs
    assert store.load_state() is None  # the state was for this one boot
