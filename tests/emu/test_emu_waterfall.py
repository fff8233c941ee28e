"""Waterfall on emulated RP2040s: the second game runs on the official MicroPython too.

Three tiles in a line are flashed with Waterfall and dealt by a 6-second hold, each step seen in
the `WF` lines on their serial ports and in the colours decoded from their pixels; a tile
switched off and on keeps its card. The game's own stories run in the co-simulation
(tests/waterfall); this is its firmware on the rp2 HAL and the PIO faces.
"""

import re

from emu_helpers import booted_build, flashed_image
from games.waterfall import cards, display

from host_tools.bridge.build import build

CARD_LINE = re.compile(r"WF state tile=\w+ t=\d+ dealing -> card card=([A-Z]+-[RGB]\d)")


def cards_of(tiles):
    """The card each tile was dealt, from its log (None while it has none)."""
    out = []
    for i in range(tiles.n):
        found = [m.group(1) for m in map(CARD_LINE.search, tiles.log_lines(i)) if m]
        out.append(found[-1] if found else None)
    return out


def test_waterfall_deals_on_emulated_tiles_and_a_card_survives_a_power_cut(cluster, tmp_path):
    image = build(game="games.waterfall:Waterfall")
    flashed_image(image, tmp_path, tiles=3)
    tiles = cluster(3, state=tmp_path, shape="line", mode="driven")
    for i in range(3):
        assert booted_build(tiles, i) == image.build
    tiles.press(1, 6300)  # the middle tile held for the deal
    waited = 0
    while None in cards_of(tiles):
        assert waited < 20000, [tiles.log_lines(i)[-4:] for i in range(3)]
        tiles.advance(250)
        waited += 250
    dealt = cards_of(tiles)
    assert all(cards.parse(name) for name in dealt), dealt
    assert sum("dealt size=3" in line for line in tiles.log_lines(1)) == 1  # the held tile
    tiles.advance(500)
    back = display.back([0] * 6)
    assert [tiles.colours(i) for i in range(3)] == [back] * 3  # every card face down
    tiles.power(2, False)
    tiles.power(2, True)
    tiles.advance(3000)
    restored = [line for line in tiles.log_lines(2) if "restored -> card" in line]
    assert restored and f"card={dealt[2]} " in restored[-1], tiles.log_lines(2)[-4:]
    assert tiles.colours(2) == back
