"""A tile's builds in its flash files, as runtime/share.py reads and writes them.

The layout is the one `blinks flash` writes (host_tools/bridge/deploy.py): each build in its own
directory fw/<build>/ with a version.json listing every file's SHA-256, and main.py naming the
build it runs (its `FIRMWARE_DIR = "fw/<build>"` line). A share writes a new build into its
own directory, which nothing runs until main.py is replaced by a rename, the one switching step
(runtime/receive.py says in which order). littlefs (the rp2 port's file system) renames
atomically and commits a file's data on close, so a power cut leaves each file as it was at its
last commit.

Two small files at the flash root belong to sharing:
- share_state.json: a share to carry on at the next boot, written by the runtime before the
  switch, or `{"root": 1}` written by `blinks share` before it restarts the tile;
- tile_settings.json: the tile's own settings, kept across builds; `{"shares": "refuse"}` makes
  it refuse every share (`blinks share --port P --refuse`, or by hand).

Runs on the rp2 port and the unix port (virtual tiles); CPython too, for the host tests.
"""

import hashlib
import json
import os
import sys

from hal.storage import read_file, write_atomic

STATE_FILE = "share_state.json"
SETTINGS_FILE = "tile_settings.json"
MAIN = "main.py"
DIR_FLAG = 0x4000
CHUNK = 512


def _entries(path):
    """(name, is_dir, size) of a directory, sorted by name; [] when there is none. MicroPython's
    ilistdir gives all three in one pass over the directory; a stat a name (CPython's way, and
    what this did before) took most of the 0.9 s a tile spent walking a 60-file build."""
    try:
        if hasattr(os, "ilistdir"):
            found = [
                (e[0], e[1] & DIR_FLAG != 0, e[3] if len(e) > 3 else -1) for e in os.ilistdir(path)
            ]
        else:
            found = [(n,) + _kind(path + "/" + n) for n in os.listdir(path)]
    except OSError:
        return []
    found.sort()
    return found


def _kind(path):
    """(is_dir, size) of a path, by stat."""
    try:
        st = os.stat(path)
    except OSError:
        return False, -1
    return st[0] & DIR_FLAG != 0, st[6]


def _mkdirs(path):
    q = "/" if path.startswith("/") else ""
    for part in path.split("/"):
        if not part:
            continue
        q = q + part if not q or q.endswith("/") else q + "/" + part
        try:
            os.mkdir(q)
        except OSError:
            pass


def _remove_tree(path):
    for name, is_dir, _size in _entries(path):
        p = path + "/" + name
        if is_dir:
            _remove_tree(p)
        else:
            os.remove(p)
    try:
        os.rmdir(path)
    except OSError:
        pass


