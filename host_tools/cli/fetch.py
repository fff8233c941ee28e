"""`blinks fetch`: the pinned binaries, downloaded ahead of time or copied from a file you have.

    blinks fetch [--firmware] [--bootrom] [--version 1.28.0]
    blinks fetch --firmware --from FILE.uf2      (or --bootrom --from bootrom.bin)
    blinks fetch --offline                       (download nothing: say what is there)

Without --firmware or --bootrom it fetches both. Each goes into the cache that `blinks emu`
and `blinks uf2` read (host_tools.fetch), checked against the SHA-256 written in
host_tools/pins.py; stdout gets one line per file, `firmware PATH` and `bootrom PATH`. A file
already there and intact is not fetched again. --from copies a file you have instead of
downloading (rp2040js's bootrom.ts is decoded to the .bin). --offline downloads nothing and
lists what is there and what is missing. Exit 1 when a fetch fails or, with --offline, a file is
missing (named); 2 for bad usage: a MicroPython version that is not pinned, BLINKS_OFFLINE set
for a download, or --from without exactly one of --firmware and --bootrom.
"""

import sys

from host_tools import pins
from host_tools.emu import images
from host_tools.fetch import FetchError, fetch, install_from


def add_arguments(p):
    p.add_argument("--firmware", action="store_true", help="the MicroPython UF2 for RPI_PICO")
    p.add_argument("--bootrom", action="store_true", help="the RP2040 bootrom (revision B1)")
    pinned = ", ".join(pins.FIRMWARE_PINS)
    p.add_argument(
        "--version",
        default=pins.MICROPYTHON.version,
        metavar="V",
        help=f"MicroPython release (pinned: {pinned} only; another release is downloaded by "
        "hand from https://micropython.org/download/RPI_PICO/ and named with --firmware or "
        f"${images.FIRMWARE_ENV})",
    )
    p.add_argument(
        "--from",
        dest="source",
        metavar="FILE",
        help="copy this file you have into the cache instead of downloading (with --firmware or "
        "--bootrom); it must match the pinned SHA-256",
    )
    p.add_argument(
        "--offline",
        action="store_true",
        help="download nothing: list which files are there and which are missing (exit 1)",
    )


def run(args):
    version = args.version.removeprefix("v")
    pin = pins.FIRMWARE_PINS.get(version)
    if pin is None:
        print(
            f"blinks fetch: MicroPython {args.version} is not pinned (only "
            f"{', '.join(pins.FIRMWARE_PINS)} is, with its URL and SHA-256); download the UF2 "
            "for RPI_PICO from https://micropython.org/download/RPI_PICO/ and name it with "
            f"--firmware (blinks emu), --firmware-uf2 (blinks uf2) or ${images.FIRMWARE_ENV}",
            file=sys.stderr,
        )
        return 2
    wanted = []
    if args.firmware or not args.bootrom:
        wanted.append(("firmware", pin))
    if args.bootrom or not args.firmware:
        wanted.append(("bootrom", pins.BOOTROM))
    if args.source is not None:
        if len(wanted) != 1:
            print("blinks fetch: --from FILE needs --firmware or --bootrom", file=sys.stderr)
            return 2
        try:
            print(f"{wanted[0][0]} {install_from(wanted[0][1], args.source)}", flush=True)
        except FetchError as exc:
            print(f"blinks fetch: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.offline:
        return _report(wanted)
    if images.offline_by_env():
        print(
            f"blinks fetch: ${images.OFFLINE_ENV} is set, which forbids downloads: unset it, "
            "or copy a file you have with --from FILE",
            file=sys.stderr,
        )
        return 2
    for name, one in wanted:
        try:
            path = fetch(one)
        except FetchError as exc:
            print(f"blinks fetch: {exc}", file=sys.stderr)
            print(
                f"  offline, copy a file you have:  blinks fetch --{name} --from FILE",
                file=sys.stderr,
            )
            return 1
        print(f"{name} {path}", flush=True)
    return 0


def _report(wanted):
    """--offline: one line a file, its path or `missing`, and what to do for the missing."""
    missing = 0
    for name, pin in wanted:
        find = images.firmware_path if name == "firmware" else images.bootrom_path
        try:
            print(f"{name} {find(offline=True)}", flush=True)
        except images.MissingImage as exc:
            missing += 1
            print(f"{name} missing", flush=True)
            print(f"blinks fetch: {exc}", file=sys.stderr)
    return 1 if missing else 0
