"""`blinks diag`'s judgement: which faces touch, and what passed, from what the tiles measured.

Pure functions over what host_tools/bridge/diag.py collected, so they are tested without tiles.

**Neighbours.** Every face sent ID frames (its tile's serial and its face) and noted who it
heard. Face A's neighbour is the face of a tile in this diag that A heard most. Two faces that
hear each other are a pair; a face heard by a face it does not hear is paired too (one way), so
a link that works in one direction only is measured and named, not taken for "no neighbour".

**A cut face, told from a face with no neighbour.** Light that never arrives looks the same in
both cases, so the diag cannot tell them apart on its own: `--expect T:F-T:F` says which faces
the person put together (T a tile by its place among the --port options, from 0). An expected
face that hears nothing fails ("expected to touch tile 1 face 3, heard nothing"); a face nobody
expected and nobody heard has no neighbour, and is not judged. A one-way link fails without
--expect: the face that hears nothing is named beside the face that hears it.

**Pass.** A face with a neighbour passes when all FRAMES frames each way arrived, none bad, and
its sweep found a reply gap no longer than the firmware's. A face that receives its own frames
fails whether or not it has a neighbour (a lone tile would take its own light for a
neighbour's). No echo is a note, not a failure: a face that talks is wired and powered, and
some SIR parts do not echo. A tile passes when it could be run, every face passed or had
nothing to judge, and its button was pressed when asked (or skipped).
"""

import re

EXPECT = re.compile(r"^(\d+):([0-5])-(\d+):([0-5])$")


def parse_expect(text, tiles):
    """'0:1-1:4' -> ((0, 1), (1, 4)); ValueError saying what is wrong."""
    m = EXPECT.match(text.strip())
    if not m:
        raise ValueError(
            f"--expect {text!r}: expected TILE:FACE-TILE:FACE, e.g. 0:1-1:4 (tiles numbered "
            "from 0 in --port order, faces 0-5)"
        )
    a = (int(m.group(1)), int(m.group(2)))
    b = (int(m.group(3)), int(m.group(4)))
    for t, _ in (a, b):
        if t >= tiles:
            raise ValueError(f"--expect {text!r}: there is no tile {t} (--port names {tiles})")
    if a[0] == b[0]:
        raise ValueError(f"--expect {text!r}: a tile's faces cannot touch each other")
    return (a, b) if a < b else (b, a)


def check_expectations(pairs):
    """ValueError when one face is expected to touch two faces."""
    seen = {}
    for a, b in pairs:
        for face, other in ((a, b), (b, a)):
            if face in seen and seen[face] != other:
                raise ValueError(
                    f"--expect: tile {face[0]} face {face[1]} is named to touch both "
                    f"tile {seen[face][0]} face {seen[face][1]} and tile {other[0]} face {other[1]}"
                )
            seen[face] = other


def hearing(tiles):
    """{(tile, face): (tile, face)} each face heard most among the tiles of this diag, and
    {(tile, face): what else it heard} for faces that heard only frames of other sources.

    `tiles`: [(index, serial hex or None, discover result or None)]."""
    by_serial = {serial: index for index, serial, _ in tiles if serial}
    heard = {}
    strangers = {}
    for index, _, found in tiles:
        if not found:
            continue
        for face in found["faces"]:
            best = None
            others = face.get("other", 0)
            for serial, their_face, count in face["heard"]:
                who = by_serial.get(serial)
                if who is None or who == index:
                    others += count
                elif best is None or count > best[2]:
                    best = (who, their_face, count)
            if best is not None:
                heard[(index, face["face"])] = best[:2]
            elif others:
                strangers[(index, face["face"])] = others
    return heard, strangers


def pairs_from(heard):
    """Touching pairs, each face in one at most: faces that hear each other first, then
    one-way links. Each pair is (initiator, responder), the lower (tile, face) first."""
    pairs = []
    used = set()
    for a, b in sorted(heard.items()):
        if heard.get(b) == a and a < b and a not in used and b not in used:
            pairs.append((a, b))
            used.update((a, b))
    for a, b in sorted(heard.items()):
        if a not in used and b not in used:
            pairs.append((min(a, b), max(a, b)))
            used.update((a, b))
    return pairs


