"""A tile's sleep log read over USB (`blinks diag --sleep-log`): what woke it from DORMANT.

The tile's game is stopped (the raw REPL), its log file's bytes printed as hex by a one-line
command, and the tile restarted into its game; nothing is written. The records are decoded
here with the firmware's own `hal.sleep_log.decode`, so the two never disagree on the format.
"""

import binascii

from hal import sleep_log
from mpremote.transport import TransportError

from host_tools.bridge.link import LinkError, close, connect

READ_S = 60.0
# The file's bytes as hex, or "-" when the tile has none (it never slept on battery since).
READ_CODE = (
    "try:\n"
    f" f = open({sleep_log.LOG_FILE!r}, 'rb')\n"
    "except OSError:\n"
    " print('-')\n"
    "else:\n"
    " import binascii\n"
    " print(binascii.hexlify(f.read()).decode())\n"
    " f.close()\n"
)


def read_records(port):
    """The tile's records, oldest first ([] when it has no log); LinkError when unreachable."""
    transport = connect(port, overall=READ_S)
    try:
        out = transport.exec(READ_CODE).decode(errors="replace").strip()
    except TransportError as exc:
        raise LinkError(f"the tile did not read its sleep log ({exc})") from None
    finally:
        close(transport, restart=True)
    if out == "-":
        return []
    try:
        return sleep_log.decode(binascii.unhexlify(out.split()[-1]))
    except (ValueError, IndexError):
        raise LinkError(f"the tile printed {out[:80]!r}, not its sleep log") from None


def summary(records):
    """Counts a builder reads first: wakes, false ones, and what the false ones cost awake."""
    false = [r for r in records if not r["woke"]]
    return {
        "wakes": len(records),
        "false_wakes": len(false),
        "false_awake_ms": sum(r["awake_ms"] for r in false),
        "by_source": {s: sum(r["source"] == s for r in records) for s in sleep_log.SOURCES},
    }
