"""What a tile's pixels draw in real play: bot games of Lost Gems on the simulated tiles (the
real firmware in the desktop simulator's world), at a table's pace, every tile's LED frames
turned into current on the 5 V rail and averaged over time and tiles.

Each frame a tile shows is held until its next one, so the average is over simulated time:
the deal, the draws, the plays and discards, and the seconds between moves when the tiles
show their pictures unchanged.
"""

import power_model

MOVE_MS = 8000  # a move every 8 s of simulated time: people at a table


class PixelMeter:
    """How long every tile of a world showed each colour on each pixel (the frames it shows,
    each held until the next), so the current can be had at any brightness cap."""

    def __init__(self, world):
        self.world = world
        self.start = world.now
        self.colour_ms = {}  # 15-bit colour -> pixel-milliseconds shown
        self._last = {}  # tile -> (since ms, colours)
        for tid in world.tiles:
            hal = world.hal(tid)
            self._last[tid] = (world.now, list(hal.leds))
            hal.show = self._recording(tid, hal.show)

    def _recording(self, tid, show):
        def recorded(colors):
            show(colors)
            self._close(tid, list(colors))

        return recorded

    def _close(self, tid, colours):
        since, before = self._last[tid]
        for c in before:
            self.colour_ms[c] = self.colour_ms.get(c, 0) + self.world.now - since
        self._last[tid] = (self.world.now, colours)

    def finish(self):
        """Close every tile's last frame at the world's now; returns tile-milliseconds."""
        for tid in list(self._last):
            self._close(tid, self._last[tid][1])
        return len(self._last) * (self.world.now - self.start)


def pixel_ma(colour_ms, tile_ms, cap):
    """A tile's average pixel current on the 5 V rail, mA, with each channel capped at `cap`:
    six pixels' quiescent current and each pixel's colours weighted by how long they showed."""
    lit = sum(power_model.pixel_ma([c], cap) * ms for c, ms in colour_ms.items())
    return lit / tile_ms


def play_game(seed, bot_name, move_ms=MOVE_MS):
    """(colour -> pixel-ms, tile-ms) over one bot game played on the tiles, a move every
    `move_ms` of simulated time (a move that takes the tiles longer is not waited for)."""
    from simulator.games.lostgems.bots import bot_class
    from simulator.games.lostgems.bots.base import seated_bots
    from simulator.games.lostgems.physical import Table
    from simulator.games.lostgems.referee import GameState

    table = Table(seed=seed)
    meter = PixelMeter(table.world)
    table.deal()
    state = GameState(deck=table.choose_order(None, seed), start=0)
    for p in (0, 1):
        for _ in range(2):
            table.draw(p)
    bots = seated_bots(bot_class(bot_name), None, seed)
    obs = (state.observation(0), state.observation(1))
    while not state.over:
        began = table.world.now
        event = state.apply(bots[state.current].act(obs[state.current]))
        table.perform(event)
        table.check(state)
        for q in (0, 1):
            bots[q].observe(obs[q], obs[q].last_event)
        rest = move_ms - (table.world.now - began)
        if rest > 0:
            table.world.advance(rest)
    table.close()
    tile_ms = meter.finish()
    return meter.colour_ms, tile_ms


def play_games(games, bot_name, seed=0):
    """(colour -> pixel-ms, tile-ms) summed over `games` bot games from `seed` on."""
    colour_ms, tile_ms = {}, 0
    for i in range(games):
        shown, ms = play_game(seed + i, bot_name)
        for c, t in shown.items():
            colour_ms[c] = colour_ms.get(c, 0) + t
        tile_ms += ms
    return colour_ms, tile_ms
