"""Where the two third-party binaries come from: MicroPython's UF2 for the Pico and the RP2040
bootrom (the emulated tiles need both; `blinks uf2` needs the UF2).

Each is looked for in this order, the first that is set winning:
1. the command line option (--firmware / --firmware-uf2, --bootrom);
2. an environment variable (BLINKS_RP2_FIRMWARE, BLINKS_RP2_BOOTROM);
3. the data folder $XDG_DATA_HOME/blinks/rp2/ (usually ~/.local/share/blinks/rp2/), as
   `firmware.uf2` and `bootrom.bin`: where a person puts them by hand;
4. the cache $XDG_CACHE_HOME/blinks/rp2/, where host_tools.fetch keeps the pinned downloads
   (host_tools.pins), each checked against its SHA-256 at every use;
5. with fetch=True, and unless offline (--offline, or BLINKS_OFFLINE=1), fetched into the cache.
A path named by 1 or 2 that is missing is an error at once, never replaced by a download. When
nothing is found, the error names the file, where it was looked for, and how to supply it.
"""

import os

from hal.requirements import min_release

from host_tools import fetch as fetcher
from host_tools import pins

FIRMWARE_ENV = "BLINKS_RP2_FIRMWARE"
BOOTROM_ENV = "BLINKS_RP2_BOOTROM"
OFFLINE_ENV = "BLINKS_OFFLINE"
BOOTROM_BYTES = 16384

FIRMWARE_HELP = f"any official RPI_PICO UF2, {min_release()} or newer: https://micropython.org/download/RPI_PICO/"
BOOTROM_HELP = (
    "a 16 KB dump of any Pico's mask ROM (revision B1): `picotool save -r 0 0x4000 bootrom.bin`"
)


class MissingImage(FileNotFoundError):
    """A binary is not where it was looked for and was not fetched; the message says where to
    get it."""


def data_dir():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "blinks", "rp2")


def offline_by_env():
    """True when BLINKS_OFFLINE asks for no downloads (any value but empty, 0, no, false, off)."""
    return os.environ.get(OFFLINE_ENV, "").strip().lower() not in ("", "0", "no", "false", "off")


def _find(given, env, default_name, pin, option, what, help_text, fetch, offline, say):
    if given:
        source, path = "the path given", given
    elif os.environ.get(env):
        source, path = env, os.environ[env]
    else:
        path = os.path.join(data_dir(), default_name)
        if os.path.isfile(path):
            return os.path.abspath(path)
        found = fetcher.cached(pin, say=say)
        if found:
            return found
        offline = offline or offline_by_env()
        if fetch and not offline:
            try:
                return fetcher.fetch(pin, say=say)
            except fetcher.FetchError as exc:
                raise fetcher.FetchError(
                    f"{exc}\n" + supply_lines(pin, path, option, env, help_text)
                ) from None
        raise MissingImage(_missing_message(pin, path, option, env, what, help_text, offline))
    if not os.path.isfile(path):
        raise MissingImage(
            f"no {what} at {path} ({source}). Get {help_text}; then put it at "
            f"{os.path.join(data_dir(), default_name)}, set {env}, or pass {option}"
        )
    return os.path.abspath(path)


def _missing_message(pin, data_path, option, env, what, help_text, offline):
    why = (
        "fetching is off (--offline or BLINKS_OFFLINE)"
        if offline
        else "`blinks emu` and `blinks uf2` fetch it on first use"
    )
    return (
        f"no {what}\n"
        f"  {why}\n"
        f"  looked at:  {data_path}\n"
        f"              {fetcher.cached_path(pin)} (the cache)\n"
        + supply_lines(pin, data_path, option, env, help_text)
    )


def supply_lines(pin, data_path, option, env, help_text):
    """A few short lines: the one command that supplies the file from a copy a person has, and
    where such a copy comes from."""
    if pin.decode is None:
        source = f"{pin.url} (pinned); or {help_text}"
    else:  # the pinned download is source text that holds the file
        source = f"{help_text}; or {pin.url}, which --from decodes"
    return "\n".join(
        (
            f"  from a file you have:  blinks fetch --{pin.key} --from FILE",
            f"  (or put it at {data_path}, set {env}, or pass {option})",
            f"  where to get one:  {source}",
        )
    )


def firmware_path(given=None, fetch=False, offline=False, say=None, option="--firmware"):
    """The MicroPython UF2's path; fetches the pinned one when `fetch` and not offline. Raises
    MissingImage (nothing found, or not a UF2) or host_tools.fetch.FetchError."""
    path = _find(
        given,
        FIRMWARE_ENV,
        "firmware.uf2",
        pins.MICROPYTHON,
        option,
        "MicroPython firmware",
        FIRMWARE_HELP,
        fetch,
        offline,
        say,
    )
    with open(path, "rb") as f:
        if f.read(8) != b"UF2\nWQ]\x9e":
            raise MissingImage(f"{path} is not a UF2 file: expected {FIRMWARE_HELP}")
    return path


def bootrom_path(given=None, fetch=False, offline=False, say=None):
    """The RP2040 bootrom's path; fetches the pinned one when `fetch` and not offline. Raises
    MissingImage (nothing found, or not 16 KB) or host_tools.fetch.FetchError."""
    path = _find(
        given,
        BOOTROM_ENV,
        "bootrom.bin",
        pins.BOOTROM,
        "--bootrom",
        "RP2040 bootrom",
        BOOTROM_HELP,
        fetch,
        offline,
        say,
    )
    if os.path.getsize(path) != BOOTROM_BYTES:
        raise MissingImage(f"{path} is not a 16 KB bootrom: expected {BOOTROM_HELP}")
    return path
