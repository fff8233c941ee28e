"""Lost Gems on the host: its referee, bots, scripts and playtests are `simulator.sessions`
(they came first); this module describes the game to the platform."""

NAME = "lostgems"
FIRMWARE = ("games.lostgems", "LostGems")
TILES = 18
SCRIPT_SUFFIX = ".lg"
CEILING = True  # blinks session run --ceiling: what the deal allows at best
TOKENS = True  # the side panel shows the hint and error coins players flip
PIECE = "shard"  # what a tile is (its inspect() key, shown by the inspector)
DEAL_TIP = "To deal: hold any tile of the cluster for 6 s (6, 12 or 18 tiles)."
AREA_WORDS = {  # how the inspector names the area a tile lies in
    "hand_a": "hand A",
    "hand_b": "hand B",
    "jungle": "jungle",
    "board": "gem board",
    "discard": "discard",
}


def table_areas(width, height, size, margin, label_px=30):
    """Hand B at the top (the far player), hand A at the bottom, the jungle in the middle with
    the gem board to its right and the discard pile at the far right. The jungle comes first:
    the starting cluster lies there."""
    # A hand band holds its label and, below it, room for a whole hexagon in every column
    # (3.48 sizes: two hex heights), so both hands' slots can sit in the centre column.
    band = label_px + int(size * 3.6)
    mid_top = band + 2 * margin
    mid_h = height - 2 * band - 4 * margin
    third = (width - 4 * margin) // 3
    hand_w = min(width - 2 * margin, int(size * 14))
    hx = (width - hand_w) // 2
    return [
        ("jungle", "Jungle", (margin, mid_top, third + 40, mid_h)),
        ("hand_b", "Hand B (far player)", (hx, margin, hand_w, band)),
        ("board", "Gem board", (2 * margin + third + 40, mid_top, third - 20, mid_h)),
        ("discard", "Discard", (3 * margin + 2 * third + 20, mid_top, third - 20, mid_h)),
        ("hand_a", "Hand A (near player)", (hx, height - band - margin, hand_w, band)),
    ]


def session_runners():
    """(rules runner class, tiles runner class or None)."""
    from simulator.sessions.cli import physical_runner_class
    from simulator.sessions.runner import RulesRunner

    return RulesRunner, physical_runner_class()


def parse_script(text):
    from simulator.sessions.script import parse_script as parse

    return parse(text)


def run_playtest(args):
    """`blinks playtest` (the default game)."""
    from simulator.sessions.playtest_cli import lost_gems_playtest

    return lost_gems_playtest(args)