def with_expected(pairs, expect):
    """The pairs to measure: those found, then each expected pair whose faces found nobody,
    so a cut face gets its figures too (frames sent, none received)."""
    used = {face for pair in pairs for face in pair}
    out = list(pairs)
    for a, b in expect:
        if a not in used and b not in used:
            out.append((a, b))
            used.update((a, b))
    return out


def _echo(session, face):
    """(hears_itself, hears_own_frames, own bytes), None where it could not be told."""
    if not session.echo:
        return None, None, 0
    e = session.echo["faces"][face]
    if e["baseline_edges"]:
        return None, None, 0  # its detector saw light before it sent: another face talking
    return e["echo_edges"] > 0, e["own_bytes"] > 0, e["own_bytes"]


def _exchange(session, face):
    if not session.exchange:
        return None
    for f in session.exchange["faces"]:
        if f["face"] == face:
            return f
    return None


def _name(who):
    return f"tile {who[0]} face {who[1]}"


def face_report(session, face, ctx):
    """One face's entry of the JSON, with its problems (failures) and notes."""
    me = (session.index, face)
    neighbour = ctx["neighbour"].get(me)
    expected = ctx["expected"].get(me)
    firmware_gap = session.hello["reply_gap_us_firmware"] if session.hello else None
    hears_itself, own_frames, own_bytes = _echo(session, face)
    entry = {
        "face": face,
        "neighbour": None,
        "sent": None,
        "received": None,
        "bad": None,
        "bit_errors": None,
        "reply_gap_us_min": None,
        "reply_gap_us_firmware": firmware_gap,
        "margin_us": None,
        "hears_itself": hears_itself,
        "hears_own_frames": own_frames,
        "passed": None,
        "problems": [],
        "notes": [],
    }
    problems = entry["problems"]
    notes = entry["notes"]
    if expected is not None:
        entry["expected"] = {"tile": expected[0], "face": expected[1]}
    if neighbour is not None:
        entry["neighbour"] = {
            "tile": neighbour[0],
            "face": neighbour[1],
            "port": ctx["ports"][neighbour[0]],
        }
    if own_frames:
        deaf = session.hello["deaf_us_firmware"] if session.hello else None
        after = "" if deaf is None else f", {deaf:.0f} us after its light"
        problems.append(
            f"hears its own frames ({own_bytes} byte{'s' if own_bytes != 1 else ''}): its "
            f"receiver still rings when the face listens again{after}"
        )
    if hears_itself is False:
        notes.append(
            "no echo while it sends: transceiver unpowered, RXD not wired, or a part that "
            "does not echo"
        )
    elif hears_itself is None and session.echo:
        notes.append("echo not measured: its detector saw light before it sent")
    if me in ctx["strangers"] and neighbour is None:
        notes.append("hears frames of a tile not in this diag")
    if expected is not None and neighbour != expected:
        if neighbour is None:
            problems.append(f"expected to touch {_name(expected)}, heard nothing")
        else:
            problems.append(f"expected to touch {_name(expected)}, touches {_name(neighbour)}")
    partner = ctx["partner"].get(me)
    if partner is not None:
        _judge_link(session, face, neighbour, partner, ctx, entry)
    if firmware_gap is not None and entry["reply_gap_us_min"] is not None:
        entry["margin_us"] = round(firmware_gap - entry["reply_gap_us_min"], 1)
    if problems:
        entry["passed"] = False
    elif neighbour is not None or expected is not None:
        entry["passed"] = True
    return entry


