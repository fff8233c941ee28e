"""Put one firmware image on one tile, safely, through mpremote's transport (raw REPL).

Order of the writes, so that a flash stopped at any moment leaves a tile that boots its old or
its new firmware:
1. every file of the new build goes into fw/<build>/, each written as NAME.tmp then renamed, so
   a file under its real name is always complete (an interrupted flash resumes where it stopped);
   a file unchanged since the running build is copied on the tile instead of sent again;
2. the hashes of fw/<build>/ are checked against the image;
3. main.py (which names fw/<build>) is written as main.py.tmp, checked, and renamed over main.py:
   this one rename is the switch from old to new;
4. other fw/ directories are deleted (a crash here only leaves litter, removed next time).
Hashes (sha256) are computed on the tile, so unchanged files are never sent again.

Before step 1 the tile's MicroPython release is checked against what the firmware needs
(hal/requirements.py) and its .mpy version against the build's (host_tools.bridge.mpy_compat): a tile
too old, or a build the tile could not import, is refused with nothing written. `cancel` (a threading.Event)
stops a flash between two commands on the tile, never inside one, so the switch stays atomic.
"""

import base64
import hashlib
import json

from hal.requirements import min_release, too_old
from mpremote.transport import TransportExecError

from host_tools.bridge.mpy_compat import incompatibility
from simulator.mpy.build import ARCHES

CHUNK = 2048  # raw bytes per exec: ~2.7 KB of base64 source, small for a board's heap
# Longest silence while a command runs. A board hashes the whole build in well under a second;
# emulated tiles sharing one CPU (`blinks emu`) take far longer than mpremote's default 10 s.
COMMAND_TIMEOUT = 120

# Helpers defined once per session on the tile (MicroPython).
DEVICE_HELPERS = """
import os, sys, hashlib, binascii, json
def _bh(p):
    h = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            b = f.read(512)
            if not b:
                break
            h.update(b)
    return binascii.hexlify(h.digest()).decode()
def _bwalk(d, pre):
    try:
        es = list(os.ilistdir(d))
    except OSError:
        return
    for e in es:
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _bwalk(p, pre + e[0] + '/')
        else:
            print(_bh(p), pre + e[0])
def _bmk(p):
    q = ''
    for part in p.split('/'):
        q = q + '/' + part if q else part
        try:
            os.mkdir(q)
        except OSError:
            pass
def _bw(p, d, m):
    with open(p + '.tmp', m) as f:
        f.write(binascii.a2b_base64(d))
def _bmv(p):
    try:
        os.rename(p + '.tmp', p)
    except OSError:
        os.remove(p)
        os.rename(p + '.tmp', p)
def _brm(p):
    try:
        es = list(os.ilistdir(p))
    except OSError:
        return
    for e in es:
        q = p + '/' + e[0]
        if e[1] & 0x4000:
            _brm(q)
        else:
            os.remove(q)
    os.rmdir(p)
def _bserial():
    try:
        import machine
        return binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        pass
    try:
        with open('tile_serial.bin', 'rb') as f:
            return binascii.hexlify(f.read()).decode()
    except OSError:
        return '?'
def _bfs(p):
    try:
        return _bh(p)
    except OSError:
        return None
def _bcp(s, d):
    with open(s, 'rb') as fi:
        with open(d + '.tmp', 'wb') as fo:
            while True:
                b = fi.read(512)
                if not b:
                    break
                fo.write(b)
    _bmv(d)
def _bcur():
    try:
        with open('main.py') as f:
            for line in f:
                if line.startswith('FIRMWARE_DIR = "'):
                    return line.split('"')[1]
    except OSError:
        pass
    return None
def _bdirs():
    try:
        return sorted(e[0] for e in os.ilistdir('fw') if e[1] & 0x4000)
    except OSError:
        return []
"""


def unsupported_board(machine):
    """Why the firmware refuses a board by its `os.uname().machine`, or None. An RP2350 (a Pico
    2) runs the code but never enters DORMANT the way the firmware asks, so on a battery it
    would sleep at tens of mA for hours instead of days (docs/hardware.md); `blinks uf2`
    refuses its UF2 family for the same reason."""
    if "RP2350" in machine:
        return (
            f"this tile is a {machine}: the firmware is for RP2040 boards (a Raspberry Pi "
            "Pico); an RP2350's deep sleep is not the RP2040's, so a battery would last hours"
        )
    return None


class DeployError(Exception):
    """The tile did not end up with the new firmware; the message says at which step."""


