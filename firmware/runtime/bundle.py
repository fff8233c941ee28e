"""A build as one byte stream: its manifest, then every file's bytes in the manifest's order.

What `blinks flash` leaves on a tile is a build: the files of fw/<build>/ and a main.py naming
that directory. Sharing sends it as one stream so that a receiver can ask for any offset
(runtime/bulk.py) and resume anywhere. The manifest comes first and says what follows:

    MAGIC, build id (1 length byte + ASCII), file count (2 bytes), then for each file:
    size (4 bytes), SHA-256 (32 bytes), path (1 length byte + ASCII, from the flash root)

Paths are "main.py" (exactly once, last) or "fw/<build>/..." with plain names only: a manifest
that names anything else (an absolute path, "..", another build's directory) is refused, so a
share can never write outside the new build's directory and main.py.

The store (`hal.build_store()`, documented in runtime/share.py) gives the files; nothing here
touches a file system itself.
"""

MAGIC = b"BSH1"
MAIN = "main.py"
MAX_FILES = 255
MAX_PATH = 120


class BadManifest(ValueError):
    """A manifest that cannot be a build's: it is refused, nothing is written."""


def _put32(out, i, v):
    out[i] = v >> 24 & 0xFF
    out[i + 1] = v >> 16 & 0xFF
    out[i + 2] = v >> 8 & 0xFF
    out[i + 3] = v & 0xFF


def encode(build, entries):
    """The manifest of `build` for entries [(path, size, sha256 digest)], main.py last. Sized
    first and filled in place: one allocation, where growing it would fragment a tile's heap."""
    name = build.encode()
    n = 4 + 1 + len(name) + 2
    for path, _size, _digest in entries:
        n += 4 + 32 + 1 + len(path)
    out = bytearray(n)
    out[0:4] = MAGIC
    out[4] = len(name)
    i = 5 + len(name)
    out[5:i] = name
    out[i] = len(entries) >> 8
    out[i + 1] = len(entries) & 0xFF
    i += 2
    for path, size, digest in entries:
        _put32(out, i, size)
        out[i + 4 : i + 36] = digest
        p = path.encode()
        out[i + 36] = len(p)
        out[i + 37 : i + 37 + len(p)] = p
        i += 37 + len(p)
    return out


def good_path(path, build) -> bool:
    """main.py, or a plain relative path inside fw/<build>/."""
    if path == MAIN:
        return True
    prefix = "fw/" + build + "/"
    if not path.startswith(prefix) or len(path) > MAX_PATH or "\\" in path:
        return False
    for part in path[len(prefix) :].split("/"):
        if not part or part == "." or part == ".." or part.endswith(".tmp"):
            return False
        for ch in part:
            if ch < " " or ch > "~":
                return False
    return True


def good_build(build) -> bool:
    if not 0 < len(build) <= 32:
        return False
    for ch in build:
        if not ("0" <= ch <= "9" or "a" <= ch <= "z" or "A" <= ch <= "Z" or ch in "-_"):
            return False
    return True


def decode(data):
    """(build, [(path, size, digest)]) from a manifest; raises BadManifest saying why."""
    try:
        if data[:4] != MAGIC:
            raise BadManifest("not a build manifest")
        i = 4
        n = data[i]
        build = bytes(data[i + 1 : i + 1 + n]).decode()
        i += 1 + n
        if not good_build(build):
            raise BadManifest("bad build id")
        count = data[i] << 8 | data[i + 1]
        i += 2
        if not 0 < count <= MAX_FILES:
            raise BadManifest("bad file count")
        entries = []
        seen = set()
        for _ in range(count):
            size = data[i] << 24 | data[i + 1] << 16 | data[i + 2] << 8 | data[i + 3]
            digest = bytes(data[i + 4 : i + 36])
            n = data[i + 36]
            path = bytes(data[i + 37 : i + 37 + n]).decode()
            i += 37 + n
            if len(digest) != 32 or not good_path(path, build) or path in seen:
                raise BadManifest("bad entry " + repr(path))
            seen.add(path)
            entries.append((path, size, digest))
    except (IndexError, UnicodeError) as exc:
        raise BadManifest("truncated or garbled") from exc
    if i != len(data) or entries[-1][0] != MAIN:
        raise BadManifest("no main.py last, or bytes left over")
    return build, entries


class Source:
    """The running build as a stream, for a tile that shares it: the manifest (made here, each
    file hashed) and the files read from the store as a receiver asks for them."""

    def __init__(self, store):
        build = store.running()
        if build is None:
            raise OSError("this tile holds no build")
        recorded = store.recorded_digests(build) or {}
        entries = []  # the digests are worked out here: what version.json says is checked
        files = store.files(build)
        for path, size in files:
            digest = store.digest(path)
            if digest is None:
                raise OSError("cannot read " + path)
            want = recorded.get(path)
            if want is not None and want != digest:
                raise OSError("the build is damaged (" + path + "): flash it again")
            entries.append((path, size, digest))
        recorded = None
        self.store = store
        self.build = build
        self.entries = entries
        self.manifest = encode(build, entries)
        import binascii

        self.manifest_crc = binascii.crc32(self.manifest) & 0xFFFFFFFF
        self.starts = []
        at = len(self.manifest)
        for _path, size, _digest in entries:
            self.starts.append(at)
            at += size
        self.size = at
        self.mpy = store.build_mpy(build, files)  # (version, flags) of its .mpy, (0, 0) if none

    def read(self, offset, view) -> None:
        """Fill `view` with the stream's bytes from `offset` on."""
        n = len(view)
        done = 0
        m = len(self.manifest)
        if offset < m:
            take = min(n, m - offset)
            view[:take] = self.manifest[offset : offset + take]
            done = take
        starts = self.starts
        i = 0
        while done < n:
            at = offset + done
            while i + 1 < len(starts) and starts[i + 1] <= at:
                i += 1
            path, size, _digest = self.entries[i]
            take = min(n - done, starts[i] + size - at)
            got = self.store.read(path, at - starts[i], view[done : done + take])
            if got != take:
                raise OSError("short read of " + path)
            done += take
            i += 1
