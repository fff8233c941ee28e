"""A littlefs image of a tile's files, exactly as MicroPython's rp2 port mounts it on a Pico.

`blinks uf2` puts this image into the same UF2 as MicroPython, so a Pico boots straight into
the game. Every figure is the one MicroPython v1.28.0 uses for board RPI_PICO (the same since
v1.22 at least); a wrong one and the board would not mount the image but format over it:

| figure | value | where it comes from (MicroPython v1.28.0 unless said) |
|---|---|---|
| flash base | 0x100A0000 (offset 640 KB) | ports/rp2/rp2_flash.c:66, STORAGE_BASE = PICO_FLASH_SIZE_BYTES (2 MB, pico-sdk src/boards/include/boards/pico.h) - STORAGE_BYTES |
| size | 1408 KB | ports/rp2/boards/RPI_PICO/mpconfigboard.h:3, MICROPY_HW_FLASH_STORAGE_BYTES |
| block size | 4096 | ports/rp2/rp2_flash.c:44, BLOCK_SIZE_BYTES = FLASH_SECTOR_SIZE (pico-sdk hardware/flash.h: 1 << 12) |
| block count | 352 | ports/rp2/rp2_flash.c:342, flash_size / BLOCK_SIZE_BYTES |
| prog size | 256 | ports/rp2/modules/_boot.py:9, VfsLfs2(bdev, progsize=256) |
| read size | 32 | extmod/vfs_lfs.c:40, the readsize default |
| lookahead | 32 | extmod/vfs_lfs.c:42, the lookahead default |
| cache size, block cycles | 1024, 100 | extmod/vfs_lfsx.c:101-102 |
| name max | 255 | extmod/vfs_lfsx.c:76 leaves it 0, so lib/littlefs/lfs2.h:51 LFS2_NAME_MAX |
| on-disk version | 2.1 (0x00020001) | lib/littlefs/lfs2.h:31 LFS2_DISK_VERSION; rp2 sets no LFS2_MULTIVERSION (extmod/vfs_lfsx.c:111), and lfs2.c:4533 refuses a newer minor |

Only the cache size, lookahead and block cycles stay off the disk; the rest is written into the
superblock or shapes the commits, and lfs2.c:4564 and :4601 refuse a superblock whose name_max
is larger or whose block count differs. littlefs-python (PyPI) wraps littlefs 2.11, the
release MicroPython v1.26-v1.28 carry (lib/littlefs/lfs2.h:24).

The image holds only the blocks littlefs touched while building it and reading it back: a
Pico's bootrom rewrites just the pages a UF2 names, so both blocks of every metadata pair are
written whole (an old filesystem's block there could outrank ours), while blocks littlefs never
looked at are free and may keep anything (littlefs erases a block before it uses it).
"""

import littlefs

FLASH_BASE = 0x10000000  # the RP2040's XIP window: flash offset 0 is read at this address
FLASH_BYTES = 2 * 1024 * 1024
STORAGE_BYTES = 1408 * 1024
STORAGE_OFFSET = FLASH_BYTES - STORAGE_BYTES  # 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = STORAGE_BYTES // BLOCK_SIZE  # 352
PROG_SIZE = 256
READ_SIZE = 32
LOOKAHEAD = 32
CACHE_SIZE = min(BLOCK_SIZE, 4 * max(READ_SIZE, PROG_SIZE))  # 1024
BLOCK_CYCLES = 100
NAME_MAX = 255
DISK_VERSION = 0x00020001
PAGE = 256


class FsImageError(ValueError):
    """The files cannot become an image MicroPython would mount (too big, a bad name)."""


class _Recorder(littlefs.UserContext):
    """A RAM block device that remembers every block littlefs read, programmed or erased."""

    def __init__(self, data=None):
        if data is None:
            super().__init__(buffsize=STORAGE_BYTES)  # erased flash: all 0xFF
        else:
            super().__init__(buffer=bytearray(data))
        self.touched = set()

    def read(self, cfg, block, off, size):
        self.touched.add(block)
        return super().read(cfg, block, off, size)

    def prog(self, cfg, block, off, data):
        self.touched.add(block)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.touched.add(block)
        return super().erase(cfg, block)


def _mount(context, mount=True):
    return littlefs.LittleFS(
        context=context,
        mount=mount,
        block_size=BLOCK_SIZE,
        block_count=BLOCK_COUNT,
        read_size=READ_SIZE,
        prog_size=PROG_SIZE,
        cache_size=CACHE_SIZE,
        lookahead_size=LOOKAHEAD,
        block_cycles=BLOCK_CYCLES,
        name_max=NAME_MAX,
        disk_version=DISK_VERSION,
    )


class FsImage:
    """`data`: the whole filesystem region (1408 KB); `blocks`: the blocks the UF2 must carry."""

    def __init__(self, data, blocks):
        self.data = data
        self.blocks = blocks

    def pages(self):
        """{flash address: 256 bytes} of every page of the blocks the UF2 must carry."""
        out = {}
        for block in self.blocks:
            for at in range(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE, PAGE):
                out[FLASH_BASE + STORAGE_OFFSET + at] = self.data[at : at + PAGE]
        return out


def build_fs(files):
    """The littlefs image holding `files` ({path on the tile: bytes}), read back and checked."""
    context = _Recorder()
    fs = _mount(context, mount=False)
    try:
        fs.format()
        fs.mount()
        for path, data in sorted(files.items()):
            if any(len(part.encode()) > NAME_MAX for part in path.split("/")):
                raise FsImageError(f"{path}: a name longer than {NAME_MAX} bytes")
            folder = path.rpartition("/")[0]
            if folder:
                fs.makedirs(folder, exist_ok=True)
            with fs.open(path, "wb") as f:
                f.write(data)
        fs.unmount()
    except littlefs.LittleFSError as exc:
        total = sum(len(d) for d in files.values())
        if exc.code == littlefs.LittleFSError.Error.LFS_ERR_NOSPC:
            raise FsImageError(
                f"the build ({total} bytes) does not fit in the tile's "
                f"{STORAGE_BYTES // 1024} KB filesystem"
            ) from None
        raise FsImageError(f"littlefs: {exc}") from None
    data = bytes(context.buffer)
    # Read it back as a board would mount it: every file, byte for byte.
    check = _Recorder(data)
    fs = _mount(check)
    for path, expected in files.items():
        with fs.open(path, "rb") as f:
            if f.read() != expected:
                raise FsImageError(f"{path} reads back differently from the image")
    fs.unmount()
    return FsImage(data, sorted(context.touched | check.touched))