class FileStore:
    """hal.build_store() on a tile with a file system. Paths are from the flash root."""

    def __init__(self, root="", before_restart=None):
        self.root = root
        self._before_restart = before_restart  # the log's last lines out, on a tile
        self._open = None  # the file being appended to, and its path
        self._open_path = None
        self._reading = None  # the file last read from, kept open, and its path
        self._reading_path = None

    def _p(self, path):
        return self.root + path if self.root else path

    # ---- what this tile runs ----

    def running(self):
        """The build main.py names (its FIRMWARE_DIR line), or None."""
        try:
            with open(self._p(MAIN)) as f:
                for line in f:
                    if line.startswith('FIRMWARE_DIR = "fw/'):
                        return line.split('"')[1][3:]
        except OSError:
            pass
        return None

    def files(self, build):
        """[(path, size)] of the build's files, main.py last, every path from the flash root."""
        out = []  # type: list
        self._walk("fw/" + build, out)
        out.append((MAIN, self.size(MAIN)))
        return out

    def _walk(self, path, out):
        for name, is_dir, size in _entries(self._p(path)):
            p = path + "/" + name
            if is_dir:
                self._walk(p, out)
            elif not name.endswith(".tmp"):
                out.append((p, size if size >= 0 else self.size(p)))

    def recorded_digests(self, build):
        """{path: SHA-256 digest} from the build's version.json (what `blinks flash` wrote), or
        None when it has none."""
        try:
            with open(self._p("fw/" + build + "/version.json")) as f:
                files = json.load(f)["files"]  # from the stream: no 4 kB buffer to find
        except (OSError, ValueError, KeyError, TypeError):
            return None
        import binascii

        out = {}
        for rel, hexdigest in files.items():
            try:
                out["fw/" + build + "/" + rel] = binascii.unhexlify(hexdigest)
            except ValueError:
                pass
        return out

    def build_mpy(self, build, files=None):
        """(version, flags) from the header of the build's first .mpy file; (0, 0) if none.
        `files`: the build's files() when the caller has them (a walk is not free on a tile)."""
        for path, _size in files or self.files(build):
            if path.endswith(".mpy"):
                with open(self._p(path), "rb") as f:
                    head = f.read(4)
                if len(head) == 4 and head[0] == ord("M"):
                    return head[1], head[2]
        return 0, 0

    def mpy(self):
        """sys.implementation._mpy: the .mpy files this MicroPython loads (None: none)."""
        return getattr(sys.implementation, "_mpy", None)

    def release(self):
        """This MicroPython's release as (major, minor, patch), or None off MicroPython."""
        if sys.implementation.name != "micropython":
            return None
        v = sys.implementation.version
        return (v[0], v[1], v[2])

    def min_release(self):
        """The oldest MicroPython the running firmware needs (hal/requirements.py)."""
        from hal.requirements import MIN_MICROPYTHON

        return MIN_MICROPYTHON

    # ---- files ----

    def digest(self, path):
        """The file's SHA-256 digest, or None when it is missing."""
        self.commit()
        h = hashlib.sha256()
        buf = bytearray(CHUNK)
        view = memoryview(buf)
        try:
            with open(self._p(path), "rb") as f:
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    h.update(view[:n])
        except OSError:
            return None
        return h.digest()

    def size(self, path):
        try:
            return os.stat(self._p(path))[6]
        except OSError:
            return -1

    def read(self, path, offset, view):
        """Fill `view` from the file at `offset`; returns the bytes read. The file stays open for
        the next read (a sender reads each file a block at a time, and opening one on a tile
        costs 5.6 ms against 0.03 for the read) until `commit` or any change to the store."""
        if self._reading_path != path:
            self.commit()
            self._reading = open(self._p(path), "rb")  # noqa: SIM115  kept open until commit()
            self._reading_path = path
        f = self._reading
        f.seek(offset)  # type: ignore[union-attr]
        return f.readinto(view)  # type: ignore[union-attr]

    def append(self, path, data):
        """Append to the file, kept open across calls until `commit` (littlefs commits a file
        when it is closed: closing after every window would also copy its last block again)."""
        if self._open_path != path or self._reading is not None:
            self.commit()
            full = self._p(path)
            if "/" in path:
                _mkdirs(full.rsplit("/", 1)[0])
            self._open = open(full, "ab")  # noqa: SIM115  kept open until commit()
            self._open_path = path
        self._open.write(data)  # type: ignore[union-attr]

    def commit(self):
        """Close the files kept open: the one appended to (littlefs commits it now) and the one
        read from. Every other change to the store commits first."""
        f = self._open
        if f is not None:
            self._open = None
            self._open_path = None
            f.close()
        f = self._reading
        if f is not None:
            self._reading = None
            self._reading_path = None
            f.close()

    def copy(self, src, dst):
        self.commit()
        full = self._p(dst)
        if "/" in dst:
            _mkdirs(full.rsplit("/", 1)[0])
        buf = bytearray(CHUNK)
        view = memoryview(buf)
        with open(self._p(src), "rb") as fi, open(full, "wb") as fo:
            while True:
                n = fi.readinto(buf)
                if not n:
                    break
                fo.write(view[:n])

    def remove(self, path):
        self.commit()
        try:
            os.remove(self._p(path))
        except OSError:
            pass

    def rename(self, src, dst):
        """src over dst, atomically (littlefs renames over an existing file in one commit)."""
        self.commit()
        try:
            os.rename(self._p(src), self._p(dst))
        except OSError:
            os.remove(self._p(dst))  # a file system that will not rename over a file
            os.rename(self._p(src), self._p(dst))

    def prune(self, keep):
        """Remove every fw/ directory but the builds in `keep` (and leftovers of earlier
        shares or flashes)."""
        self.commit()
        for name, is_dir, _size in _entries(self._p("fw")):
            if is_dir and name not in keep:
                _remove_tree(self._p("fw/" + name))

    def free(self):
        try:
            st = os.statvfs(self._p(MAIN) if self.root else "/")
        except (OSError, AttributeError):
            return -1
        return st[0] * st[4]

    # ---- sharing's own small files ----

    def refuses(self):
        data = read_file(self._p(SETTINGS_FILE))
        if not data:
            return False
        try:
            return json.loads(data).get("shares") == "refuse"
        except (ValueError, AttributeError):
            return False

    def load_state(self):
        data = read_file(self._p(STATE_FILE))
        if not data:
            return None
        try:
            state = json.loads(data)
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    def save_state(self, state):
        if state is None:
            try:
                os.remove(self._p(STATE_FILE))
            except OSError:
                pass
            return
        write_atomic(self._p(STATE_FILE), json.dumps(state).encode())

    def restart(self):
        """Into the build main.py names: a hardware reset, not counted as a crash."""
        self.commit()
        if self._before_restart is not None:
            self._before_restart()
        try:
            from hal.recovery import restart as reset_quietly
        except ImportError:  # a board without hal.recovery: a plain reset
            pass
        else:
            reset_quietly()
        import machine

        machine.reset()
