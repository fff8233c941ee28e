"""`blinks ports`: list the serial ports that look like tiles, with serial number and firmware."""

import json

from host_tools.ports import find_ports, probe


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
        "error": None,
    }
    if do_probe:
        try:
            info = probe(port.device)
            row["serial"] = info["serial"]
            row["firmware"] = info["firmware"]
        except Exception as exc:  # noqa: BLE001  a tile that does not answer is listed, not fatal
            row["error"] = f"{type(exc).__name__}: {exc}"
    return row


def firmware_text(fw):
    if not fw:
        return "none (not flashed by blinks)"
    return f"{fw.get('game', '?')} v{fw.get('version', '?')} build {fw.get('build', '?')}"


def run(args):
    rows = [describe(p, not args.no_probe) for p in find_ports(args.port)]
    if args.json:
        print(json.dumps(rows, sort_keys=True))
        return 0
    if not rows:
        print("no tiles found (plug one in, or name it with --port)")
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="tiles")
    for col in ("port", "usb", "serial", "firmware"):
        table.add_column(col)
    for r in rows:
        fw = f"[red]{r['error']}[/red]" if r["error"] else firmware_text(r["firmware"])
        table.add_row(r["port"], r["usb"], r["serial"] or "?", fw)
    Console(width=max(Console().width, 120)).print(table)
    return 0
