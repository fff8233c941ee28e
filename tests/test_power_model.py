"""bench/power_model.py and bench/play_pixels.py: the power budget's arithmetic on small known
inputs, a source for every term of the worst case, and the pixel meter's time weighting."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))

import play_pixels
import power_model as pm

from simulator.world import World


def test_a_white_pixel_at_full_cap_draws_three_channels_and_its_quiescent_current():
    white = (31 << 10) | (31 << 5) | 31
    assert pm.pixel_ma([white], 255) == pytest.approx(3 * pm.PIXEL_CHANNEL_MA + 0.6)
    assert pm.pixel_ma([0], 96) == pytest.approx(pm.PIXEL_QUIESCENT_MA)
    # one channel at half of 31 (15), capped at 62 of 255: 15 * 62 // 31 = 30
    assert pm.pixel_ma([15 << 5], 62) == pytest.approx(12.0 * 30 / 255 + 0.6)


def test_rails_convert_through_their_efficiency_to_the_cell():
    assert pm.rail_3v3(10) == pytest.approx(10 * 3.3 / (3.7 * 0.85))
    assert pm.rail_5v(10) == pytest.approx(10 * 5.0 / (3.7 * 0.85))
    assert pm.sleep_rail_3v3(1) == pytest.approx(3.3 / (3.7 * 0.75))


def test_rp2040_leakage_is_halved_for_each_ten_degrees_below_85():
    # 85 C -> 45 C is four halvings of the datasheet's 4.2 mA
    assert pm.rp2040_dormant_hot_ma() == pytest.approx(4.2 / 16)


def test_every_worst_case_term_has_a_source_and_the_total_is_their_sum():
    terms = pm.asleep_worst_terms()
    assert len(terms) >= 8
    for name, ma, source in terms:
        assert name and ma >= 0
        assert len(source) > 30, f"{name}: no source"
    assert pm.asleep_worst_ma(terms) == pytest.approx(sum(ma for _, ma, _ in terms))
    parts = " ".join(name for name, _, _ in terms)
    for part in ("transceivers", "boost", "charger", "protection", "self-discharge", "LEDs"):
        assert part in parts


def test_worst_figures_follow_from_the_currents():
    got = pm.worst_and_play_figures(0.0, 0.0, 0)
    asleep = pm.asleep_worst_ma()
    assert got["tile_ma_asleep_worst"] == round(asleep, 2)
    assert got["battery_days_asleep_worst"] == round(500 / asleep / 24, 1)
    chip = 9.0 * 125 / 48 + 1.2 + 0.2 + 6 * 0.070
    assert got["tile_ma_in_play"] == round(pm.rail_3v3(chip), 1)
    assert got["battery_hours_in_play"] == round(500 / pm.rail_3v3(chip), 1)


def test_the_emitters_duty_is_pulses_times_width_over_the_pass():
    # 100 pulses of 1.63 us in 20 ms on six faces at 38 mA
    assert pm.emitter_ma(100) == pytest.approx(6 * 38 * 100 * 1.63e-6 / 0.020)
    assert pm.value_pulses() > 0


class _Tile:
    def __init__(self):
        self.leds = [0] * 6

    def show(self, colors):
        self.leds[:] = colors


class _World:
    """The two things PixelMeter reads of a World: its tiles' hals and its clock."""

    def __init__(self, tiles):
        self.now = 0
        self._hals = [_Tile() for _ in range(tiles)]
        self.tiles = list(range(tiles))

    def hal(self, tid):
        return self._hals[tid]


def test_the_meter_weights_each_frame_by_how_long_it_was_shown():
    world = _World(2)
    meter = play_pixels.PixelMeter(world)
    red = 31 << 5
    world.now = 1000
    world.hal(0).show([red] * 6)  # tile 0: dark for 1 s, then red for 3 s
    world.now = 4000
    tile_ms = meter.finish()
    assert tile_ms == 2 * 4000
    assert meter.colour_ms[red] == 6 * 3000
    assert meter.colour_ms[0] == 6 * 1000 + 6 * 4000
    got = play_pixels.pixel_ma(meter.colour_ms, tile_ms, 255)
    lit = 6 * (12.0 + 0.6) * 3000 + 6 * 0.6 * 5000
    assert got == pytest.approx(lit / 8000)


def test_the_meter_records_what_a_real_world_tile_shows():
    from games.lostgems import LostGems

    world = World(seed=1)
    for q in range(2):
        world.add_tile(LostGems, q=q, r=0)
    meter = play_pixels.PixelMeter(world)
    world.advance(2000)
    tile_ms = meter.finish()
    assert tile_ms == 2 * 2000
    assert sum(meter.colour_ms.values()) == 6 * tile_ms
    assert any(c for c in meter.colour_ms)  # the tiles lit something
