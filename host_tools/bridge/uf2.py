"""The UF2 container (Microsoft's USB Flashing Format, github.com/microsoft/uf2), read and written.

A UF2 file is a run of 512-byte blocks, each carrying up to 476 bytes of payload for one flash
address, framed by three magic numbers. A Raspberry Pi Pico's bootrom accepts blocks of 256
bytes at 256-aligned addresses with the family-id flag set and its chip's family id; the same
rule is kept here for what we write. Only what `blinks uf2` needs: read a file's blocks (every
field checked, errors naming the block), and write flash pages back as blocks.
"""

import struct

BLOCK = 512
MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
HEADER = struct.Struct("<8I")  # magic0, magic1, flags, address, size, block no, blocks, family
MAX_PAYLOAD = 476
PAGE = 256  # what a Pico's bootrom writes per block

FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FILE_CONTAINER = 0x00001000
FLAG_FAMILY_ID = 0x00002000

# Family ids, from the spec's uf2families.json and pico-sdk/picotool.
RP2040 = 0xE48BFF56
FAMILIES = {
    RP2040: "RP2040",
    0xE48BFF57: "RP2XXX absolute (an RP2350 image's first block)",
    0xE48BFF58: "RP2XXX data",
    0xE48BFF59: "RP2350 (Arm, secure)",
    0xE48BFF5A: "RP2350 (RISC-V)",
    0xE48BFF5B: "RP2350 (Arm, non-secure)",
}


class Uf2Error(ValueError):
    """Not a UF2 file, or not one this tool can use; the message says which block and why."""


class Block:
    def __init__(self, flags, address, payload, family):
        self.flags = flags
        self.address = address
        self.payload = payload
        self.family = family  # None without FLAG_FAMILY_ID


def family_name(family):
    if family is None:
        return "no family id"
    return FAMILIES.get(family, f"unknown family 0x{family:08x}")


def read_blocks(data, what="the file"):
    """Every block of a UF2 file, each checked against the spec; Uf2Error names the first bad one."""
    if not data:
        raise Uf2Error(f"{what} is empty, not a UF2 file")
    if len(data) % BLOCK:
        raise Uf2Error(f"{what} is {len(data)} bytes, not a whole number of 512-byte UF2 blocks")
    blocks = []
    for n in range(len(data) // BLOCK):
        raw = data[n * BLOCK : (n + 1) * BLOCK]
        m0, m1, flags, address, size, _no, _count, family = HEADER.unpack_from(raw)
        (end,) = struct.unpack_from("<I", raw, BLOCK - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise Uf2Error(f"{what}: block {n} has no UF2 magic numbers: not a UF2 file")
        if size > MAX_PAYLOAD:
            raise Uf2Error(f"{what}: block {n} claims {size} bytes of payload (at most 476)")
        if flags & FLAG_FILE_CONTAINER:
            raise Uf2Error(f"{what}: block {n} is a file container, not flash contents")
        blocks.append(
            Block(
                flags,
                address,
                bytes(raw[32 : 32 + size]),
                family if flags & FLAG_FAMILY_ID else None,
            )
        )
    return blocks


def flash_pages(blocks, what="the file"):
    """{address: 256 bytes} of the main-flash blocks; refuses blocks a Pico's bootrom would not
    take as they are (not 256 bytes at a 256-aligned address) and two blocks for one page."""
    pages = {}
    for n, b in enumerate(blocks):
        if b.flags & FLAG_NOT_MAIN_FLASH:
            continue
        if len(b.payload) != PAGE or b.address % PAGE:
            raise Uf2Error(
                f"{what}: block {n} holds {len(b.payload)} bytes at 0x{b.address:08x}; "
                "a Pico takes 256-byte pages at 256-aligned addresses"
            )
        if b.address in pages:
            raise Uf2Error(f"{what}: two blocks for the page at 0x{b.address:08x}")
        pages[b.address] = b.payload
    return pages


def write_blocks(pages, family):
    """A UF2 file of `pages` ({address: 256 bytes}), in address order, numbered 0..N-1."""
    out = bytearray()
    addresses = sorted(pages)
    for n, address in enumerate(addresses):
        payload = pages[address]
        if len(payload) != PAGE or address % PAGE:
            raise ValueError(f"a page must be 256 bytes at a 256-aligned address (0x{address:x})")
        block = bytearray(BLOCK)
        HEADER.pack_into(
            block,
            0,
            MAGIC_START0,
            MAGIC_START1,
            FLAG_FAMILY_ID,
            address,
            PAGE,
            n,
            len(addresses),
            family,
        )
        block[32 : 32 + PAGE] = payload
        struct.pack_into("<I", block, BLOCK - 4, MAGIC_END)
        out += block
    return bytes(out)
