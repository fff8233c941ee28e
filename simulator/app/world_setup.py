"""Building the world the window shows: N tiles as one cluster in the jungle, ready to deal.

The first minute should be pleasant: all tiles start joined in the middle of the jungle, so a
playtester holds one for 6 s to deal, then carries shards to the hands.
"""


def starting_layout(table, tiles: int) -> list:
    """[(q, r, rotation)] for `tiles` tiles in one blob centred in the table's start area (the
    first the game's table holds: Lost Gems' jungle)."""
    from simulator.world import shapes

    cells = shapes.blob(tiles)
    cq, cr = table.centre_cell(table.start_area)
    mq = round(sum(q for q, _ in cells) / len(cells))
    mr = round(sum(r for _, r in cells) / len(cells))
    return [(q - mq + cq, r - mr + cr, 0) for q, r in cells]


def cluster_fits(table, tiles: int) -> bool:
    """Whether the starting cluster of `tiles` tiles lies wholly inside the start area, under
    its label, with every tile on the table."""
    x0, y0, w, h = table.area(table.start_area).rect
    s = table.layout.size
    apothem = s * 0.866
    for q, r, _ in starting_layout(table, tiles):
        x, y = table.layout.to_pixel(q, r)
        inside = x0 <= x - s and x + s <= x0 + w and y0 + table.label_px <= y - apothem
        if not (inside and y + apothem <= y0 + h and table.on_table(q, r)):
            return False
    return True


def build_world(
    game_class, layout: list, seed: int, ir_loss: float, runners=None, bit_flip: float = 0.0
):
    """The world with one tile per layout cell. `runners` ({tile index: runner factory}) lets a
    co-simulation run chosen tiles on real MicroPython (the world's `add_tile(runner=...)`)."""
    from simulator.world import World

    world = World(seed=seed, ir_loss=ir_loss, bit_flip=bit_flip)
    for i, (q, r, rot) in enumerate(layout):
        world.add_tile(game_class, q=q, r=r, rotation=rot, runner=(runners or {}).get(i))
    return world
