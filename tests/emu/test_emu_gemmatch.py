"""Gem Match on emulated RP2040s: the third game's firmware, native code and all, runs on the
official MicroPython too.

Three tiles in a line are flashed with Gem Match and dealt by a 6-second hold, each step seen in
the `GM` lines on their serial ports and in the colours decoded from their pixels; a tile
drawn by a double-click shows its token's gems, lifted away alone and triple-clicked it starts
the field, and switched off and on it is still the field's. The game's own stories run in the co-simulation (tests/gemmatch); this is its firmware
(its hot paths compiled for the M0+) on the rp2 HAL and the PIO faces.
"""

import re

from emu_helpers import deal_three_in_a_line, restored_after_power_cut
from games.gemmatch import display, tokens

from simulator.mpy.build import build

TOKEN_LINE = re.compile(r"GM state tile=\w+ t=\d+ dealing -> pile token=(T\d)")


def test_gem_match_deals_draws_and_starts_the_field_on_emulated_tiles_and_survives_a_power_cut(
    cluster, tmp_path
):
    image = build(game="games.gemmatch:Gemmatch")
    tiles, dealt = deal_three_in_a_line(cluster, tmp_path, image, TOKEN_LINE)
    assert all(tokens.is_token(tokens.parse(name)) for name in dealt), dealt
    tiles.advance(500)
    back = display.solid(display.BACK, [0] * 6)
    assert [tiles.colours(i) for i in range(3)] == [back] * 3  # every token face down
    tiles.clicks(2, 2)  # drawn: basic side up
    tiles.advance(1000)
    assert any("pile -> hand" in line for line in tiles.log_lines(2)), tiles.log_lines(2)[-4:]
    basic = tokens.side_of(tokens.parse(dealt[2]), tokens.BASIC)
    assert tiles.colours(2) == display.gems(basic, [0] * 6)
    tiles.lift(2)  # alone now: a triple-click starts the field with it
    tiles.advance(1000)
    tiles.clicks(2, 3)
    tiles.advance(1000)
    assert any("hand -> field" in line for line in tiles.log_lines(2)), tiles.log_lines(2)[-4:]
    on_field = display.field(basic, [0] * 6, 0, [0] * 6)  # no group: its gems, dimmer
    assert tiles.colours(2) == on_field
    restored = restored_after_power_cut(tiles, 2, "restored -> field")
    assert f"token={dealt[2]} " in restored, restored
    assert tiles.colours(2) == on_field
