"""`blinks ports`: list the serial ports that look like tiles, with serial number, the MicroPython
release and board, and the firmware `blinks flash` put there.

Exit 1 when a port named with --port or BLINKS_PORTS could not be probed (a USB port that merely
looks like a tile is listed with its error, without failing the command); stdout holds only
the table, or with --json only the JSON list.
"""

import json

from host_tools.bridge.link import LinkError
from host_tools.bridge.ports import find_ports, port_problem, probe
from host_tools.cli.console import table_console


def add_arguments(parser):
    parser.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="P",
        help="also list this port (repeatable); BLINKS_PORTS adds more",
    )
    parser.add_argument(
        "--no-probe",
        action="store_true",
        help="do not talk to the tiles (listing only; the games keep running)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list")


def describe(port, do_probe):
    row = {
        "port": port.device,
        "usb": port.usb_id(),
        "description": port.description,
        "serial": port.usb_serial,
        "firmware": None,
        "micropython": None,  # the release the tile runs, as os.uname().release
        "board": None,  # what os.uname().machine calls it
        "probed": do_probe,  # False: firmware unknown, not "none"
        "named": port.named,
        "error": None,
    }
    not_a_port = port_problem(port.device) if port.named else None
    if not_a_port:
        row["error"] = not_a_port
    elif do_probe:
        try:
            info = probe(port.device)
            row["serial"] = info["serial"]
            row["firmware"] = info["firmware"]
            row["micropython"] = info["micropython"]
            row["board"] = info["board"]
        except LinkError as exc:
            row["error"] = str(exc)
        except Exception as exc:  # noqa: BLE001  a tile that does not answer is listed, not fatal
            row["error"] = f"{type(exc).__name__}: {exc}"
    return row


def firmware_text(row):
    if not row["probed"]:
        return "not probed (unknown)"
    fw = row["firmware"]
    if not fw:
        return "none (not flashed by blinks)"
    return f"{fw.get('game', '?')} v{fw.get('version', '?')} build {fw.get('build', '?')}"


def micropython_text(row):
    """The tile's MicroPython release and board, as its banner names them."""
    if not row["micropython"]:
        return "?"
    return f"{row['micropython']} on {row['board']}"


def run(args):
    rows = [describe(p, not args.no_probe) for p in find_ports(args.port)]
    status = 1 if any(r["error"] and r["named"] for r in rows) else 0
    if args.json:
        print(json.dumps(rows, sort_keys=True))
        return status
    if not rows:
        print("no tiles found (plug one in, or name it with --port)")
        return 0
    from rich.table import Table

    table = Table(title="tiles")
    for col in ("port", "usb", "serial", "micropython", "firmware"):
        table.add_column(col, overflow="fold")  # a narrow terminal folds a path, never cuts it
    for r in rows:
        fw = f"[red]{r['error']}[/red]" if r["error"] else firmware_text(r)
        table.add_row(r["port"], r["usb"], r["serial"] or "?", micropython_text(r), fw)
    table_console().print(table)
    return status
