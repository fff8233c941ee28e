"""Gem Match on emulated RP2040s: the third game's firmware, native code and all, runs on the
official MicroPython too.

Three tiles in a line are flashed with Gem Match and dealt by a 6-second hold, each step seen in
the `GM` lines on their serial ports and in the colours decoded from their pixels; a tile
drawn by a double-click shows its token's gems, lifted away alone and triple-clicked it starts
the field, and switched off and on it is still the field's. The game's own stories run in the co-simulation (tests/gemmatch); this is its firmware
(its hot paths compiled for the M0+) on the rp2 HAL and the PIO faces.
"""

import re

from emu_helpers import booted_build, flashed_image
from games.gemmatch import display, tokens

from host_tools.bridge.build import build

TOKEN_LINE = re.compile(r"GM state tile=\w+ t=\d+ dealing -> pile token=(T\d)")


def tokens_of(tiles):
    """The token each tile was dealt, from its log (None while it has none)."""
    out = []
    for i in range(tiles.n):
        found = [m.group(1) for m in map(TOKEN_LINE.search, tiles.log_lines(i)) if m]
        out.append(found[-1] if found else None)
    return out


def test_gem_match_deals_draws_and_starts_the_field_on_emulated_tiles_and_survives_a_power_cut(
    cluster, tmp_path
):
    image = build(game="games.gemmatch:Gemmatch")
    flashed_image(image, tmp_path, tiles=3)
    tiles = cluster(3, state=tmp_path, shape="line", mode="driven")
    for i in range(3):
        assert booted_build(tiles, i) == image.build
    tiles.press(1, 6300)  # the middle tile held for the deal
    waited = 0
    while None in tokens_of(tiles):
        assert waited < 20000, [tiles.log_lines(i)[-4:] for i in range(3)]
        tiles.advance(250)
        waited += 250
    dealt = tokens_of(tiles)
    assert all(tokens.is_token(tokens.parse(name)) for name in dealt), dealt
    assert sum("dealt size=3" in line for line in tiles.log_lines(1)) == 1  # the held tile
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
    tiles.power(2, False)
    tiles.power(2, True)
    tiles.advance(3000)
    restored = [line for line in tiles.log_lines(2) if "restored -> field" in line]
    assert restored and f"token={dealt[2]} " in restored[-1], tiles.log_lines(2)[-4:]
    assert tiles.colours(2) == on_field
