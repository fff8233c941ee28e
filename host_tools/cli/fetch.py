"""`blinks fetch`: download the pinned binaries ahead of time, for a machine that will go offline.

    blinks fetch [--firmware] [--bootrom] [--version 1.28.0]

Without --firmware or --bootrom it fetches both. Each goes into the cache that `blinks emu`
and `blinks uf2` read (host_tools.fetch), checked against the SHA-256 written in
host_tools/pins.py; stdout gets one line per file, `firmware PATH` and `bootrom PATH`. A file
already there and intact is not fetched again. Exit 1 when a fetch fails (named), 2 for bad
usage: a MicroPython version that is not pinned, or BLINKS_OFFLINE set.
"""

import sys

from host_tools import pins
from host_tools.emu import images
from host_tools.fetch import FetchError, fetch


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
    if images.offline_by_env():
        print(
            f"blinks fetch: ${images.OFFLINE_ENV} is set, which forbids downloads: unset it",
            file=sys.stderr,
        )
        return 2
    wanted = []
    if args.firmware or not args.bootrom:
        wanted.append(("firmware", pin))
    if args.bootrom or not args.firmware:
        wanted.append(("bootrom", pins.BOOTROM))
    for name, one in wanted:
        try:
            path = fetch(one)
        except FetchError as exc:
            print(f"blinks fetch: {exc}", file=sys.stderr)
            return 1
        print(f"{name} {path}", flush=True)
    return 0
