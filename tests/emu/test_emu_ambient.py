"""Deals and shares on emulated tiles in a room's light (issue 59).

From the moment the tiles start, a lamp's 100 Hz flicker and a TV remote's key press every
5 s reach every face of every tile (host_tools/emu/ambient.py): the flicker gives each face a
pulse every 10 ms, and a press's 38 kHz bursts garble the frames they fall on. Through it:

- three tiles in a line are dealt by a hold, each its token, with no restart (Gem Match: a
  Lost Gems deal wants six tiles, which the emulator runs at half the speed);
- `blinks share` brings a build to the tile beside, as in a dark room (the lamp and the
  remote on the faces the build crosses; a line of three in the dark is test_emu_share's).

And in the dark, with leaky transceivers that lose single pulses inside frames and let light
through between a tile's own faces (host_tools/emu/transceiver.py's `pulse_loss`,
`crosstalk`), the same deal.
"""

import re
from dataclasses import replace

import pytest
from emu_helpers import booted_build, flashed_image, hold_middle_to_deal
from test_emu_share import builds_in_ports, line_of, share, share_log

from host_tools.emu import ambient
from host_tools.emu.transceiver import DATASHEET_WORST
from simulator.mpy.build import build

ROOM_MS = 60 * 60 * 1000  # the light stays on longer than any test here runs
PRESS_EVERY_MS = 5000
# a pulse in a hundred lost, and each pulse reaching each of its tile's other faces one time in
# fifty (transceiver.py: levels to try, no datasheet gives them)
LEAKY = replace(DATASHEET_WORST, pulse_loss=0.01, crosstalk=0.02)
TOKEN = re.compile(r"GM state tile=\w+ t=\d+ dealing -> pile token=(T\d)")


def light_the_room(tiles, links_only=False):
    """The lamp and a remote press every 5 s on every face of every tile from now on
    (`links_only`: only on the faces that touch another tile, the light that garbles what the
    tiles say; a remote's 38 kHz carrier is thousands of edges a press, and with all 18 faces
    lit the emulator takes about eight times as long to run a share); returns the moment the
    light starts."""
    start = tiles.now_ms + 1
    press, _ = ambient.nec_frame(start + 250)
    linked = {}
    for a, fa, b, fb in tiles.wires:
        linked.setdefault(a, []).append(fa)
        linked.setdefault(b, []).append(fb)
    for i in range(tiles.n):
        until = start + ROOM_MS
        lit = sorted(linked.get(i, ())) if links_only else range(6)
        tiles.shine(i, lit, ambient.lamp(start, 10), every_ms=10, until_ms=until)
        tiles.shine(i, lit, press, every_ms=PRESS_EVERY_MS, until_ms=until)
    return start


def deal_three(tiles):
    """Boot, then the middle tile held for the deal (every tile logs its token)."""
    tiles.advance(2500)
    hold_middle_to_deal(tiles, TOKEN)


@pytest.mark.long
def test_three_tiles_are_dealt_in_a_rooms_light(cluster, tmp_path):
    flashed_image(build(game="games.gemmatch:Gemmatch"), tmp_path / "line", tiles=3)
    tiles = cluster(3, state=tmp_path / "line", shape="line", mode="driven", seed=11)
    lit = light_the_room(tiles)
    deal_three(tiles)
    seconds = (tiles.now_ms - lit) / 1000
    stats = tiles.stats()
    assert all(n >= 6 * 100 * seconds for n in stats["shone"]), stats["shone"]  # it was lit
    assert all(tiles.resets[i] == [] for i in range(3)) and stats["boots"] == [1, 1, 1]


@pytest.mark.long
def test_blinks_share_reaches_the_tile_beside_in_a_rooms_light(cluster, firmware_copy, tmp_path):
    x, y, state = line_of(firmware_copy, tmp_path, small=True, tiles=2)
    tiles = cluster(2, shape="line", state=state, mode="fast")
    assert [booted_build(tiles, i) for i in range(2)] == [y, x]
    light_the_room(tiles, links_only=True)
    out = share(tiles.ports[0])
    assert out.returncode == 0, out.stdout + out.stderr + share_log(tiles)
    assert "every tile of the cluster holds it (2 tiles" in out.stdout
    assert builds_in_ports(tiles) == [y, y]
    assert min(tiles.stats()["shone"]) > 100 * 10  # at least 10 s of the lamp on every link


@pytest.mark.long
def test_three_tiles_are_dealt_with_lost_pulses_and_light_between_their_faces(cluster, tmp_path):
    flashed_image(build(game="games.gemmatch:Gemmatch"), tmp_path / "line", tiles=3)
    tiles = cluster(
        3, state=tmp_path / "line", shape="line", mode="driven", seed=11, transceiver=LEAKY
    )
    deal_three(tiles)
    assert all(tiles.resets[i] == [] for i in range(3)) and tiles.stats()["boots"] == [1, 1, 1]
