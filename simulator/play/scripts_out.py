"""A finished (or stopped) game written out as a session script, so a designer can read, edit
and replay it with `blinks session run`: a title, the game's setup lines (its deck, who
starts), every move by seat, then the game's `expect` lines for how it ended."""

from simulator.play.runner import SEATS


def game_script(state, title, setup, ends, replay="[--rules-only]"):
    """The script's text; `state` a referee with `history` (events with `player` and `move`)."""
    lines = [f"# {title}", f"# Replay: blinks session run THIS_FILE {replay}", *setup]
    lines += [f"{SEATS[ev.player]} {ev.move}" for ev in state.history]
    return "\n".join(lines + ends) + "\n"


def how_it_ended(state):
    """The closing expects of a game won on points: each seat's score is the game's own."""
    return [f"expect over {'yes' if state.over else 'no'}", f"expect ended {state.ended or 'no'}"]
