"""Tests import the firmware by its tile names (`from runtime.tile import Tile`), as the host
packages do: the firmware tree goes on sys.path first (simulator/mpy/firmware_tree.py)."""

from simulator.mpy.firmware_tree import put_firmware_on_path

put_firmware_on_path()


def pytest_collection_modifyitems(items):
    """The tests marked long (a minute or more) first, then the other emulated-tile tests: with
    the fine-grained sharing of pyproject's --maxschedchunk they start at once on both workers
    and the many short tests fill in around them, instead of one worker ending the run alone
    (a long test that is not an emulated tile's, collected last, did that)."""

    def order(item):
        if item.get_closest_marker("long"):
            return 0
        return 1 if "tests/emu/" in item.nodeid else 2

    items.sort(key=order)


def pytest_terminal_summary(terminalreporter):
    """Say how many emulated-tile tests skipped, and why, at the end of the run (the README
    points here rather than giving a count that drifts as tests come and go)."""
    from session_summary import emu_advice, emu_skips, emu_summary

    skipped = terminalreporter.stats.get("skipped", [])
    advice = emu_advice() if emu_skips(skipped)[0] else []
    for line in emu_summary(skipped, advice):
        if line.startswith("---"):
            terminalreporter.write_sep("-", line.strip("- "))
        else:
            terminalreporter.write_line(line)
