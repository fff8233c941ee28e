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


def emu_summary(skipped, advice=()):
    """The lines to print: a heading, the count with its short reasons, then once the whole
    advice (how to supply each missing part), or nothing when no emulated-tile test skipped."""
    count, reasons = emu_skips(skipped)
    if not count:
        return []
    plural = "s" if count != 1 else ""
    return [
        "--- emulated tiles",
        f"{count} emulated-tile test{plural} skipped: " + "; ".join(reasons),
        *advice,
    ]


def emu_advice():
    """The full messages for what the emulated tiles lack here, asked again at the end of the
    run (no download, no install): what is missing, where it goes, and how to supply it."""
    from host_tools.emu import images, node_env

    lines = []
    for find in (images.firmware_path, images.bootrom_path):
        try:
            find(offline=True)
        except images.MissingImage as exc:
            lines += str(exc).splitlines()
    try:
        node_env.node_command()
    except node_env.EmuSetupError as exc:
        lines.append(str(exc))
    return lines
