"""`blinks uf2`: one file that makes a tile, MicroPython and the game together.

    blinks uf2 -o tile.uf2 [--game NAME] [--firmware-uf2 FILE] [--offline]
    blinks uf2 --flash [--drive DIR | --port P] [-o tile.uf2]

The file is the official MicroPython UF2 for the Pico (found as for `blinks emu`, fetched once
when nowhere else) with a littlefs image of the build laid out as `blinks flash` lays it
(host_tools.bridge.tile_uf2). Dragged onto a Pico in BOOTSEL mode it makes a tile that boots
the game; `blinks flash` updates it later as usual. --flash copies it onto the Pico's BOOTSEL
drive itself, after sending a tile that runs MicroPython on --port into BOOTSEL mode.

Exit 0 when the file is written (and copied); 1 when a download, the write or the copy fails;
2 for bad usage, a MicroPython UF2 that a tile cannot use, or a build that cannot be made.
"""

import os
import sys
import tempfile

from host_tools.bridge import bootsel
from host_tools.bridge.fs_image import FsImageError
from host_tools.bridge.tile_uf2 import TileUf2Error, make_tile_uf2, read_micropython_uf2
from host_tools.emu import images
from host_tools.fetch import FetchError
from simulator.mpy.build import FIRMWARE, BuildError, build
from simulator.output_path import output_problem


def add_arguments(p):
    p.add_argument("-o", "--output", metavar="FILE", help="write the tile's UF2 here")
    p.add_argument(
        "--game",
        help="game to run: lostgems, games.lostgems or module:Class "
        "(default: the firmware tree's tile_config.json)",
    )
    p.add_argument(
        "--firmware",
        metavar="DIR",
        default=FIRMWARE,
        help="firmware tree to build (default: the one blinks comes with)",
    )
    p.add_argument(
        "--no-compile", action="store_true", help="put .py sources on the tile instead of .mpy"
    )
    p.add_argument(
        "--firmware-uf2",
        metavar="FILE",
        help=f"the MicroPython UF2 for RPI_PICO (default: ${images.FIRMWARE_ENV}, else "
        f"{os.path.join(images.data_dir(), 'firmware.uf2')}, else the pinned 1.28.0 fetched "
        "once into the cache)",
    )
    p.add_argument(
        "--offline",
        action="store_true",
        help=f"never download: a missing UF2 is an error naming how to supply it "
        f"(also ${images.OFFLINE_ENV}=1)",
    )
    p.add_argument(
        "--flash",
        action="store_true",
        help="copy the file onto a Pico in BOOTSEL mode (its RPI-RP2 drive)",
    )
    p.add_argument(
        "--drive", metavar="DIR", help="with --flash: the BOOTSEL drive's folder (else found)"
    )
    p.add_argument(
        "--port",
        metavar="P",
        help="with --flash: a tile running MicroPython on this serial port, sent to BOOTSEL "
        "mode first (machine.bootloader())",
    )


def usage_problem(args):
    if not args.output and not args.flash:
        return "say where the tile's UF2 goes: -o tile.uf2, or --flash (onto a Pico)"
    if (args.drive or args.port) and not args.flash:
        return "--drive and --port go with --flash"
    if args.drive and args.port:
        return "--drive or --port, not both"
    if args.output:
        problem = output_problem(args.output)
        if problem:
            return f"-o {args.output}: {problem}"
    if not os.path.isdir(args.firmware):
        return f"--firmware {args.firmware}: no such folder (the firmware tree)"
    if args.drive and not os.path.isdir(args.drive):
        return f"--drive {args.drive}: no such folder"
    return None


def _umask():
    mask = os.umask(0)  # the only way to read it is to set it
    os.umask(mask)
    return mask


def write_atomically(path, data):
    """Write `data` at `path` through a temporary file, so an old file there stays whole until
    the new one is complete. The file gets the mode any saved file gets (0666 less the umask),
    not mkstemp's private 0600."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".blinks-uf2-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def run(args):
    problem = usage_problem(args)
    if problem:
        print(f"blinks uf2: {problem}", file=sys.stderr)
        return 2
    try:
        source = images.firmware_path(
            args.firmware_uf2, fetch=True, offline=args.offline, option="--firmware-uf2"
        )
    except images.MissingImage as exc:
        print(f"blinks uf2: {exc}", file=sys.stderr)
        return 2
    except FetchError as exc:
        print(f"blinks uf2: {exc}", file=sys.stderr)
        return 1
    try:
        with open(source, "rb") as f:
            micropython = read_micropython_uf2(f.read(), source)
        image = build(args.game, compile=not args.no_compile, firmware_dir=args.firmware)
        data = make_tile_uf2(micropython, image)
    except (TileUf2Error, FsImageError) as exc:
        print(f"blinks uf2: {exc}", file=sys.stderr)
        return 2
    except BuildError as exc:
        print(f"blinks uf2: cannot build the firmware: {exc}", file=sys.stderr)
        return 2
    summary = (
        f"MicroPython {micropython.release} ({micropython.board}) + {image.game} build "
        f"{image.build} ({len(image.files) + 1} files, {image.total_bytes()} bytes): "
        f"{len(data)} bytes of UF2"
    )
    if args.output:
        try:
            write_atomically(args.output, data)
        except OSError as exc:
            print(f"blinks uf2: cannot write {args.output}: {exc}", file=sys.stderr)
            return 1
        print(f"{args.output}: {summary}")
        if not args.flash:
            print(
                "Hold a Pico's BOOTSEL button while plugging it in, then drag this file onto "
                "its RPI-RP2 drive: it restarts as a tile. `blinks flash` updates it later."
            )
    if args.flash:
        return flash(args, data, summary)
    return 0


def flash(args, data, summary):
    try:
        if args.drive:
            drive = bootsel.check_drive(args.drive)
        elif args.port:
            bootsel.reboot_to_bootsel(args.port)
            print(f"{args.port}: restarting into BOOTSEL mode; waiting for its drive", flush=True)
            drive = bootsel.wait_for_drive()
        else:
            drive = bootsel.rp2040_drive(bootsel.find_drives())
        path = bootsel.copy_to_drive(data, drive)
    except bootsel.BootselError as exc:
        print(f"blinks uf2: {exc}", file=sys.stderr)
        return 1
    print(f"{path}: {summary}")
    print("The Pico restarts as a tile once the copy is done; `blinks ports` names its build.")
    return 0
