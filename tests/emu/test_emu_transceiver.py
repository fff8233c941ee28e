"""The faces' transceivers on emulated tiles, measured the way a board would measure them.

Two tiles face each other. Tile B runs a reflector: a state machine that lights its face the
moment its detector sees light. Tile A runs a probe: a state machine at 125 MHz that lights its
face, then counts 16 ns turns until its detector answers and while the answer lasts. Plain
MicroPython and PIO, no game; the transceiver's figures are changed between measurements
(host_tools/emu/transceiver.py).
"""

import dataclasses
import subprocess
import sys

import pytest

from host_tools.emu import transceiver
from host_tools.emu.cluster import EmuCluster

TURN_NS = 16  # a turn of the probe's counting loops: 2 cycles at 125 MHz
BUDGET = 50_000  # turns the probe waits for an answer (800 us)

REFLECTOR = """
import rp2
from machine import Pin

@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
def reflector():
    label("wait")
    jmp(pin, "wait")  # dark (the detector's output is high)
    set(pins, 1)[31]  # light back, 1 us
    nop()[31]
    nop()[31]
    nop()[31]
    set(pins, 0)
    label("lit")
    jmp(pin, "wait")  # until the detector's pulse ends
    jmp("lit")

rp2.StateMachine(4, reflector, freq=125_000_000, set_base=Pin(2 * FACE),
                 jmp_pin=Pin(2 * FACE + 1, Pin.IN, Pin.PULL_UP)).active(1)
print("reflecting")
"""

PROBE = """
import rp2, time
from machine import Pin

@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
def probe():
    pull(block)
    mov(y, osr)  # cycles the light stays on after the answer
    pull(block)
    mov(x, osr)  # turns to wait for an answer
    set(pins, 1)
    set(pins, KEEP_LIT)  # a flash of 8 ns (0), or light that stays on (1)
    label("dark")
    jmp(pin, "more")
    jmp("seen")
    label("more")
    jmp(x_dec, "dark")
    label("seen")
    mov(isr, x)
    push(block)
    mov(x, invert(null))
    label("low")
    jmp(pin, "high")
    jmp(x_dec, "low")
    label("high")
    mov(isr, x)
    push(block)
    label("hold")
    jmp(y_dec, "hold")
    set(pins, 0)

sm = rp2.StateMachine(0, probe, freq=125_000_000, set_base=Pin(2 * FACE),
                      jmp_pin=Pin(2 * FACE + 1, Pin.IN, Pin.PULL_UP))
sm.active(1)
for _ in range(PULSES):
    sm.put(2500)  # 20 us more light
    sm.put(BUDGET)
    waited, low = sm.get(), sm.get()
    print("P", -1 if waited == 0xFFFFFFFF else BUDGET - waited, 0xFFFFFFFF - low)
    time.sleep_ms(3)  # longer than any recovery
sm.active(0)
"""


def run_on(port, source, **names):
    """Run a MicroPython script on the tile at `port`; its printed lines."""
    head = "".join(f"{key} = {value!r}\n" for key, value in names.items())
    proc = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, "exec", head + source],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


@pytest.fixture(scope="module")
def pair(rp2_images, tmp_path_factory):
    """Tiles A and B face to face (A's face fa against B's face fb), B reflecting."""
    tiles = EmuCluster(
        tiles=2, shape="line", state_dir=str(tmp_path_factory.mktemp("pair")), mode="fast"
    )
    tiles.start()
    try:
        a, fa, b, fb = tiles.wires[0]
        assert run_on(tiles.ports[b], REFLECTOR, FACE=fb) == ["reflecting"]
        yield tiles, a, fa
    finally:
        tiles.stop()


def probe(pair, model, pulses=12, keep_lit=False, watch=None):
    """Tile A's probe, `pulses` times with the transceivers set to `model`: a list of (ns until
    its detector answered, or None; ns the answer lasted). With `watch`, the detector watched
    is that other face's of tile A, not the lit face's."""
    tiles, a, fa = pair
    tiles.set_transceiver(model)
    program = PROBE.replace("KEEP_LIT", str(int(keep_lit)))  # asm_pio sees no globals
    if watch is not None:
        program = program.replace("jmp_pin=Pin(2 * FACE + 1", f"jmp_pin=Pin(2 * {watch} + 1")
    lines = run_on(tiles.ports[a], program, FACE=fa, PULSES=pulses, BUDGET=BUDGET)
    out = []
    for line in lines:
        _, waited, low = line.split()
        out.append((None if int(waited) < 0 else int(waited) * TURN_NS, int(low) * TURN_NS))
    assert len(out) == pulses
    assert tiles.stats()["late_light"] == [0, 0]  # no light reached a detector in its past
    return out


