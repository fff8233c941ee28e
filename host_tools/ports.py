"""Find serial ports that look like MicroPython tiles, and ask a tile what firmware it runs.

A port qualifies by its USB vendor id (boards that run MicroPython), or because it was named
explicitly: `--port`, or the BLINKS_PORTS environment variable (paths separated by os.pathsep),
which is how virtual tiles and unusual adapters are added.
"""

import json
import os

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
    def __init__(self, device, description="", vid=None, pid=None, usb_serial=None):
        self.device = device
        self.description = description
        self.vid = vid
        self.pid = pid
        self.usb_serial = usb_serial

    def usb_id(self):
        return f"{self.vid:04X}:{self.pid:04X}" if self.vid is not None else "-"


def env_ports():
    return [p for p in os.environ.get(ENV_PORTS, "").split(os.pathsep) if p]


def find_ports(extra=()):
    """Every MicroPython-looking USB port plus the named ones, each once, named ports last."""
    found = {}
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        if p.vid in MICROPYTHON_VIDS:
            found[p.device] = PortInfo(
                p.device, p.description or MICROPYTHON_VIDS[p.vid], p.vid, p.pid, p.serial_number
            )
    for device in list(extra) + env_ports():
        if device not in found:
            found[device] = PortInfo(device, "named port")
    return list(found.values())


def target_ports(named, every=False):
    """The ports a command acts on: those named with --port, then with --all every port
    `find_ports` sees (USB tiles and BLINKS_PORTS), each once."""
    ports = list(named)
    if every:
        ports += [p.device for p in find_ports() if p.device not in ports]
    return ports


PROBE = """
import binascii, json
def _pv():
    r = {'serial': '?', 'firmware': None}
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


def probe(device, restart=True):
    """{'serial', 'firmware' (version.json without file hashes, or None)} of the tile on `device`.

    Entering the raw REPL stops the running game; `restart` soft-resets the tile afterwards so
    it goes back to its game.
    """
    from mpremote.transport_serial import SerialTransport

    from host_tools.deploy import soft_reset

    t = SerialTransport(device)
    try:
        t.enter_raw_repl(soft_reset=False, timeout_overall=5)
        info = json.loads(t.exec(PROBE).decode())
        if restart:
            soft_reset(t)
        else:
            t.exit_raw_repl()
        return info
    finally:
        t.close()
