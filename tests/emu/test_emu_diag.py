"""`blinks diag` on emulated tiles: two tiles face to face, then the same two with the wire cut.

The command runs as a person runs it (a subprocess on the tiles' serial ports), against the
official MicroPython on emulated RP2040s. The cluster runs flat out (fast mode) until the
command asks a person to watch the tiles, then in realtime mode, where emulated time keeps to
the wall clock, so the button is pressed when the command asks for it, as a person would (in
fast mode an idle tile's 15 s wait passes in a moment). One test does both runs, on one
cluster: booting a pair costs more than either diag.
"""

import hashlib
import json
import subprocess
import sys
import threading
import time

import pytest
from emu_helpers import booted_build, flashed_image
from hal.ir_phy import turnaround_us

from simulator.mpy.build import build

CONTRACT_TILE = {"port", "micropython", "board", "pass_us", "heap_free_kb", "faces"}
CONTRACT_FACE = {
    "face",
    "neighbour",
    "sent",
    "received",
    "bad",
    "bit_errors",
    "reply_gap_us_min",
}


def run_diag(tiles, *args, timeout=1800):
    """(exit code, stdout, stderr) of `blinks diag` on every tile of the cluster, flat out until
    it asks a person to watch; a tile's button is pressed for half a second whenever the command
    asks for it."""
    ports = [x for port in tiles.ports for x in ("--port", port)]
    tiles.set_mode("fast")
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools.cli", "diag", *ports, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = []

    def listen():
        for line in proc.stderr:
            said.append(line)
            if "watch the tiles" in line:  # the pixels, then the button: a person's pace
                tiles.set_mode("realtime")
            if "press the button on tile " in line:
                tile = int(line.split("press the button on tile ")[1].split()[0])
                now = tiles.stats()["t"]  # the emulated time now, for the press to land in
                tiles.press(tile, 500, at_ms=now + 200)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    out = proc.stdout.read()
    code = proc.wait(timeout)
    listener.join(30)
    return code, out, "".join(said)


def flash_hashes(tiles):
    return [hashlib.sha256(open(tiles.flash_path(i), "rb").read()).hexdigest() for i in (0, 1)]


def lit_faces_in_turn(frames):
    """The faces lit alone, in the order the frames lit them (repeats of one face folded)."""
    order = []
    for _, rgb in frames:
        lit = [face for face, pixel in enumerate(rgb) if any(pixel)]
        if len(lit) == 1 and (not order or order[-1] != lit[0]):
            order.append(lit[0])
    return order


def wait_for_games(tiles, timeout_s=120):
    """Both tiles light their pixels again: the diag leaves them dark, their games do not (Lost
    Gems breathes white, its trough still lit)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if all(any(any(p) for p in tiles.leds(i)) for i in (0, 1)):
            return
        time.sleep(0.5)
    raise AssertionError(f"the games did not come back: {[tiles.leds(i) for i in (0, 1)]}")


@pytest.mark.long
def test_diag_passes_two_facing_tiles_and_names_a_cut_face(cluster, tmp_path):
    state = tmp_path / "state"
    flashed_image(build(), str(state), tiles=2)
    tiles = cluster(2, state=state, shape="line", mode="fast")
    booted_build(tiles, 0)
    booted_build(tiles, 1)
    [(a, fa, b, fb)] = tiles.wires
    expect = f"{a}:{fa}-{b}:{fb}"
    frames_before = [len(tiles.led_frames[i]) for i in (0, 1)]
    flash_before = flash_hashes(tiles)

    code, out, said = run_diag(tiles, "--json", "--expect", expect)

    assert code == 0, said
    report = json.loads(out)
    assert report["passed"] is True
    assert report["pairs"] == [[a, fa, b, fb]]
    firmware_gap = round(turnaround_us(), 1)
    for i, tile in enumerate(report["tiles"]):
        assert CONTRACT_TILE <= set(tile)
        assert tile["port"] == tiles.ports[i]
        assert tile["micropython"] == "1.28.0" and "RP2040" in tile["board"]
        assert tile["serial"] == tiles.serial_of(i).hex()
        assert 0 < tile["pass_us"] < 20000 and tile["heap_free_kb"] > 100
        assert tile["pixels"] == "shown" and tile["button"] == "pressed"
        assert tile["passed"] is True and tile["problems"] == []
        assert [f["face"] for f in tile["faces"]] == list(range(6))
        for face in tile["faces"]:
            assert CONTRACT_FACE <= set(face)
            assert face["hears_itself"] is True  # the emulated transceiver echoes, as a TFBS4711
            assert face["hears_own_frames"] is False
            assert face["reply_gap_us_firmware"] == firmware_gap
            me, other = (a, fa), (b, fb)
            if (i, face["face"]) in (me, other):
                partner = other if (i, face["face"]) == me else me
                assert face["neighbour"]["tile"] == partner[0]
                assert face["neighbour"]["face"] == partner[1]
                assert face["neighbour"]["port"] == tiles.ports[partner[0]]
                assert (face["sent"], face["received"], face["bad"]) == (50, 50, 0)
                assert face["bit_errors"] == 0
                # the shortest reply gap that worked is at most the firmware's own
                assert 0 < face["reply_gap_us_min"] <= firmware_gap
                # and the answers came sooner as the gap shrank: the patched quiet time is
                # what they waited for (a flat 2 ms once showed a loop too slow to answer)
                longest, shortest = face["sweep"][0], face["sweep"][-1]
                if shortest["answers"] < shortest["of"]:  # the step where answers were lost
                    shortest = face["sweep"][-2]
                assert shortest["gap_us"] == face["reply_gap_us_min"]
                sooner = longest["answer_after_us"] - shortest["answer_after_us"]
                assert sooner >= 0.8 * (longest["gap_us"] - shortest["gap_us"])
                assert face["margin_us"] == round(firmware_gap - face["reply_gap_us_min"], 1)
                assert face["passed"] is True
            else:
                assert face["neighbour"] is None and face["sent"] is None
                assert face["passed"] is None
    # each tile lit its faces one at a time, face 0 first, for a person to watch
    for i in (0, 1):
        assert lit_faces_in_turn(tiles.led_frames[i][frames_before[i] :]) == list(range(6))
    # the prompts went to stderr, stdout held only the JSON
    assert "watch the tiles" in said and f"press the button on tile {b}" in said
    # nothing was written on the tiles, and each went back to its game
    assert flash_hashes(tiles) == flash_before
    wait_for_games(tiles)

    # the wire between the two faces cut: both named as failed, with what they measured
    tiles.lift(b)
    code, out, said = run_diag(tiles, "--json", "--no-pixels", "--no-button", "--expect", expect)
    assert code == 1, said
    report = json.loads(out)
    assert report["passed"] is False
    for tile, face, other in ((a, fa, (b, fb)), (b, fb, (a, fa))):
        named = f"tile {tile} ({tiles.ports[tile]}) face {face}: expected to touch tile "
        assert f"{named}{other[0]} face {other[1]}, heard nothing" in said
        entry = report["tiles"][tile]["faces"][face]
        assert entry["passed"] is False and entry["neighbour"] is None
        assert entry["expected"] == {"tile": other[0], "face": other[1]}
        # the first face of the pair sends its 50; the other answers only what it hears
        assert entry["sent"] == (50 if (tile, face) == (a, fa) else 0)
        assert entry["received"] == 0 and entry["reply_gap_us_min"] is None
    assert all(t["pixels"] == "skipped" and t["button"] == "skipped" for t in report["tiles"])
    wait_for_games(tiles)
