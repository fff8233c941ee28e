"""What a Raspberry Pi Pico program says about itself: pico-sdk's "binary info", as picotool reads it.

Every pico-sdk program (MicroPython's rp2 port included) carries a table that picotool shows
with `picotool info`: program name and version, the board it was built for, and the flash
block devices it uses. `blinks uf2` reads it from the MicroPython UF2 to tell which release and
board it is and where its filesystem lies, without running it.

Format (pico-sdk src/common/pico_binary_info/include/pico/binary_info/structure.h, and the
header in src/rp2_common/pico_crt0/crt0.S): near the start of the image, the words
0x7188ebf2, start, end, copy table, 0xe71aa390; [start, end) holds pointers to entries, each
beginning with a 16-bit type and a 16-bit tag. A pointer into RAM is found in flash through the
copy table (source, destination start, destination end; a zero source ends it).
"""

import struct

FLASH_BASE = 0x10000000
MARKER_START = 0x7188EBF2
MARKER_END = 0xE71AA390
SEARCH_BYTES = 0x1000  # the header sits in the first 256 bytes after the second-stage loader

TYPE_ID_AND_INT = 5
TYPE_ID_AND_STRING = 6
TYPE_BLOCK_DEVICE = 7
TAG_RASPBERRY_PI = ord("R") | ord("P") << 8

ID_PROGRAM_NAME = 0x02031C86
ID_PROGRAM_VERSION = 0x11A9BC3A
ID_PICO_BOARD = 0xB63CFFBB
ID_SDK_VERSION = 0x5360B3AB
STRINGS = {
    ID_PROGRAM_NAME: "program_name",
    ID_PROGRAM_VERSION: "program_version",
    ID_PICO_BOARD: "pico_board",
    ID_SDK_VERSION: "sdk_version",
}


class BinaryInfo:
    def __init__(self):
        self.program_name = None
        self.program_version = None
        self.pico_board = None
        self.sdk_version = None
        self.block_devices = []  # (name, address, size)


class _Image:
    """A flash image from its pages, read at absolute addresses; RAM addresses through the
    copy table."""

    def __init__(self, pages):
        self.pages = pages
        self.copies = []

    def read(self, address, size):
        address = self._to_flash(address)
        out = bytearray()
        while len(out) < size:
            page = self.pages.get(address - address % 256)
            if page is None:
                raise ValueError(f"0x{address:08x} is not in the image")
            chunk = page[address % 256 : address % 256 + size - len(out)]
            out += chunk
            address += len(chunk)
        return bytes(out)

    def word(self, address):
        return struct.unpack("<I", self.read(address, 4))[0]

    def string(self, address, limit=256):
        out = bytearray()
        while len(out) < limit:
            byte = self.read(address + len(out), 1)
            if byte == b"\0":
                return out.decode("utf-8", "replace")
            out += byte
        raise ValueError(f"no string end within {limit} bytes at 0x{address:08x}")

    def _to_flash(self, address):
        for source, start, end in self.copies:
            if start <= address < end:
                return source + address - start
        return address


def read_binary_info(pages):
    """The BinaryInfo of the flash image made of `pages` ({address: 256 bytes}), or None when
    the image carries no binary info (not a pico-sdk program)."""
    image = _Image(pages)
    header = None
    for offset in range(0, SEARCH_BYTES, 4):
        try:
            if image.word(FLASH_BASE + offset) != MARKER_START:
                continue
            words = [image.word(FLASH_BASE + offset + 4 * i) for i in range(1, 5)]
        except ValueError:
            continue
        if words[3] == MARKER_END:
            header = words[:3]
            break
    if header is None:
        return None
    start, end, copy_table = header
    info = BinaryInfo()
    try:
        address = copy_table
        while True:
            source = image.word(address)
            if not source:
                break
            image.copies.append((source, image.word(address + 4), image.word(address + 8)))
            address += 12
    except ValueError:
        image.copies = []  # no readable copy table: flash pointers still resolve
    for entry_at in range(start, end, 4):
        try:
            _read_entry(image, image.word(entry_at), info)
        except ValueError:
            continue  # an entry we cannot follow says nothing we need
    return info


def _read_entry(image, address, info):
    kind, tag = struct.unpack("<HH", image.read(address, 4))
    if tag != TAG_RASPBERRY_PI:
        return
    if kind == TYPE_ID_AND_STRING:
        ident, value = struct.unpack("<II", image.read(address + 4, 8))
        if ident in STRINGS:
            setattr(info, STRINGS[ident], image.string(value))
    elif kind == TYPE_BLOCK_DEVICE:
        name, start, size = struct.unpack("<III", image.read(address + 4, 12))
        info.block_devices.append((image.string(name) if name else "", start, size))
