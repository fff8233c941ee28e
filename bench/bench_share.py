"""Sharing a build over the faces, measured on emulated tiles in emulated time.

Each receiving tile runs a build none of whose files is in the shared one (the same firmware
with a line added to every module, so every .mpy differs): the whole build crosses the air on
every hop, nothing is copied on the tile. The share starts with the gesture (7 clicks) on the
root, in driven mode, so the times are the tiles' own.

- share_kbit_s: one hop, two tiles: the build's bytes (manifest and files) over the receiver's
  time from taking the offer to its last file checked (its `BLINKS share received ... ms=`
  line), in kbit/s. Goal >= 50 (the link itself runs at 115.2).
- share_s_6: a 6-tile blob, the root its centre tile (shapes.blob's first): seconds from the
  gesture to the last tile booting the new build. Goal <= 30.
- share_s_6_loss_30: the same with 30 % of the frames lost. Goal <= 90. Full runs only: with
  the two shares above it would take --quick past its budget.
- share_build_bytes: the build's size; share_rp2_*: where the receiver's time went.
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIMIT_MS = 400000


# {figure: (what it measures, goal)}: docs/benchmarks.md's rows (bench/run.py checks every key).
FIGURES = {
    "share_kbit_s": (
        "`blinks share` over one hop between two emulated tiles: the build's bits over the receiver's time, kbit/s.",
        "≥ 50",
    ),
    "share_s_6": (
        "Emulated s from the 7-click gesture to the last of a 6-tile blob booting the shared build.",
        "≤ 30",
    ),
    "share_s_6_loss_30": ("The same at 30 % frame loss (full run).", "≤ 90"),
    "share_s_6_loss_30_error": ("Why the share at 30 % loss did not finish, when it did not.", "—"),
    "share_build_bytes": ("Bytes of the shared build: manifest and files.", "—"),
    "share_rp2_phases_ms": (
        "Where the receiver's time on the hop went: manifest, plan, pull, check, ms.",
        "—",
    ),
    "share_rp2_pulled_bytes": ("Bytes the receiver pulled over the air on the hop.", "—"),
}


class ShareUnfinished(RuntimeError):
    """A share that did not reach every tile within LIMIT_MS of emulated time."""


def _setup():
    # the emulated-tile tests' helpers, and the tests' own modules they import (as under pytest)
    tests = os.path.join(ROOT, "tests")
    for path in (ROOT, os.path.join(ROOT, "firmware"), tests, os.path.join(tests, "emu")):
        if path not in sys.path:
            sys.path.insert(0, path)


def firmware_variant(work, tag, every_module):
    """A copy of firmware/ with a marker module; with `every_module`, a line added to each
    module too, so that none of its .mpy files is another build's."""
    dest = os.path.join(work, f"firmware-{tag}")
    shutil.copytree(
        os.path.join(ROOT, "firmware"), dest, ignore=shutil.ignore_patterns("__pycache__")
    )
    with open(os.path.join(dest, "hal", "build_tag.py"), "w") as f:
        f.write(f'"""Bench build marker."""\nTAG = "{tag}"\n')
    if every_module:
        for folder, _dirs, files in os.walk(dest):
            for name in files:
                if name.endswith(".py") and name not in ("main.py", "manifest.py"):
                    with open(os.path.join(folder, name), "a") as f:
                        f.write(f"\n_BUILD_VARIANT = {tag!r}\n")
    return dest


def run_share(old, new, tiles, shape, root, loss, work):
    """Emulated ms from the gesture on `root` to the last tile booting `new`, and the
    receivers' `received` lines."""
    from emu_helpers import flashed_image

    from host_tools.emu.cluster import EmuCluster

    state = os.path.join(work, f"{shape}-{tiles}-{loss}")
    flashed_image(old, state, tiles=tiles)
    flashed_image(new, state + "-new", tiles=1)
    shutil.copyfile(
        os.path.join(state + "-new", "tile0.flash"), os.path.join(state, f"tile{root}.flash")
    )
    with EmuCluster(tiles=tiles, shape=shape, state_dir=state, mode="driven", loss=loss) as c:
        c.advance(3000)  # boot
        start = c.clicks(root, 7) + 330  # the click event fires when the window runs out
        needle = f"fw=fw/{new.build} "
        while c.now_ms - start < LIMIT_MS:
            c.advance(250)
            booted = [
                any(line.startswith("BLINKS boot ") and needle in line for line in c.log_lines(i))
                for i in range(tiles)
            ]
            if all(booted[i] for i in range(tiles) if i != root):
                break
        else:
            raise ShareUnfinished(f"the share did not reach every tile in {LIMIT_MS / 1000:.0f} s")
        received = [
            line for i in range(tiles) for line in c.log_lines(i) if "share received" in line
        ]
        return c.now_ms - start, received


def _fields(line):
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def run(quick: bool) -> dict:
    _setup()
    from simulator.mpy.build import build

    work = tempfile.mkdtemp(prefix="bench-share-")
    try:
        old = build(firmware_dir=firmware_variant(work, "old", True))
        new = build(firmware_dir=firmware_variant(work, "new", False))
        _ms, received = run_share(old, new, 2, "line", 0, 0.0, work)
        hop = _fields(received[0])
        figures = {
            "share_build_bytes": int(hop["bytes"]),
            "share_kbit_s": round(int(hop["bytes"]) * 8 / int(hop["ms"]), 1),
            "share_rp2_phases_ms": hop.get("phases"),
            "share_rp2_pulled_bytes": int(hop["pulled"]),
        }
        ms, _ = run_share(old, new, 6, "blob", 0, 0.0, work)
        figures["share_s_6"] = round(ms / 1000, 1)
        if quick:
            return figures
        try:
            ms, _ = run_share(old, new, 6, "blob", 0, 0.3, work)
            figures["share_s_6_loss_30"] = round(ms / 1000, 1)
        except ShareUnfinished as exc:  # the figures above still stand; this one is over its bound
            figures["share_s_6_loss_30"] = None
            figures["share_s_6_loss_30_error"] = str(exc)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return figures
