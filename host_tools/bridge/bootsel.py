"""Put a UF2 on a Raspberry Pi Pico in BOOTSEL mode: its bootrom's USB drive, RPI-RP2.

A Pico started with BOOTSEL held (or told `machine.bootloader()`) shows up as a small USB drive
holding INFO_UF2.TXT ("Board-ID: RPI-RP2" on an RP2040, "Board-ID: RP2350" on a Pico 2).
Copying a UF2 file onto it writes the file's blocks into flash; the board restarts by itself
once the last block has landed, and the drive goes away. A drive is recognised by that file
alone, in the places operating systems mount removable drives.

The copy is a plain file write: the bootrom does the rest, so nothing here knows whether the
board took the file. Only a real Pico can show that it did (it restarts and its serial port
comes back; `blinks ports` then names the build).
"""

import contextlib
import glob
import os
import re
import string
import sys
import time

INFO_FILE = "INFO_UF2.TXT"
RP2040_BOARD_ID = "RPI-RP2"
DRIVE_WAIT_S = 30.0  # for the drive to appear after machine.bootloader(): USB, then automount
BOOTLOADER = "import time, machine; time.sleep_ms(100); machine.bootloader()"  # as mpremote's


class BootselError(RuntimeError):
    """No BOOTSEL drive to write to, or the copy failed; the message says what to do."""


def read_info(folder):
    """INFO_UF2.TXT of `folder` as {key: value}, or None when it has none (not a UF2 drive)."""
    try:
        with open(os.path.join(folder, INFO_FILE), encoding="ascii", errors="replace") as f:
            text = f.read(4096)
    except OSError:
        return None
    info = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            info[key.strip()] = value.strip()
    return info


def _proc_mounts():
    try:
        with open("/proc/mounts") as f:
            return mount_folders(f.read())
    except OSError:
        return []


def mount_folders(text):
    """The mount points in the text of /proc/mounts, which writes a space, tab, newline or
    backslash in a path as octal (\\040)."""
    return [
        re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[1])
        for line in text.splitlines()
        if len(line.split()) > 1
    ]


def mount_points():
    """Folders where a removable drive may be mounted on this machine."""
    found = list(_proc_mounts())
    for pattern in ("/media/*", "/media/*/*", "/run/media/*/*", "/Volumes/*", "/mnt/*"):
        found += glob.glob(pattern)
    if sys.platform == "win32":
        found += [f"{letter}:\\" for letter in string.ascii_uppercase]
    return list(dict.fromkeys(found))


def find_drives(places=None):
    """[(folder, info)] of every UF2 bootloader drive among `places` (default: mount_points())."""
    drives = []
    for folder in mount_points() if places is None else places:
        info = read_info(folder)
        if info is not None:
            drives.append((folder, info))
    return drives


def rp2040_drive(drives):
    """The one RP2040 BOOTSEL drive among `drives`; BootselError when none or several."""
    picos = [d for d, info in drives if info.get("Board-ID") == RP2040_BOARD_ID]
    if len(picos) == 1:
        return picos[0]
    if len(picos) > 1:
        raise BootselError(
            "several Picos are in BOOTSEL mode (" + ", ".join(picos) + "): name one with --drive"
        )
    others = [f"{d} ({info.get('Board-ID', '?')})" for d, info in drives]
    if others:
        raise BootselError(
            "no RP2040 in BOOTSEL mode; found only " + ", ".join(others) + ": this image is "
            "for a Raspberry Pi Pico (RP2040, drive RPI-RP2)"
        )
    raise BootselError(
        "no Pico in BOOTSEL mode found: hold its BOOTSEL button while plugging it in, wait for "
        "the RPI-RP2 drive (mount it if your system does not), or name the drive's folder "
        "with --drive, or a tile running MicroPython with --port"
    )


def check_drive(folder):
    """`folder` as a BOOTSEL drive of an RP2040, or BootselError saying what it is instead."""
    info = read_info(folder)
    if info is None:
        raise BootselError(f"{folder} has no {INFO_FILE}: not a Pico's BOOTSEL drive")
    if info.get("Board-ID") != RP2040_BOARD_ID:
        raise BootselError(
            f"{folder} is a {info.get('Board-ID', 'UF2')} bootloader drive, not an RP2040's "
            f"({RP2040_BOARD_ID}): this image is for a Raspberry Pi Pico"
        )
    return folder


def wait_for_drive(timeout=None, places=None):
    """The RP2040 BOOTSEL drive once it is mounted, polling for `timeout` seconds."""
    deadline = time.monotonic() + (DRIVE_WAIT_S if timeout is None else timeout)
    while True:
        drives = find_drives(places)
        if any(info.get("Board-ID") == RP2040_BOARD_ID for _, info in drives):
            return rp2040_drive(drives)
        if time.monotonic() >= deadline:
            raise BootselError(
                f"no RPI-RP2 drive appeared within {DRIVE_WAIT_S if timeout is None else timeout:.0f}"
                " s: if the Pico is in BOOTSEL mode but its drive is not mounted, mount it "
                "(e.g. `udisksctl mount -b /dev/sdX1`) and pass its folder with --drive"
            )
        time.sleep(0.5)


def reboot_to_bootsel(port):
    """Tell the MicroPython tile on `port` to restart into its bootloader (BOOTSEL mode).

    Refuses a board that is not an RP2040 running MicroPython's rp2 port, before anything is
    sent that would stop it."""
    from host_tools.bridge.link import LinkError, close, connect

    try:
        transport = connect(port, overall=30.0)
    except LinkError as exc:
        raise BootselError(f"{port}: {exc}") from None
    try:
        try:
            machine = transport.eval(
                "__import__('os').uname().machine if __import__('sys').platform == 'rp2' "
                "and hasattr(__import__('machine'), 'bootloader') else None"
            )
        except Exception as exc:  # noqa: BLE001  any answer but a name means "not a Pico"
            machine = None
            problem = f"{type(exc).__name__}: {exc}"
        else:
            problem = "not MicroPython's rp2 port, or no machine.bootloader()"
        if not machine or "RP2040" not in machine:
            close(transport, restart=True)
            what = f"a {machine}" if machine else problem
            raise BootselError(
                f"{port} is {what}: only a Pico (RP2040) running MicroPython can be sent to "
                "BOOTSEL mode from here; hold BOOTSEL while plugging it in instead"
            )
        transport.exec_raw_no_follow(BOOTLOADER)
    except BootselError:
        raise
    except Exception as exc:  # noqa: BLE001  a port that vanishes mid-command
        raise BootselError(f"{port}: could not ask for the bootloader ({exc})") from None
    finally:
        with contextlib.suppress(Exception):
            transport.serial.close()  # the board leaves USB serial; nothing to leave politely


def copy_to_drive(data, drive, name="tile.uf2"):
    """Write the UF2 `data` onto the BOOTSEL drive; returns the path written."""
    check_drive(drive)
    path = os.path.join(drive, name)
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise BootselError(
            f"writing {path} failed ({exc}); if the drive vanished only at the very end, the "
            "Pico may have taken the whole file and restarted: check with `blinks ports`"
        ) from None
    return path
