"""The world's stand-in for a tile's flash files: builds in memory, behind the store interface
runtime/share.py uses (hal/build_store.FileStore on a tile).

The world's tiles have no files, so a share in the world moves a stand-in build: files of the
real build's sizes (`stand_in_build`), laid out as `blinks flash` lays them (fw/<build>/...,
version.json with every file's SHA-256, main.py naming the build). The protocol, the spreading,
the progress display and every check run the same runtime code as on a tile.

`writes` (when a list) records every append as (path, offset, bytes), so a test can check that
no byte that reached the store differs from the sender's.
"""

import hashlib
import json
import random

MAIN = "main.py"


def main_py(build):
    return f'"""stand-in main.py"""\nFIRMWARE_DIR = "fw/{build}"\n'.encode()


def stand_in_build(build, size=60000, files=41, seed=0, mpy=6):
    """{path: bytes} of a build of about `size` bytes in `files` files: .mpy-shaped modules (a
    real header, then seeded bytes), a tile_config.json, a version.json with the hashes, and
    main.py. The same build id and seed give the same bytes."""
    rng = random.Random(f"{build}:{seed}")
    out = {}
    body = max(files - 3, 1)
    left = max(size - 400, body * 8)
    for i in range(body):
        n = left // (body - i) if i < body - 1 else left
        n = max(8, int(n * rng.uniform(0.4, 1.6))) if i < body - 1 else max(8, n)
        n = min(n, left - 8 * (body - i - 1)) if i < body - 1 else n
        left -= n
        data = bytes((0x4D, mpy, 0, 31)) + bytes(rng.getrandbits(8) for _ in range(n - 4))
        out[f"fw/{build}/mod{i:02d}.mpy"] = data
    out[f"fw/{build}/tile_config.json"] = b'{"game": "games.demo:Demo"}\n'
    record = {p[len(f"fw/{build}/") :]: hashlib.sha256(d).hexdigest() for p, d in out.items()}
    out[f"fw/{build}/version.json"] = json.dumps(
        {"build": build, "files": record}, sort_keys=True
    ).encode()
    out[MAIN] = main_py(build)
    return out


class MemoryStore:
    """hal.build_store() of a world tile. `files` maps a path from the flash root to bytes."""

    def __init__(self, world, tile_id, files=None, mpy=6, release=(1, 28, 0), room=1 << 20):
        self.world = world
        self.tile_id = tile_id
        self.data = {p: bytearray(d) for p, d in (files or {}).items()}
        self.mpy_version = mpy
        self.micropython = release
        self.room = room
        self.refusing = False
        self.state = None
        self.restarts = 0
        self.writes = None

    # ---- what the tile runs ----

    def running(self):
        main = self.data.get(MAIN)
        if main is None:
            return None
        for line in bytes(main).decode(errors="replace").splitlines():
            if line.startswith('FIRMWARE_DIR = "fw/'):
                return line.split('"')[1][3:]
        return None

    def build_files(self, build):
        """{path: bytes} of a build as it lies in the store (main.py only if it names it)."""
        prefix = f"fw/{build}/"
        out = {
            p: bytes(d)
            for p, d in self.data.items()
            if p.startswith(prefix) and not p.endswith(".tmp")
        }
        if self.running() == build:
            out[MAIN] = bytes(self.data[MAIN])
        return out

    def files(self, build):
        prefix = f"fw/{build}/"
        paths = sorted(p for p in self.data if p.startswith(prefix) and not p.endswith(".tmp"))
        return [(p, len(self.data[p])) for p in paths] + [(MAIN, len(self.data.get(MAIN, b"")))]

    def recorded_digests(self, build):
        raw = self.data.get(f"fw/{build}/version.json")
        if raw is None:
            return None
        try:
            files = json.loads(bytes(raw))["files"]
        except (ValueError, KeyError):
            return None
        return {f"fw/{build}/{rel}": bytes.fromhex(h) for rel, h in files.items()}

    def build_mpy(self, build, files=None):
        for path, _size in files or self.files(build):
            if path.endswith(".mpy") and self.data[path][:1] == b"M":
                return self.data[path][1], self.data[path][2]
        return 0, 0

    def mpy(self):
        return self.mpy_version

    def release(self):
        return self.micropython

    def min_release(self):
        return (1, 26, 0)

    # ---- files ----

    def digest(self, path):
        d = self.data.get(path)
        return None if d is None else hashlib.sha256(d).digest()

    def size(self, path):
        d = self.data.get(path)
        return -1 if d is None else len(d)

    def read(self, path, offset, view):
        d = self.data[path]
        n = min(len(view), len(d) - offset)
        view[:n] = d[offset : offset + n]
        return n

    def append(self, path, data):
        d = self.data.setdefault(path, bytearray())
        if self.writes is not None:
            self.writes.append((path, len(d), bytes(data)))
        d += data

    def commit(self):
        pass

    def copy(self, src, dst):
        self.data[dst] = bytearray(self.data[src])

    def remove(self, path):
        self.data.pop(path, None)

    def rename(self, src, dst):
        self.data[dst] = self.data.pop(src)

    def prune(self, keep):
        for path in list(self.data):
            if path.startswith("fw/") and path.split("/")[1] not in keep:
                del self.data[path]

    def free(self):
        return self.room - sum(len(d) for d in self.data.values())

    # ---- sharing's own state ----

    def refuses(self):
        return self.refusing

    def load_state(self):
        return None if self.state is None else dict(self.state)

    def save_state(self, state):
        self.state = None if state is None else dict(state)

    def restart(self):
        """Into the build main.py now names: the world power-cycles the tile (storage kept)."""
        self.restarts += 1
        self.world.reset_tile(self.tile_id)


def give_store(world, tid, store):
    """Put `store` in tile `tid` and restart it, so its runtime finds it (as a tile's boot)."""
    world.hal(tid).builds = store
    world.reset_tile(tid)
    return store
