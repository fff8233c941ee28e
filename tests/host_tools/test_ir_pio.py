"""The IR link PIO programs, assembled on the host and run in rp2040-pio-emulator.

A byte queued on the transmitter comes out on its pin as light: start bit, 8 data bits LSB
first, stop bit, 8 clocks a bit; the receiver, fed that waveform (also with a clock that runs
a little fast or slow, and starting at any phase), pushes the same bytes; the frame assembler
of the rp2 HAL turns them back into frames.
"""

from collections import deque

import pytest
from hal.ir_frames import FrameAssembler, complement, encode
from pio_dsl import FIRMWARE_PIO, load_pio_module
from pioemu import State, emulate

PIO = load_pio_module(FIRMWARE_PIO)
BIT = PIO.CLOCKS_PER_BIT


def transmit(data, idle_clocks=40):
    """Run ir_tx with `data` queued: the emitter pin's level at every clock."""
    prog = PIO.ir_tx
    assert prog.settings["out_shiftdir"] == 1  # LSB first
    fifo = deque(data)
    wave = []
    state = State(transmit_fifo=fifo, pin_directions=1)
    budget = len(data) * 12 * BIT + idle_clocks
    for before, after in emulate(
        prog.opcodes,
        stop_when=lambda op, s: s.clock >= budget,
        initial_state=state,
        shift_osr_right=True,
        out_base=0,
        out_count=1,
        set_base=0,
        set_count=1,
    ):
        # one step is one instruction; its delay makes it last several clocks
        wave.extend([after.pin_values & 1] * (after.clock - before.clock))
    return wave


def receive(wave, ratio=1.0, offset=0):
    """Run ir_rx on `wave` (sampled at `ratio` of the transmitter's clock): the bytes pushed."""
    prog = PIO.ir_rx
    n = int((len(wave) - offset) / ratio) - 2

    def level(state: State) -> int:
        i = offset + int(state.clock * ratio)
        return wave[i] if i < len(wave) else 0

    received = []
    for before, after in emulate(
        prog.opcodes,
        stop_when=lambda op, s: s.clock >= n,
        initial_state=State(),
        input_source=level,
        shift_isr_right=True,
    ):
        if len(after.receive_fifo) > len(before.receive_fifo):
            received.append(after.receive_fifo[-1] >> 24)
            after.receive_fifo.clear()  # the CPU reads the FIFO as it fills
    return bytes(received)


def reference_decode(wave):
    """Read a waveform as a logic analyser would, checking the framing on the way."""
    out, i = [], 0
    while i < len(wave):
        if wave[i] == 0:
            i += 1
            continue
        start = i
        assert wave[start : start + BIT] == [1] * BIT, "start bit is one bit time of light"
        byte = 0
        for b in range(8):
            cell = wave[start + BIT * (b + 1) : start + BIT * (b + 2)]
            assert len(set(cell)) == 1, "each data bit holds for a whole bit time"
            byte |= cell[0] << b
        stop = wave[start + 9 * BIT : start + 10 * BIT]
        assert stop == [0] * len(stop) and len(stop) == BIT, "stop bit is one bit time of dark"
        out.append(byte)
        i = start + 10 * BIT
    return bytes(out)


def test_transmitter_frames_bytes_on_the_pin():
    data = bytes([0x00, 0xFF, 0xA5, 0x3C, 0x01, 0x80])
    wave = transmit(data)
    assert wave[0] == 0 and wave[1] == 1  # the pull takes one clock, then the start bit
    assert reference_decode(wave) == data
    assert wave[-30:] == [0] * 30  # idle: dark


def test_transmitter_is_dark_while_idle():
    assert transmit(b"", idle_clocks=50) == [0] * 50


def test_receiver_decodes_the_transmitter():
    data = bytes(range(0, 256, 17))
    assert receive(transmit(data)) == data


@pytest.mark.parametrize("ratio", [0.97, 1.0, 1.03])
@pytest.mark.parametrize("offset", [0, 3, 7])
def test_receiver_tolerates_clock_error_and_phase(ratio, offset):
    data = bytes([0x55, 0xAA, 0x0F, 0xF0, 0x81])
    wave = [0] * 13 + transmit(data)
    assert receive(wave, ratio=ratio, offset=offset) == data


def test_a_frame_survives_the_link_end_to_end():
    frames = [b"\x2a\x01", bytes(range(16)), b"\x07"]
    wire = b"".join(encode(f) for f in frames)
    got = receive(transmit(wire))
    assembler = FrameAssembler(gap_ms=3)
    out = [f for f in (assembler.feed(b, 0) for b in got) if f is not None]
    assert out == frames


def test_a_frame_cut_short_is_dropped_after_a_gap():
    assembler = FrameAssembler(gap_ms=3)
    assert assembler.feed(4, 0) is None and assembler.feed(9, 1) is None  # 2 of 5 bytes
    assert assembler.feed(1, 10) is None  # much later: a new frame starts (length 1)
    assert assembler.feed(0x33, 11) == b"\x33"
    with pytest.raises(ValueError):
        encode(b"")


def inverted_uart_bits(byte):
    """What an RP2040 UART with INV_TX puts on the pin for `byte`, one level per bit time."""
    line = [0] + [(byte >> i) & 1 for i in range(8)] + [1]  # start, data LSB first, stop
    return [1 - level for level in line]


def test_the_rp2040_uart_faces_put_the_same_light_on_the_air():
    for byte in (0x00, 0xFF, 0xA5, 0x3C, 0x81):
        pio_bits = transmit(bytes([byte]))[1 : 1 + 10 * BIT : BIT]  # one sample per bit
        assert inverted_uart_bits(complement(bytes([byte]))[0]) == pio_bits
