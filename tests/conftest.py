"""Tests import the firmware by its tile names (`from runtime.tile import Tile`), as the host
packages do: the firmware tree goes on sys.path first (host_tools/firmware_tree.py)."""

from host_tools.firmware_tree import put_firmware_on_path

put_firmware_on_path()


def pytest_collection_modifyitems(items):
    """The emulated-tile tests first: they are few and long (one of them minutes), so with the
    fine-grained sharing of pyproject's --maxschedchunk they start at once on both workers and
    the many short tests fill in around them, instead of one worker ending the run alone."""
    items.sort(key=lambda item: "tests/emu/" not in item.nodeid)


def pytest_terminal_summary(terminalreporter):
    """Say how many emulated-tile tests skipped, and why, at the end of the run (the README
    points here rather than giving a count that drifts as tests come and go)."""
    from session_summary import emu_summary

    for line in emu_summary(terminalreporter.stats.get("skipped", [])):
        if line.startswith("---"):
            terminalreporter.write_sep("-", line.strip("- "))
        else:
            terminalreporter.write_line(line)
