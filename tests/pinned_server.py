"""A web server on 127.0.0.1 standing in for the sites the pinned binaries come from.

The fetch tests never reach the internet: they serve test files from here and point the pins
(host_tools.pins) at them, in-process, with the test file's own SHA-256; the product keeps its
real pins. A path can be served whole, cut off half-way (the connection closed with the
Content-Length promising more), and every request is counted.
"""

import contextlib
import hashlib
import http.server
import struct
import threading

from host_tools import pins


class FileServer:
    """with FileServer({"/a.uf2": data}) as server: server.url("/a.uf2"), server.requests["/a.uf2"]"""

    def __init__(self, files):
        self.files = dict(files)
        self.cut = set()  # paths whose transfer stops half-way
        self.requests = {}
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                owner.requests[self.path] = owner.requests.get(self.path, 0) + 1
                data = owner.files.get(self.path)
                if data is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.path in owner.cut:
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(2)
                    return
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def url(self, path):
        host, port = self._server.server_address
        return f"http://{host}:{port}{path}"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


def bootrom_ts(data):
    """`data` (16 KB) written as rp2040js writes demo/bootrom.ts: a TypeScript Uint32Array."""
    words = struct.unpack(f"<{len(data) // 4}I", data)
    rows = [
        "  " + ", ".join(f"0x{w:08x}" for w in words[i : i + 8]) + ","
        for i in range(0, len(words), 8)
    ]
    return (
        "// RP2040 bootrom binary, built from https://github.com/raspberrypi/pico-bootrom\n"
        "// revision: B1 (test copy)\n\nexport const bootromB1 = new Uint32Array([\n"
        + "\n".join(rows)
        + "\n]);\n"
    ).encode()


def pin_like(pin, url, kept):
    """`pin` pointing at `url`, pinned to the SHA-256 of `kept` (the file as stored)."""
    return pins.Pin(
        key=pin.key,
        what=pin.what + " (test copy)",
        version=pin.version,
        url=url,
        sha256=hashlib.sha256(kept).hexdigest(),
        licence=pin.licence,
        filename=pin.filename,
        decode=pin.decode,
    )


def serve_pins(monkeypatch, server, firmware, bootrom):
    """Point both pins at `server`, which then serves `firmware` (UF2 bytes) and `bootrom`
    (16 KB, served as bootrom.ts source); returns (firmware path, bootrom path) on the server."""
    server.files["/RPI_PICO.uf2"] = firmware
    server.files["/bootrom.ts"] = bootrom_ts(bootrom)
    fw = pin_like(pins.MICROPYTHON, server.url("/RPI_PICO.uf2"), firmware)
    rom = pin_like(pins.BOOTROM, server.url("/bootrom.ts"), bootrom)
    monkeypatch.setattr(pins, "MICROPYTHON", fw)
    monkeypatch.setattr(pins, "BOOTROM", rom)
    monkeypatch.setattr(pins, "FIRMWARE_PINS", {fw.version: fw})
    return "/RPI_PICO.uf2", "/bootrom.ts"


def isolate(monkeypatch, tmp_path):
    """Temporary cache and data folders, no binaries named, downloads allowed."""
    for name in ("BLINKS_RP2_FIRMWARE", "BLINKS_RP2_BOOTROM", "BLINKS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)  # 127.0.0.1 directly, never through a proxy
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "cache" / "blinks" / "rp2"
