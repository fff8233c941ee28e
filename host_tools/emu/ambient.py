"""Light in a room that is no tile's, as it reaches a face's detector: the shapes the emulated
cluster shines (`EmuCluster.shine`). Each is a list of (on_ms, off_ms) spans of light; the
detector model answers every dark-to-light edge with a pulse of its own (host_tools/emu/js/
detector.mjs), as a SIR receiver answers any fast edge.

- A TV remote's press: an NEC frame (NEC's infrared remote control format, as SB-Projects'
  "NEC Protocol" page and Vishay's application note "Data Formats for IR Remote Control" give
  it): a 9 ms burst, 4.5 ms of space, 32 bits (address, its inverse, command, its inverse,
  least significant bit first), each a 562.5 us burst and then 562.5 us of space for a 0 or
  1687.5 us for a 1, and a closing 562.5 us burst: 67.5 ms to the last bit's end whatever the
  code. A held key repeats a 9 ms burst, 2.25 ms of space and a 562.5 us burst every 108 ms.
  Each burst is a 38 kHz carrier: light for a third of each 26.3 us cycle (SB-Projects gives
  1/3 or 1/4 as the usual duty).
- A lamp's flicker: a lamp on the mains brightens and dims twice a cycle (its light follows
  the power, which peaks twice a period), so on 50 Hz mains every 10 ms. A SIR receiver is
  AC-coupled: the slow swell of the light it rejects, but a fluorescent tube on a magnetic
  ballast strikes again each half period, a sharp rise of light. So the lamp here is that rise
  alone, a LAMP_FLASH_MS flash every half period: a pulse on every face it reaches, 100 a
  second, which is the worst a lamp gives (an incandescent bulb's smooth swell gives none).
"""

CARRIER_HZ = 38000
CARRIER_DUTY = 1 / 3
NEC_UNIT_MS = 0.5625
NEC_LEADER_MS = 9.0
NEC_SPACE_MS = 4.5
NEC_REPEAT_SPACE_MS = 2.25
NEC_REPEAT_MS = 108.0
MAINS_HZ = 50
LAMP_FLASH_MS = 0.02  # the restrike's rise, as light that lasts 20 us


def burst(start_ms, length_ms):
    """A burst of 38 kHz carrier: light for CARRIER_DUTY of each cycle."""
    period = 1000 / CARRIER_HZ
    cycles = int(length_ms / period)
    return [
        (start_ms + k * period, start_ms + k * period + period * CARRIER_DUTY)
        for k in range(cycles)
    ]


def nec_frame(start_ms, address=0x00, command=0x45):
    """One key press of a remote: an NEC frame from `start_ms`; the spans and its end."""
    spans = burst(start_ms, NEC_LEADER_MS)
    t = start_ms + NEC_LEADER_MS + NEC_SPACE_MS
    data = address | (~address & 0xFF) << 8 | command << 16 | (~command & 0xFF) << 24
    for bit in range(32):
        spans += burst(t, NEC_UNIT_MS)
        t += NEC_UNIT_MS * (4 if data >> bit & 1 else 2)
    spans += burst(t, NEC_UNIT_MS)
    return spans, t + NEC_UNIT_MS


def nec_repeat(start_ms):
    """The code a held key sends every NEC_REPEAT_MS after its frame."""
    t = start_ms + NEC_LEADER_MS + NEC_REPEAT_SPACE_MS
    return burst(start_ms, NEC_LEADER_MS) + burst(t, NEC_UNIT_MS)


def lamp(start_ms, length_ms, mains_hz=MAINS_HZ):
    """A lamp's flicker for `length_ms`: a flash at the start of each half mains period."""
    period = 500 / mains_hz
    count = int(length_ms * mains_hz * 2 // 1000)  # not length/period: 1000/8.33... is 119.99
    return [(start_ms + k * period, start_ms + k * period + LAMP_FLASH_MS) for k in range(count)]
