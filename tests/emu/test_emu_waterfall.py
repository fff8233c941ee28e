"""Waterfall on emulated RP2040s: the second game runs on the official MicroPython too.

Three tiles in a line are flashed with Waterfall and dealt by a 6-second hold, each step seen in
the `WF` lines on their serial ports and in the colours decoded from their pixels; a tile
switched off and on keeps its card. The game's own stories run in the co-simulation
(tests/waterfall); this is its firmware on the rp2 HAL and the PIO faces.
"""

import re

from emu_helpers import deal_three_in_a_line, restored_after_power_cut
from games.waterfall import cards, display

from simulator.mpy.build import build

CARD_LINE = re.compile(r"WF state tile=\w+ t=\d+ dealing -> card card=([A-Z]+-[RGB]\d)")


def test_waterfall_deals_on_emulated_tiles_and_a_card_survives_a_power_cut(cluster, tmp_path):
    image = build(game="games.waterfall:Waterfall")
    tiles, dealt = deal_three_in_a_line(cluster, tmp_path, image, CARD_LINE)
    assert all(cards.parse(name) for name in dealt), dealt
    tiles.advance(500)
    back = display.back([0] * 6)
    assert [tiles.colours(i) for i in range(3)] == [back] * 3  # every card face down
    restored = restored_after_power_cut(tiles, 2, "restored -> card")
    assert f"card={dealt[2]} " in restored, restored
    assert tiles.colours(2) == back
