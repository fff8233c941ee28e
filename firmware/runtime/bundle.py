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


def head(build, count):
    """The manifest's first bytes: MAGIC, the build id and the file count."""
    name = build.encode()
    out = bytearray(4 + 1 + len(name) + 2)
    out[0:4] = MAGIC
    out[4] = len(name)
    out[5 : 5 + len(name)] = name
    out[5 + len(name)] = count >> 8
    out[6 + len(name)] = count & 0xFF
    return out


def entry(path, size, digest):
    """One file's bytes of the manifest: size, SHA-256, path."""
    p = path.encode()
    out = bytearray(37 + len(p))
    _put32(out, 0, size)
    out[4:36] = digest
    out[36] = len(p)
    out[37:] = p
    return out


def pieces(build, entries):
    """The manifest of `build` for entries [(path, size, sha256 digest)], main.py last, a piece
    at a time: the head, then an entry a file."""
    yield head(build, len(entries))
    for path, size, digest in entries:
        yield entry(path, size, digest)


def encode(build, entries):
    """The whole manifest as one bytes object (the host, tests; a tile streams pieces())."""
    return b"".join(pieces(build, entries))


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
        # the manifest is made a piece at a time whenever it is read, never whole: ~5 kB in one
        # block is more than a heap fragmented by the game's imports may have (MemoryError)
        import binascii

        crc, at = 0, 0
        self.piece_at = []  # where each piece of the manifest starts: the head, then each entry
        for piece in pieces(build, entries):
            self.piece_at.append(at)
            crc = binascii.crc32(piece, crc)
            at += len(piece)
        self.manifest_len = at
        self.manifest_crc = crc & 0xFFFFFFFF
        self.starts = []
        for _path, size, _digest in entries:
            self.starts.append(at)
            at += size
        self.size = at
        self.mpy = store.build_mpy(build, files)  # (version, flags) of its .mpy, (0, 0) if none

    def read(self, offset, view) -> None:
        """Fill `view` with the stream's bytes from `offset` on."""
        n = len(view)
        done = 0
        if offset < self.manifest_len:
            done = self._manifest_into(offset, view)
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

    def _manifest_into(self, offset, view):
        """Fill the start of `view` with the manifest's bytes from `offset`; how many. Only the
        pieces it covers are made (a receiver asks a frame's worth at a time)."""
        starts, entries = self.piece_at, self.entries
        k = 0
        while k + 1 < len(starts) and starts[k + 1] <= offset:
            k += 1
        done, n = 0, len(view)
        while done < n and k < len(starts):
            piece = head(self.build, len(entries)) if k == 0 else entry(*entries[k - 1])
            start = offset + done - starts[k]
            take = min(n - done, len(piece) - start)
            view[done : done + take] = piece[start : start + take]
            done += take
            k += 1
        return done
