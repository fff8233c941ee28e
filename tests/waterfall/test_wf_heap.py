"""A steady pass of a Waterfall tile allocates nothing on MicroPython: a tile off the waterfall
next to six others, and a waterfall tile holding a pawn next to waterfall tiles. And a
deployed tile's heap (the .mpy image `blinks flash` sends) after setup stays within the 32 KB
budget Lost Gems keeps (tests/mpy_steady_pass.py measures both)."""

from mpy_steady_pass import assert_steady_and_within_budget, needs_micropython

CASES = """
record = bytes(4)
# up is face 2: its up-left neighbour (face 1) is a waterfall tile seen from its own
# down-right (2); the others are waterfall tiles too, and its down faces are free (0)
cases = [
    (store.encode("card", 5, None, False, 15, [], "undealt", record), [0] * 6, "card"),
    (
        store.encode("waterfall", 10, 2, False, 14, [0], "undealt", record),
        [32 | 2, 32 | 2, 0, 32 | 1, 0, 32 | 5],
        "waterfall",
    ),
]
"""


@needs_micropython
def test_steady_passes_allocate_nothing_and_the_heap_fits(tmp_path):
    assert_steady_and_within_budget(tmp_path, "waterfall", "Waterfall", CASES)
