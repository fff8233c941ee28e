"""A steady pass of a Gem Match tile allocates nothing on MicroPython: a hand token next to six
pile tiles, and a field token whose gems are lit in groups. And a deployed tile's heap after
setup stays within the 32 KB budget Lost Gems keeps (tests/mpy_steady_pass.py measures both)."""

from mpy_steady_pass import assert_steady_and_within_budget, needs_micropython

CASES = """
record = bytes(4)
# a hand token next to six pile tiles (they send 0); a field token (T8 improved, RRYBYB)
# among field tiles: its twin's faces hear red chains, so two groups are lit and blinking
cases = [
    (store.encode("hand", 8, 1, False, "undealt", record), [0] * 6, "hand"),
    (
        store.encode("field", 8, 1, False, "undealt", record),
        [1 << 3 | 1, 1 << 3 | 2, 3 << 3 | 1, 0, 4 << 3 | 1, 2 << 3 | 1],
        "field",
    ),
]
"""


@needs_micropython
def test_steady_passes_allocate_nothing_and_the_heap_fits(tmp_path):
    assert_steady_and_within_budget(tmp_path, "gemmatch", "Gemmatch", CASES)
