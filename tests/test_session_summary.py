"""The test session's own summary line for the emulated-tile tests that skipped (conftest)."""

from session_summary import emu_skips, emu_summary


class Report:
    def __init__(self, reason):
        self.longrepr = ("tests/emu/test_x.py", 3, reason)


def test_the_summary_counts_only_the_emulated_tile_skips_and_says_why():
    missing = "Skipped: emulated tiles unavailable: no MicroPython firmware at /x.uf2"
    skipped = [Report(missing), Report(missing), Report("Skipped: no display"), object()]
    assert emu_skips(skipped) == (2, ["no MicroPython firmware at /x.uf2"])
    assert emu_summary(skipped) == [
        "--- emulated tiles",
        "2 emulated-tile tests skipped: no MicroPython firmware at /x.uf2",
    ]


def test_nothing_is_said_when_every_emulated_tile_test_ran():
    assert emu_summary([Report("Skipped: no display")]) == []


def test_the_whole_advice_follows_the_count_once():
    skipped = [Report("Skipped: emulated tiles unavailable: no RP2040 bootrom")] * 3
    advice = ["no RP2040 bootrom", "  from a file you have:  blinks fetch --bootrom --from FILE"]
    lines = emu_summary(skipped, advice)
    assert lines[1] == "3 emulated-tile tests skipped: no RP2040 bootrom"
    assert lines[2:] == advice
