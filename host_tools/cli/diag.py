"""`blinks diag`: a bring-up check the tiles run on themselves (docs/hardware.md, "Bring-up").

With --sleep-log it only reads each tile's record of its wakes from deep sleep on battery
(firmware/hal/sleep_log.py, host_tools/bridge/sleep_read.py) and prints them, or --json.

Each tile named with --port is stopped, checked and restarted into its game, nothing written on
it (host_tools/bridge/diag.py has the phases, hal/diag.py what runs on the tile,
host_tools/bridge/diag_report.py the judgement). Exit 0 when every face with a neighbour (and
every face --expect names) passes and every tile could be checked; 1 naming each tile or face
that failed and how (on stderr); 2 for bad usage, before any tile is touched. Prompts for the
person (watch the pixels, press a button) go to stderr; stdout holds the table, or with --json
only the JSON object.
"""

import json
import os
import sys

from host_tools.bridge.diag import BUTTON_S, DiagRun
from host_tools.bridge.diag_report import check_expectations, failures, parse_expect
from host_tools.bridge.ports import port_problem, same_port
from host_tools.cli.console import table_console


def add_arguments(parser):
    parser.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="P",
        help="check the tile on this port (repeatable: tiles that touch are checked together)",
    )
    parser.add_argument(
        "--expect",
        action="append",
        default=[],
        metavar="T:F-T:F",
        help="these two faces touch (tiles numbered from 0 in --port order, faces 0-5), so "
        "hearing nothing there is a failure, not 'no neighbour' (repeatable)",
    )
    parser.add_argument("--no-button", action="store_true", help="skip the button test")
    parser.add_argument(
        "--button-timeout",
        type=float,
        default=BUTTON_S,
        metavar="S",
        help=f"seconds to wait for each button press (default {BUTTON_S:.0f})",
    )
    parser.add_argument("--no-pixels", action="store_true", help="skip the pixel test")
    parser.add_argument(
        "--sleep-log",
        action="store_true",
        help="only read each tile's sleep log: what woke it from deep sleep on battery "
        "(press, light, false wake, USB), kept on its flash; no check runs",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def usage_problem(args):
    """Why the options cannot run, or None (exit 2)."""
    if not args.port:
        return "name each tile with --port P (tiles that touch are checked together)"
    seen = {}
    for port in args.port:
        problem = port_problem(port)
        if problem:
            return f"--port {port}: {problem}"
        key = same_port(port)
        if key in seen:
            return f"--port {port} names the same tile as --port {seen[key]}"
        seen[key] = port
    if not 0 < args.button_timeout <= 600:
        return "--button-timeout must be more than 0 and at most 600 seconds"
    return None


def run(args):
    problem = usage_problem(args)
    expect = []
    if problem is None:
        try:
            expect = [parse_expect(text, len(args.port)) for text in args.expect]
            check_expectations(expect)
        except ValueError as exc:
            problem = str(exc)
    if problem:
        print(f"blinks diag: {problem}", file=sys.stderr)
        return 2
    # diag checks tiles that are there now: a missing one is said before anything else runs
    # (with --json the report still comes, naming it, for a program that reads it)
    missing = [p for p in args.port if not os.path.exists(p)] if not args.json else []
    if missing:
        for port in missing:
            print(
                f"blinks diag: --port {port}: no such port (unplugged, or a wrong path?)",
                file=sys.stderr,
            )
        return 1

    if args.sleep_log:
        return sleep_logs(args.port, args.json)

    def say(text):
        print(f"blinks diag: {text}", file=sys.stderr, flush=True)

    say(f"checking {len(args.port)} tile(s): their games stop now and restart at the end")
    diag = DiagRun(
        args.port,
        expect=expect,
        pixels=not args.no_pixels,
        button=not args.no_button,
        button_s=args.button_timeout,
        say=say,
    )
    try:
        report = diag.run()
    except KeyboardInterrupt:
        print("blinks diag: interrupted; every tile was restarted into its game", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        print_report(report)
    for line in failures(report):
        print(f"FAILED {line}", file=sys.stderr)
    return 0 if report["passed"] else 1


def sleep_logs(ports, as_json):
    """`--sleep-log`: each tile's records (host_tools/bridge/sleep_read.py); 1 if one could
    not be read."""
    from host_tools.bridge.link import LinkError
    from host_tools.bridge.sleep_read import read_records, summary

    tiles = []
    for i, port in enumerate(ports):
        try:
            records = read_records(port)
            tiles.append({"tile": i, "port": port, "records": records, **summary(records)})
        except LinkError as exc:
            tiles.append({"tile": i, "port": port, "error": str(exc)})
            print(f"FAILED tile {i} {port}: {exc}", file=sys.stderr)
    if as_json:
        print(json.dumps({"tiles": tiles}, sort_keys=True))
    else:
        print_sleep_logs(tiles)
    return 1 if any("error" in t for t in tiles) else 0


def print_sleep_logs(tiles):
    from rich.table import Table

    console = table_console()
    for t in tiles:
        if "error" in t:
            continue
        by = ", ".join(f"{n} by {s}" for s, n in t["by_source"].items() if n)
        table = Table(
            title=f"tile {t['tile']}  {t['port']}: {t['wakes']} wake(s) from deep sleep"
            + (f" ({by})" if by else "")
            + f", {t['false_wakes']} false (light that was no frame; "
            f"{t['false_awake_ms']} ms awake in all)",
            title_justify="left",
        )
        for col in ("#", "woken by", "tile clock", "awake", "then"):
            table.add_column(col)
        for r in t["records"]:
            table.add_row(
                str(r["seq"]),
                r["source"],
                f"{r['at_ms'] / 1000:.3f} s",
                f"{r['awake_ms']} ms",
                "woke" if r["woke"] else "[yellow]false wake: DORMANT again[/yellow]",
            )
        if not t["records"]:
            table.caption = "no wake recorded (the tile has not slept on battery since)"
        console.print(table)
    console.print(
        "The tile clock stands still in deep sleep: it orders the wakes, it is no time of day."
    )


def _us(value):
    return "-" if value is None else f"{value:.0f} us"


def _yes(value):
    return {True: "yes", False: "[red]no[/red]", None: "?"}[value]


def _verdict(face):
    if face["passed"] is None:
        return "no neighbour" + ("" if not face["notes"] else "; " + "; ".join(face["notes"]))
    words = "pass" if face["passed"] else "[red]FAIL[/red]: " + "; ".join(face["problems"])
    if face["notes"]:
        words += "; " + "; ".join(face["notes"])
    return words


def print_report(report):
    from rich.table import Table

    console = table_console()
    for t in report["tiles"]:
        fw = t["firmware"] or {}
        build = f"build {fw.get('build', '?')} ({t['game']})" if t["game"] else "no build"
        heap = "?" if t["heap_free_kb"] is None else f"{t['heap_free_kb']} KB"
        pass_ms = "?" if t["pass_us"] is None else f"{t['pass_us'] / 1000:.2f} ms"
        gap = next((f["reply_gap_us_firmware"] for f in t["faces"]), None)
        title = (
            f"tile {t['tile']}  {t['port']}  serial {t['serial'] or '?'}\n"
            f"MicroPython {t['micropython'] or '?'} on {t['board'] or '?'}, {build}\n"
            f"pass {pass_ms}, heap free {heap}, the firmware's reply gap {_us(gap)} "
            "(margin = it minus the shortest that worked)\n"
            f"pixels {t['pixels'] or '?'}, button {t['button'] or '?'}: "
            + ("passed" if t["passed"] else "[red]FAILED[/red]")
        )
        table = Table(title=title, title_justify="left")
        for col in ("face", "neighbour", "echo", "sent", "received", "bad", "bit errors"):
            table.add_column(col, overflow="fold")
        for col in ("reply gap min", "margin", "verdict"):
            table.add_column(col, overflow="fold")
        for f in t["faces"]:
            n = f["neighbour"]
            table.add_row(
                str(f["face"]),
                "-" if n is None else f"tile {n['tile']} face {n['face']}",
                _yes(f["hears_itself"]),
                *("-" if f[k] is None else str(f[k]) for k in ("sent", "received", "bad")),
                "-" if f["bit_errors"] is None else str(f["bit_errors"]),
                _us(f["reply_gap_us_min"]),
                _us(f["margin_us"]),
                _verdict(f),
            )
        for p in t["problems"]:
            table.caption = (table.caption + "\n" if table.caption else "") + f"[red]{p}[/red]"
        console.print(table)
    pairs = ", ".join(
        f"tile {a} face {fa} - tile {b} face {fb}" for a, fa, b, fb in report["pairs"]
    )
    verdict = "passed" if report["passed"] else "FAILED"
    console.print(
        f"{len(report['tiles'])} tile(s); pairs checked (found, or named by --expect): "
        f"{pairs or 'none'}; "
        f"{report['frames']} frames each way a pair: {verdict}"
    )
