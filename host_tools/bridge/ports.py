"""Find serial ports that look like MicroPython tiles, and ask a tile what firmware it runs.

A port qualifies by its USB vendor id (boards that run MicroPython), or because it was named
explicitly: `--port`, or the BLINKS_PORTS environment variable (paths separated by os.pathsep),
which is how virtual tiles and unusual adapters are added.
"""

import json
import os
import stat

from serial.tools import list_ports

# USB vendor ids of boards that run MicroPython (the product id varies by board).
MICROPYTHON_VIDS = {
    0x2E8A: "Raspberry Pi (RP2040/RP2350)",
    0xF055: "MicroPython (pyboard, generic TinyUSB)",
    0x239A: "Adafruit",
    0x303A: "Espressif (native USB)",
    0x1B4F: "SparkFun",
    0x2341: "Arduino",
}
ENV_PORTS = "BLINKS_PORTS"


class PortInfo:
    def __init__(self, device, description="", vid=None, pid=None, usb_serial=None, named=False):
        self.device = device
        self.description = description
        self.vid = vid
        self.pid = pid
        self.usb_serial = usb_serial
        self.named = named  # asked for by --port or BLINKS_PORTS (not only found on USB)

    def usb_id(self):
        return f"{self.vid:04X}:{self.pid:04X}" if self.vid is not None else "-"


def env_ports():
    return [p for p in os.environ.get(ENV_PORTS, "").split(os.pathsep) if p]


def same_port(device):
    """The key two names of one port share: /dev/serial/by-id/... and a virtual tile's symlink
    resolve to the device itself. Opening one port twice at once fails (mpremote opens it
    exclusively), so every command lists each port once."""
    return os.path.realpath(device)


def port_problem(device):
    """Why a named path cannot be a tile's port (a folder, a regular file), or None. A missing
    path is not refused: a tile being plugged in may bring it."""
    try:
        mode = os.stat(device).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a serial port"
    if not stat.S_ISCHR(mode):
        return "a file, not a serial port (a tile's port is a device like /dev/ttyACM0)"
    return None


def find_ports(extra=()):
    """Every MicroPython-looking USB port plus the named ones, each once, named ports last."""
    found = {}
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        if p.vid in MICROPYTHON_VIDS:
            found[same_port(p.device)] = PortInfo(
                p.device, p.description or MICROPYTHON_VIDS[p.vid], p.vid, p.pid, p.serial_number
            )
    for device in list(extra) + env_ports():
        key = same_port(device)
        if key not in found:
            found[key] = PortInfo(device, "named port")
        found[key].named = True
    return list(found.values())


def target_ports(named, every=False):
    """The ports a command acts on: those named with --port, then with --all every port
    `find_ports` sees (USB tiles and BLINKS_PORTS), each port once (see same_port)."""
    ports = {}
    for device in list(named) + ([p.device for p in find_ports()] if every else []):
        ports.setdefault(same_port(device), device)
    return list(ports.values())


def no_tile_message(every):
    """What a command says when it has no port to act on."""
    if every:
        return "no tile found (plug one in, or name it with --port P or BLINKS_PORTS)"
    return "no tile named (use --port P or --all)"


PROBE = """
import binascii, json, sys
def _pv():
    v = sys.implementation.version
    r = {'serial': '?', 'firmware': None, 'board': sys.platform,
         'micropython': '%d.%d.%d' % v[:3] + ('-' + v[3] if len(v) > 3 and v[3] else '')}
    try:
        import os
        r['board'] = os.uname().machine
    except Exception:
        pass
    try:
        import machine
        r['serial'] = binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        try:
            with open('tile_serial.bin', 'rb') as f:
                r['serial'] = binascii.hexlify(f.read()).decode()
        except OSError:
            pass
    try:
        d = None
        with open('main.py') as f:
            for line in f:
                if line.startswith('FIRMWARE_DIR = "'):
                    d = line.split('"')[1]
                    break
        if d:
            with open(d + '/version.json') as f:
                r['firmware'] = json.load(f)
                r['firmware'].pop('files', None)
    except (OSError, ValueError):
        pass
    return json.dumps(r)
print(_pv())
"""


PROBE_DEADLINE_S = 15.0  # connecting (5 s at most) and one short command


def probe(device, restart=True):
    """{'serial', 'firmware' (version.json without file hashes, or None), 'micropython' (the
    interpreter's release, as os.uname().release), 'board' (os.uname().machine, or the platform
    where os.uname is missing)} of the tile on `device`.

    Entering the raw REPL stops the running game; `restart` soft-resets the tile afterwards so
    it goes back to its game. Raises host_tools.bridge.link.LinkError (or TransportError) when the tile
    cannot be reached, within PROBE_DEADLINE_S whatever the port.
    """
    from host_tools.bridge.link import close, connect

    t = connect(device, overall=PROBE_DEADLINE_S)
    try:
        return json.loads(t.exec(PROBE).decode())
    finally:
        close(t, restart=restart)
