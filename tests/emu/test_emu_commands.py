"""`blinks emu`'s commands on standard input, on emulated tiles flashed with Lost Gems: a press
reaches the game, lift and place rewire the faces (the deal counts the tiles it reaches), and
a bad line is answered with its line number and what was expected, changing nothing."""

import os
import queue
import subprocess
import sys
import threading

from emu_helpers import flashed_image

from simulator.mpy.build import build

ANSWER_S = 300  # a wait of 9 emulated seconds on a loaded machine


class Emu:
    """`blinks emu` in a process of its own, talked to as a script would."""

    def __init__(self, args):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools.cli", "emu", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "BLINKS_OFFLINE": "1"},
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self):
        try:
            line = self.lines.get(timeout=ANSWER_S)
        except queue.Empty:
            raise AssertionError("blinks emu did not answer") from None
        assert line is not None, self.proc.stderr.read()
        return line

    def ask(self, command):
        """The answer's lines, the last being `ok ...` or `error ...`."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = [self.next_line()]
        while not answer[-1].startswith(("ok ", "error ")):
            answer.append(self.next_line())
        return answer


def deal_failure(emu, tile):
    """Hold `tile` for a deal and return the reason its deal failed (3 tiles or fewer cannot
    hold a Lost Gems deal: the game says how many it found)."""
    assert emu.ask(f"press {tile} 6500") == ["ok press"]
    assert emu.ask("wait 9000") == ["ok wait"]
    failed = [line for line in emu.ask(f"log {tile} 50") if " deal " in line and "failed" in line]
    assert failed, "no deal failed"
    return failed[-1].split("reason=")[1]


def test_commands_press_lift_and_place_tiles_and_refuse_bad_lines(rp2_images, tmp_path):
    state = tmp_path / "table"
    flashed_image(build(), state, tiles=3)
    emu = Emu(["--tiles", "3", "--state", str(state), "--fast"])
    try:
        ports = sorted(emu.next_line() for _ in range(3))
        assert ports == [f"PORT {i} {state / f'tty{i}'}" for i in range(3)]
        assert emu.ask("wait 3000") == ["ok wait"]
        leds = emu.ask("leds 0")
        assert leds[0].startswith("leds 0 #") and len(leds[0].split()) == 8, leds

        assert emu.ask("bogus 1")[-1].startswith("error 3: unknown command 'bogus'")
        emu.proc.stdin.write("# a comment and a blank line: counted, not answered\n\n")
        assert emu.ask("press 7 100") == ["error 6: press: T (a tile) must be 0-2, got 7"]
        assert emu.ask("place 1 1 0") == ["error 7: place: a tile cannot lie beside itself"]
        assert emu.ask("click") == ["error 8: expected 'click T [N]', got 'click'"]

        assert emu.ask("lift 2") == ["ok lift"]
        assert deal_failure(emu, 0) == "cluster of 2 tiles"
        assert emu.ask("place 2 1 4") == ["ok place"]  # beside tile 1, on the far side from 0
        tiles = emu.ask("tiles")
        assert tiles[2].startswith("tiles 2 ") and tiles[-1] == "ok tiles", tiles
        assert deal_failure(emu, 0) == "cluster of 3 tiles"

        assert emu.ask("quit") == ["ok quit"]
        assert emu.proc.wait(timeout=60) == 0
    finally:
        if emu.proc.poll() is None:
            emu.proc.kill()
            emu.proc.wait()
