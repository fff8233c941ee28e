"""Ask a tile over USB to share its build with its cluster, and follow the share on its log.

The tile does the sharing itself (firmware/runtime/share.py): the host only starts it and
listens. Starting it goes through the raw REPL, as `blinks flash` does: the tile's game stops,
`share_state.json` gets `{"root": 1}` (hal/build_store.py), and a soft reset boots the tile,
whose runtime finds the request and shares as the root of the tree. From then on the tile's
serial log says how it goes, in `BLINKS share ...` lines (`Watch` reads them); the one that
ends it is `BLINKS share done session=N build=B tiles=N failed=N ms=N`, after a `BLINKS share
failed tile=SERIAL reason=TEXT` line for each tile that did not get the build.

`set_refusal` writes the tile's own setting (`tile_settings.json`, kept across builds) that
makes it refuse every share.
"""

import json
import time

from host_tools.bridge.link import LinkError, connect, leave

STATE_FILE = "share_state.json"
SETTINGS_FILE = "tile_settings.json"

# What the host asks on the tile (MicroPython): its serial number and the build it runs.
ASK = """
import binascii, json, os
def _bsh():
    r = {'serial': '?', 'build': None, 'refuses': False}
    try:
        import machine
        r['serial'] = binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        pass
    try:
        with open('main.py') as f:
            for line in f:
                if line.startswith('FIRMWARE_DIR = "fw/'):
                    r['build'] = line.split('"')[1][3:]
                    break
        os.stat('fw/' + r['build'] + '/version.json')
    except (OSError, TypeError):
        r['build'] = None
    try:
        with open('tile_settings.json') as f:
            r['refuses'] = json.load(f).get('shares') == 'refuse'
    except (OSError, ValueError, AttributeError):
        pass
    return json.dumps(r)
print(_bsh())
"""


class ShareError(Exception):
    """The share could not be started, or did not end well; the message says why."""


def _write_json_on_tile(transport, path, obj):
    """Write a small JSON file on the tile atomically (a temporary name, then a rename)."""
    text = json.dumps(obj)
    transport.exec(
        f"with open({path + '.tmp'!r}, 'w') as f:\n    f.write({text!r})\n"
        f"import os\nos.rename({path + '.tmp'!r}, {path!r})\n"
    )


def start(port, overall):
    """Start a share on the tile at `port`: (transport kept open, the tile's info). Raises
    ShareError (the tile holds no build) or LinkError (it cannot be reached)."""
    t = connect(port, overall=overall)
    try:
        info = json.loads(t.exec(ASK).decode())
        if not info["build"]:
            raise ShareError(
                f"this tile holds no build to share (flash it first: blinks flash --port {port})"
            )
        _write_json_on_tile(t, STATE_FILE, {"root": 1})
    except Exception:
        leave(t, restart=True)
        t.close()
        raise
    leave(t, restart=True)  # the soft reset boots the tile into its share
    return t, info


def set_refusal(port, refuse):
    """Make the tile at `port` refuse every share (or accept them again); returns its serial."""
    t = connect(port, overall=30.0)
    try:
        info = json.loads(t.exec(ASK).decode())
        out = t.exec(
            "import json\ntry:\n    with open('tile_settings.json') as f:\n"
            "        s = json.load(f)\nexcept (OSError, ValueError):\n    s = {}\n"
            "print(json.dumps(s))\n"
        )
        try:
            settings = json.loads(out.decode())
        except ValueError:
            settings = {}
        if not isinstance(settings, dict):
            settings = {}
        settings["shares"] = "refuse" if refuse else "accept"
        _write_json_on_tile(t, SETTINGS_FILE, settings)
        return info["serial"]
    finally:
        leave(t, restart=True)
        t.close()


class Watch:
    """What the root's `BLINKS share` lines say, as they come."""

    def __init__(self):
        self.started = None  # {"session", "build", "bytes", "files"}
        self.peers = {}  # face -> {"tile", "state", "bytes"}
        self.failures = []  # (tile, reason)
        self.done = None  # {"session", "build", "tiles", "failed", "ms"}
        self.problem = None  # the root could not share at all

    def feed(self, line):
        """Take one log line; returns a short description of what changed, or None."""
        line = line.strip()
        if not line.startswith("BLINKS share"):
            return None
        words = line.split()
        if line.startswith("BLINKS share start "):
            self.started = _fields(words[3:])
            return f"sharing build {self.started.get('build')} ({self.started.get('bytes')} bytes)"
        if line.startswith("BLINKS share done "):
            self.done = _fields(words[3:])
            return None
        if line.startswith("BLINKS share failed tile="):
            tile = words[3].split("=", 1)[1]
            reason = line.split(" reason=", 1)[1] if " reason=" in line else "?"
            self.failures.append((tile, reason))
            return None
        if line.startswith("BLINKS share failed: "):
            self.problem = line[len("BLINKS share failed: ") :]
            return self.problem
        if line.startswith(("BLINKS share face=", "BLINKS share progress face=")):
            fields = _fields(w for w in words if "=" in w)
            face = fields.get("face")
            peer = self.peers.setdefault(face, {"tile": "?", "state": "offered", "bytes": "0"})
            peer["tile"] = fields.get("tile", peer["tile"])
            if "bytes" in fields:
                peer["bytes"] = fields["bytes"]
                got, _, total = fields["bytes"].partition("/")
                tenth = int(got) * 10 // max(1, int(total or 1)) if got.isdigit() else 0
                if tenth > peer.get("tenth", 0):  # said every 10 %
                    peer["tenth"] = tenth
                    return f"face {face}: tile {peer['tile']} {tenth * 10}% received"
                return None
            rest = line.split(f" tile={peer['tile']} ", 1)[-1]
            peer["state"] = rest
            return f"face {face}: tile {peer['tile']} {rest}"
        return None


def _fields(words):
    out = {}
    for w in words:
        if "=" in w:
            key, value = w.split("=", 1)
            out[key] = value
    return out


def follow(transport, deadline, on_line=None):
    """Read the tile's log until its share is done or the deadline (time.monotonic()); returns
    the Watch. Every complete line goes to `on_line` too."""
    watch = Watch()
    buf = b""
    port = transport.serial
    while watch.done is None and time.monotonic() < deadline:
        try:
            chunk = port.read(max(1, port.inWaiting()))
        except LinkError:
            break
        except OSError as exc:
            raise ShareError(f"the tile's port went away ({exc})") from None
        if not chunk:
            continue
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for raw in lines:
            line = raw.decode(errors="replace").strip()
            said = watch.feed(line)
            if on_line is not None:
                on_line(line, said)
    return watch
