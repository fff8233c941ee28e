"""The room's light shapes (host_tools/emu/ambient.py) against the figures of their sources."""

from itertools import pairwise

from host_tools.emu import ambient


def bursts(spans, gap_ms=0.1):
    """The spans grouped into bursts (carrier cycles less than gap_ms apart): (start, end)."""
    out = []
    for on, off in spans:
        if out and on - out[-1][1] < gap_ms:
            out[-1][1] = off
        else:
            out.append([on, off])
    return out


def test_an_nec_press_is_a_leader_32_bits_and_a_stop_burst_of_38_khz_carrier():
    spans, end = ambient.nec_frame(100.0, address=0x00, command=0x45)
    groups = bursts(spans)
    assert len(groups) == 1 + 32 + 1
    leader = groups[0]
    assert leader[0] == 100.0 and 8.9 < leader[1] - leader[0] <= 9.0
    assert abs(groups[1][0] - 113.5) < 1e-9  # 9 ms leader, 4.5 ms space
    starts = [g[0] for g in groups[1:]]
    bits = [round((b - a) / ambient.NEC_UNIT_MS) == 4 for a, b in pairwise(starts)]
    data = sum(1 << i for i, one in enumerate(bits) if one)
    assert data == 0x00 | 0xFF << 8 | 0x45 << 16 | 0xBA << 24  # address, ~address, cmd, ~cmd
    # 16 ones whatever the code (a byte and its inverse): 9 + 4.5 + 16 x 1.125 + 16 x 2.25 = 67.5
    assert abs(end - 100.0 - (67.5 + 0.5625)) < 1e-9  # and the closing burst
    period = [b[0] - a[0] for a, b in pairwise(spans) if b[0] - a[0] < 0.1]
    assert all(abs(p - 1000 / 38000) < 1e-9 for p in period)
    assert all(abs((off - on) - 1000 / 38000 / 3) < 1e-9 for on, off in spans)


def test_a_held_key_repeats_a_leader_a_short_space_and_one_burst():
    groups = bursts(ambient.nec_repeat(0.0))
    assert len(groups) == 2 and abs(groups[1][0] - 11.25) < 1e-9


def test_a_lamp_on_50_hz_mains_brightens_100_times_a_second():
    spans = ambient.lamp(0.0, 1000)
    assert len(spans) == 100
    assert [round(on, 6) for on, _ in spans[:3]] == [0.0, 10.0, 20.0]
    assert all(abs(off - on - ambient.LAMP_FLASH_MS) < 1e-9 for on, off in spans)
    assert len(ambient.lamp(0.0, 1000, mains_hz=60)) == 120
