"""The third-party binaries the host tools fetch on first use, each pinned: URL, SHA-256, licence.

Neither file is part of this project, and each one fetched is checked against the SHA-256
written here before it is kept (host_tools.fetch). Where each pin comes from:

- MicroPython 1.28.0 for the Raspberry Pi Pico (board RPI_PICO), the official build from
  micropython.org's download page. Its SHA-256 could not be read from the live file on the
  machine where this was written (it reaches no website); it is the one pinned by a public
  repository's firmware manifest (tinyrange/renvo_emu, firmware/micropython-v1.28.0.toml,
  commit 4ccaa5318052114935d51aafcce16026912edb03), whose fetch script checks the downloaded
  file against it. The first real fetch is the first check against the live file.
- The RP2040 bootrom, revision B1 (Raspberry Pi's pico-bootrom, commit 00a4a191), as rp2040js
  carries it in demo/bootrom.ts: TypeScript source holding a Uint32Array of 4096 little-endian
  words, last changed in rp2040js commit f9becba867f6d7afbf99551270cc9a2e841742eb. The pin is
  the SHA-256 of the 16384 decoded bytes, checked against that commit's file.

Only MicroPython 1.28.0 is pinned: another release is not fetched (a user downloads it and
names it with --firmware / --firmware-uf2 or BLINKS_RP2_FIRMWARE).
"""

import re
import struct


class Pin:
    """One file to fetch: what it is, from where, under which licence, and its SHA-256 as kept
    (after `decode`, when the download is a source that holds it)."""

    def __init__(self, key, what, version, url, sha256, licence, filename, decode=None):
        self.key = key
        self.what = what
        self.version = version
        self.url = url
        self.sha256 = sha256
        self.licence = licence
        self.filename = filename
        self.decode = decode


BOOTROM_WORDS = 4096
_ARRAY = re.compile(r"new\s+Uint32Array\(\s*\[(.*?)\]\s*\)", re.DOTALL)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_HEX = re.compile(r"0[xX][0-9a-fA-F]{1,8}")
_DEC = re.compile(r"[0-9]{1,10}")


def decode_bootrom_ts(source):
    """The 16384 bytes of rp2040js's demo/bootrom.ts, read as data (never run): the numbers of
    its `new Uint32Array([...])`, each a little-endian word. ValueError for anything else."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    found = _ARRAY.search(text)
    if not found:
        raise ValueError("no `new Uint32Array([...])` in it")
    items = [item.strip() for item in _COMMENT.sub("", found.group(1)).split(",")]
    if items and not items[-1]:
        items.pop()  # a trailing comma
    words = []
    for item in items:
        if _HEX.fullmatch(item):
            words.append(int(item, 16))
        elif _DEC.fullmatch(item) and int(item) < 1 << 32:
            words.append(int(item))
        else:
            raise ValueError(f"an element that is no 32-bit number: {item[:40]!r}")
    if len(words) != BOOTROM_WORDS:
        raise ValueError(f"{len(words)} words where the bootrom has {BOOTROM_WORDS}")
    return struct.pack(f"<{BOOTROM_WORDS}I", *words)


MICROPYTHON = Pin(
    key="firmware",
    what="MicroPython 1.28.0 for the Raspberry Pi Pico (RPI_PICO)",
    version="1.28.0",
    url="https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2",
    sha256="00aedb8431ebea83b470ef909509f16432c5b1b43e8f6eaf015f6f9560bc8152",
    licence="MIT (MicroPython)",
    filename="micropython-1.28.0-RPI_PICO.uf2",
)

BOOTROM = Pin(
    key="bootrom",
    what="the RP2040 bootrom, revision B1 (pico-bootrom 00a4a191)",
    version="B1",
    url=(
        "https://raw.githubusercontent.com/wokwi/rp2040js/"
        "f9becba867f6d7afbf99551270cc9a2e841742eb/demo/bootrom.ts"
    ),
    sha256="90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
    licence="BSD-3-Clause (Raspberry Pi), as carried in rp2040js (MIT)",
    filename="rp2040-bootrom-b1.bin",
    decode=decode_bootrom_ts,
)

# MicroPython releases pinned, by version: only 1.28.0.
FIRMWARE_PINS = {MICROPYTHON.version: MICROPYTHON}
