"""What the test session says at its end about the emulated-tile tests that skipped (for
tests/conftest.py's pytest_terminal_summary)."""

EMU_UNAVAILABLE = "emulated tiles unavailable: "


def emu_skips(skipped):
    """(count, reasons) of the skip reports that say the emulated tiles are unavailable."""
    reasons = set()
    count = 0
    for report in skipped:
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(EMU_UNAVAILABLE):
            count += 1
            reasons.add(reason[len(EMU_UNAVAILABLE) :])
    return count, sorted(reasons)


def emu_summary(skipped):
    """The lines to print: a heading and the count with its reasons, or none."""
    count, reasons = emu_skips(skipped)
    if not count:
        return []
    plural = "s" if count != 1 else ""
    return [
        "--- emulated tiles",
        f"{count} emulated-tile test{plural} skipped: " + "; ".join(reasons),
    ]