def test_a_detector_answers_light_late_with_a_pulse_of_its_own(pair):
    # A's light stays on 20 us past the answer: what A's detector shows is its echo, shaped
    # by the detector (1-4 us, drawn per pulse), 0.27-0.77 us after the light
    answers = probe(pair, transceiver.DATASHEET_WORST, pulses=16, keep_lit=True)
    for delay, width in answers:
        assert 270 <= delay <= 770 + TURN_NS
        assert 1000 - TURN_NS <= width <= 4000 + TURN_NS
    assert len({width for _, width in answers}) > 8  # drawn anew for every pulse
    assert len({delay for delay, _ in answers}) > 4  # the jitter


def test_light_reaches_the_facing_tile_after_the_transceivers_delay_alone(pair):
    # A flashes, B answers the moment its detector does, A sees the answer: a round trip is
    # the detector's delay twice and a few cycles (light used to cross in a slice, 8 us)
    exact = transceiver.Transceiver(
        pulse_min_us=1.63, pulse_max_us=1.63, jitter_us=0, recovery_us=0, echo=False
    )
    trips = [delay for delay, _ in probe(pair, exact)]
    assert len(set(trips)) == 1 and 2 * 270 <= trips[0] <= 2 * 270 + 4 * 8 + TURN_NS
    jittered = [delay for delay, _ in probe(pair, dataclasses.replace(exact, jitter_us=0.5))]
    assert all(2 * 270 <= trip <= 2 * 770 + 4 * 8 + TURN_NS for trip in jittered)
    assert len(set(jittered)) > 3


def test_after_its_own_light_a_detector_is_blind_or_rings(pair):
    # B's answer comes 0.3 us after A's flash went out: inside A's recovery
    blind = transceiver.Transceiver(echo=False)  # 300 us blind
    assert [delay for delay, _ in probe(pair, blind, pulses=6)] == [None] * 6
    # ringing: pulses of A's detector's own, 2-20 us apart, with no light at all
    ring = dataclasses.replace(blind, recovery_mode="ring")
    tiles, a, fa = pair
    b = 1 - a
    tiles.lift(b)  # alone: B would answer its own ringing with light, and ring on for ever
    try:
        answers = probe(pair, ring, pulses=12)
    finally:
        tiles.place(b, beside=a, face=fa)
    assert all(
        delay is not None and 2000 - TURN_NS <= delay <= 20_000 + TURN_NS for delay, _ in answers
    )
    assert all(1000 - TURN_NS <= width <= 4000 + TURN_NS for _, width in answers)
    assert len({delay for delay, _ in answers}) > 6  # at random, not B's answer


def test_a_lost_burst_never_reaches_the_facing_detector(pair):
    tiles = pair[0]
    clean = transceiver.Transceiver(recovery_us=0, echo=False)
    tiles.set_loss(1.0)  # every burst lost: B never sees A's flash, so never answers
    try:
        assert [delay for delay, _ in probe(pair, clean, pulses=4)] == [None] * 4
    finally:
        tiles.set_loss(0.0)
    assert all(delay is not None for delay, _ in probe(pair, clean, pulses=4))


def test_a_lost_pulse_is_a_rising_edge_of_light_that_gives_no_pulse(pair):
    clean = transceiver.Transceiver(recovery_us=0, echo=False)
    lost = dataclasses.replace(clean, pulse_loss=1.0)
    assert [delay for delay, _ in probe(pair, lost, pulses=4)] == [None] * 4
    # each way at random, flash and answer: an answer about a quarter of the time
    some = [delay for delay, _ in probe(pair, dataclasses.replace(clean, pulse_loss=0.5), 24)]
    assert 0 < some.count(None) < 24
    assert all(delay is not None for delay, _ in probe(pair, clean, pulses=4))


def test_light_between_a_tiles_own_faces_reaches_them_at_the_level_set(pair):
    fa = pair[2]
    watch = (fa + 1) % 6  # a face of A's that faces nobody
    clean = transceiver.Transceiver(recovery_us=0, echo=False)
    assert [delay for delay, _ in probe(pair, clean, pulses=4, watch=watch)] == [None] * 4
    leaking = dataclasses.replace(clean, crosstalk=1.0)
    delays = [delay for delay, _ in probe(pair, leaking, pulses=4, watch=watch)]
    assert all(delay is not None and 270 <= delay <= 770 + TURN_NS for delay in delays), delays
    half = [
        delay
        for delay, _ in probe(pair, dataclasses.replace(clean, crosstalk=0.5), 24, watch=watch)
    ]
    assert 0 < half.count(None) < 24