class Cancelled(DeployError):
    """The flash was stopped (Ctrl-C) between two commands; the tile holds a complete build."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


class Deployer:
    """Flashes `image` through an open mpremote SerialTransport; `progress(done, total, step)`."""

    def __init__(self, transport, image, progress=None, cancel=None, verify=False):
        self.transport = transport  # already in the raw REPL (host_tools.bridge.link.connect)
        self.image = image
        self.verify = verify  # hash every file even when main.py already names this build
        self.unchanged = False  # the tile already ran this build: nothing was walked or sent
        self.progress = progress or (lambda done, total, step: None)
        self.cancel = cancel
        self.written_files = []  # sent over the serial link
        self.copied_files = []  # unchanged since the running build: copied on the tile
        self.serial = "?"
        self.switched = False  # main.py names the new build

    def _exec(self, code):
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled(
                "interrupted; the new firmware is in place"
                if self.switched
                else "interrupted; old firmware kept"
            )
        out, err = self.transport.exec_raw(code, timeout=COMMAND_TIMEOUT)
        if err:
            raise TransportExecError(out, err.decode())
        return out

    def _eval(self, expr):
        # The tile answers in JSON, not repr(): ast.literal_eval here would share CPython 3.11's
        # one AST recursion count with every other tile's flash thread, and fail now and then
        # with "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905).
        text = self._exec(f"print(json.dumps({expr}))").strip().decode()
        try:
            return json.loads(text)
        except ValueError:
            raise DeployError(f"the tile gave an answer that is not JSON: {text[:80]!r}") from None

    def _walk(self, folder):
        """{path: sha256} of the files under `folder` on the tile, a line each: one repr of
        them all (5 KB for a build's 58 files) needs a block a fragmented heap may not have."""
        files = {}
        for line in self._exec(f"_bwalk({folder!r}, '')").decode().splitlines():
            digest, _, path = line.strip().partition(" ")
            if path:
                files[path] = digest
        return files

    def run(self):
        image = self.image
        self._exec(DEVICE_HELPERS)
        self.serial, release, machine, tile_mpy, running_main = self._eval(
            "[_bserial(), os.uname().release, os.uname().machine, "
            "getattr(sys.implementation, '_mpy', None), _bfs('main.py')]"
        )
        refused = unsupported_board(machine)
        if refused:
            raise DeployError(refused + "; old firmware kept")
        if too_old(release):
            raise DeployError(
                f"this tile runs MicroPython {release}; the firmware needs {min_release()} or "
                "newer: flash a newer MicroPython UF2 onto it first; old firmware kept"
            )
        if running_main == sha256(image.main_py) and not self.verify:
            # main.py names fw/<build> and is only ever switched to a build whose every file
            # was checked on the tile: that build is whole, and nothing need be walked or sent
            self.unchanged = self.switched = True
            self._remove_stale()
            self.progress(0, 0, "done")
            return self
        arch = ARCHES.get(tile_mpy >> 10) if tile_mpy else None
        if arch is not None:
            image = self.image = image.for_arch(arch)  # its native code for this tile's CPU
        problem = incompatibility(image.files, tile_mpy)
        if problem:
            raise DeployError(problem + "; old firmware kept")
        on_tile = self._walk(image.fw_dir)
        todo = sorted(p for p, data in image.files.items() if on_tile.get(p) != sha256(data))
        main_changed = self._eval("_bfs('main.py')") != sha256(image.main_py)
        self.switched = not main_changed
        total = sum(len(image.files[p]) for p in todo) + (len(image.main_py) if main_changed else 0)
        done = 0
        self.progress(done, total, "writing")
        if todo:
            dirs = sorted(
                {
                    image.fw_dir + "/" + p.rsplit("/", 1)[0] if "/" in p else image.fw_dir
                    for p in todo
                }
            )
            self._exec("\n".join(f"_bmk({d!r})" for d in dirs))
        current = self._eval("_bcur()")
        running = {}
        if current and current != image.fw_dir:
            running = self._walk(current)
        for path in todo:
            data = image.files[path]
            if running.get(path) == sha256(data):
                self._exec(f"_bcp({current + '/' + path!r}, {image.fw_dir + '/' + path!r})")
                self.copied_files.append(path)
                done += len(data)
                self.progress(done, total, "writing")
            else:
                done = self._write(image.fw_dir + "/" + path, data, done, total)
                self.written_files.append(path)
        self.progress(done, total, "verifying")
        on_tile = self._walk(image.fw_dir)
        bad = sorted(p for p, data in image.files.items() if on_tile.get(p) != sha256(data))
        if bad:
            raise DeployError("hash mismatch after writing: " + ", ".join(bad))
        if main_changed:
            self._write("main.py", image.main_py, done, total, rename=False)
            if self._eval("_bfs('main.py.tmp')") != sha256(image.main_py):
                raise DeployError("hash mismatch on main.py.tmp; old firmware kept")
            self._exec("_bmv('main.py')")  # the switch to the new build
            self.switched = True
            self.written_files.append("main.py")
        if self._eval("_bfs('main.py')") != sha256(image.main_py):
            raise DeployError("main.py does not match after the switch")
        self._remove_stale()
        extra = sorted(set(on_tile) - set(image.files))
        if extra:
            self._exec("\n".join("os.remove(%r)" % (image.fw_dir + "/" + p) for p in extra))
        self.progress(total, total, "done")
        return self

    def _remove_stale(self):
        """Other builds' folders (litter of an earlier flash that stopped after its switch)."""
        stale = [d for d in self._eval("_bdirs()") if d != self.image.build]
        if stale:
            self._exec("\n".join("_brm(%r)" % ("fw/" + d) for d in stale))

    def _write(self, path, data, done, total, rename=True):
        if not data:
            self._exec(f"_bw({path!r}, '', 'wb')")
        for i in range(0, len(data), CHUNK):
            b64 = base64.b64encode(data[i : i + CHUNK]).decode()
            last = i + CHUNK >= len(data)
            code = "_bw({!r}, {!r}, {!r})".format(path, b64, "wb" if i == 0 else "ab")
            if last and rename:
                code += f"\n_bmv({path!r})"
            self._exec(code)
            done += min(CHUNK, len(data) - i)
            self.progress(done, total, "writing")
        if not data and rename:
            self._exec(f"_bmv({path!r})")
        return done