def _judge_link(session, face, neighbour, partner, ctx, entry):
    """The figures of the link to `partner` (the neighbour found, or the one expected)."""
    me = (session.index, face)
    problems = entry["problems"]
    frames = ctx["frames"]
    heard = ctx["heard"]
    if neighbour is None:
        pass  # expected, heard nothing: said already
    elif heard.get(me) != neighbour:
        problems.append(
            f"hears nothing from {_name(neighbour)}, which hears it: this face's receiver "
            "or that face's emitter"
        )
    elif heard.get(neighbour) != me:
        problems.append(
            f"is not heard by {_name(neighbour)}, which it hears: this face's emitter or "
            "that face's receiver"
        )
    ex = _exchange(session, face)
    if ex is None:
        problems.append("frames not counted (the tile dropped out)")
    else:
        for key in ("sent", "received", "bad", "bit_errors"):
            entry[key] = ex[key]
        if ex["received"] < frames:
            problems.append(f"received {ex['received']} of {frames} frames")
        if ex["bad"]:
            problems.append(f"{ex['bad']} bad frames, {ex['bit_errors']} bit errors")
    sweep = session.sweeps.get(face)
    if sweep is None:
        problems.append("reply gap not measured (a tile dropped out)")
        return
    entry["reply_gap_us_min"] = sweep["reply_gap_us_min"]
    # each step: the gap B waited, answers heard of those asked, and when the answer's first
    # byte arrived after A's last byte left (it shrinks by a step a step: the patch took)
    gaps, batch = session.hello["gap_us"], session.hello["batch"]
    entry["sweep"] = [
        {"gap_us": gaps[x], "answers": ok, "of": batch, "answer_after_us": after}
        for x, ok, after in sweep["steps"]
    ]
    firmware_gap = entry["reply_gap_us_firmware"]
    if not sweep["answered"]:
        problems.append(f"no answer from {_name(partner)} to its sweep frames")
    elif sweep["reply_gap_us_min"] is None:
        longest = session.hello["gap_us"][-1]
        problems.append(f"answers lost even at the longest reply gap, {longest:.0f} us")
    elif firmware_gap is not None and sweep["reply_gap_us_min"] > firmware_gap:
        problems.append(
            f"answers need a gap of {sweep['reply_gap_us_min']:.0f} us, more than the "
            f"firmware's {firmware_gap:.0f} us"
        )


def tile_report(session, ctx):
    probe = session.probe or {}
    entry = {
        "tile": session.index,
        "port": session.port,
        "serial": probe.get("serial"),
        "micropython": probe.get("micropython"),
        "board": probe.get("board"),
        "firmware": probe.get("firmware"),
        "game": probe.get("game"),
        "pass_us": probe.get("pass_us"),
        "heap_free_kb": round(probe["heap_free"] / 1024, 1) if "heap_free" in probe else None,
        "deaf_us_firmware": (session.hello or {}).get("deaf_us_firmware"),
        "pixels": "skipped" if not ctx["pixels"] else (session.pixels or {}).get("pixels"),
        "button": "skipped" if not ctx["button"] else (session.button or {}).get("button"),
        "passed": False,
        "problems": [],
        "faces": [],
    }
    problems = entry["problems"]
    if session.error:
        problems.append(session.error)
    if ctx["button"] and entry["button"] == "not pressed":
        problems.append(f"button not pressed within {ctx['button_s']:.0f} s")
    elif entry["button"] == "stuck":
        problems.append("button reads pressed before it was asked for: stuck or shorted")
    elif entry["button"] == "held":
        problems.append(
            "button pressed but not let go within 10 s (stuck? held at the restart, the tile "
            "starts in safe mode: restart it with the button up)"
        )
    if session.hello:
        entry["faces"] = [face_report(session, f, ctx) for f in range(6)]
    entry["passed"] = not problems and all(f["passed"] is not False for f in entry["faces"])
    return entry


def build_report(sessions, pairs, heard, strangers, expect=(), frames=50, options=None):
    """The whole diag as `blinks diag --json` prints it. `pairs`: the pairs measured (found
    ones, and expected ones that found nobody: with_expected)."""
    options = options or {}
    neighbour = {}
    partner = {}
    found = set(pairs_from(heard))
    for a, b in pairs:
        partner[a] = b
        partner[b] = a
        if (a, b) in found:
            neighbour[a] = b
            neighbour[b] = a
    expected = {}
    for a, b in expect:
        expected[a] = b
        expected[b] = a
    ctx = {
        "neighbour": neighbour,
        "partner": partner,
        "expected": expected,
        "heard": heard,
        "strangers": strangers,
        "frames": frames,
        "ports": [s.port for s in sessions],
        "pixels": options.get("pixels", True),
        "button": options.get("button", True),
        "button_s": options.get("button_s", 15.0),
    }
    tiles = [tile_report(s, ctx) for s in sessions]
    return {
        "tiles": tiles,
        "pairs": [[a[0], a[1], b[0], b[1]] for a, b in pairs],
        "frames": frames,
        "passed": all(t["passed"] for t in tiles),
    }


def failures(report):
    """One line for each tile or face that failed, and how."""
    lines = []
    for t in report["tiles"]:
        where = f"tile {t['tile']} ({t['port']})"
        lines += [f"{where}: {p}" for p in t["problems"]]
        for f in t["faces"]:
            lines += [f"{where} face {f['face']}: {p}" for p in f["problems"]]
    return lines
