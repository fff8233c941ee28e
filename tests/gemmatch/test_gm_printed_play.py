"""A person at the printed Gem Match's window (printed_play): clicks on the picture's pixels,
as printed_png lays it out, become the referee's moves.

The person here is the greedy bot's choice turned into clicks (a hand token, quarter turns, a
square of the field, a button), so a whole game clicked through the window must end exactly as
the same game with the bot in both seats.
"""

import pytest

from simulator.games.gemmatch import printed as pr
from simulator.games.gemmatch import printed_bots, printed_png
from simulator.games.gemmatch.printed_play import MOVE_MS, Table, button_boxes
from simulator.play.bots import bot_seed

SIZE = (1100, 700)


def layout_of(table):
    layout = printed_png.Layout()
    printed_png.figure(table.state, "test", SIZE, layout=layout)
    return layout


def middle(box):
    left, top, width, height = box
    return (left + width / 2, top + height / 2)


def clicks_for(table, move, layout):
    """The clicks (pixels, and quarter turns between them) a person makes for `move`."""
    if move.kind != pr.PLACE:
        choices = table.choices()
        return [middle(button_boxes(layout, len(choices))[choices.index(move)])]
    seat = table.state.current
    out = [middle(layout.hands[seat][move.slot - 1])]
    out += ["R"] * move.turn
    token, side = table.state.hands[seat][move.slot - 1]
    cells = pr.turned(pr.side_cells(token, side), move.turn)
    wide, tall = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
    square = (move.spot[0] + (wide - 1) // 2, move.spot[1] + (tall - 1) // 2)
    left, top, cell, _ = layout.field
    out.append((left + (square[0] + 0.5) * cell, top + (square[1] + 0.5) * cell))
    return out


def click_through(table, move):
    layout = layout_of(table)  # a held token changes nothing the picture lays out
    for step in clicks_for(table, move, layout):
        if step == "R":
            table.rotate()
        else:
            table.click(step, layout)


@pytest.mark.parametrize("seed, size", [(23, 8), (5, 6)])
def test_a_game_clicked_through_the_window_ends_as_the_bots_game(seed, size):
    watched = Table(seed, size, "greedy", people=())
    while not watched.state.over:
        watched.advance(MOVE_MS)

    table = Table(seed, size, "greedy", people=(0,))
    person = printed_bots.GreedyBot(0, bot_seed(seed, 0, 0x9E7))
    view, clicked = table.state.observation(0), 0
    for _ in range(2000):
        while not (table.state.over or table.persons_turn()):
            table.advance(MOVE_MS)  # the bot's moves, a second each
        if table.state.over:
            break
        before = len(table.state.history)
        move = person.act(view)
        click_through(table, move)
        assert len(table.state.history) == before + 1, table.said
        assert table.state.history[-1].move == move
        person.observe(view, table.state.history[-1])
        clicked += 1
    assert table.state.over and clicked > 5
    assert table.state.to_dict() == watched.state.to_dict()
    assert [str(e.move) for e in table.state.history] == [
        str(e.move) for e in watched.state.history
    ]


def test_a_placement_the_rules_refuse_says_why_and_changes_nothing():
    table = Table(23, 8, "greedy")
    first = table.state.legal_moves()[0]
    click_through(table, first)
    table.advance(MOVE_MS)  # B answers
    assert table.persons_turn()
    layout = layout_of(table)
    table.click(middle(layout.hands[0][0]), layout)
    x, y = first.spot  # a square A's first token lies on
    left, top, cell, _ = layout.field
    before = table.state.to_dict()
    table.click((left + (x + 0.5) * cell, top + (y + 0.5) * cell), layout)
    assert table.state.to_dict() == before
    assert "a cell there is taken" in table.said or "edge" in table.said
    assert table.slot == 1  # the token is still held


def test_the_bot_moves_a_second_after_the_person_and_ignores_clicks_meanwhile():
    table = Table(23, 8, "greedy")
    table.advance(5 * MOVE_MS)
    assert table.persons_turn() and not table.state.history  # A waits for the person
    click_through(table, table.state.legal_moves()[0])
    assert table.state.current == 1 and not table.persons_turn()
    layout = layout_of(table)
    table.click(middle(layout.hands[1][0]), layout)  # B's token: not the person's
    assert table.slot is None and len(table.state.history) == 1
    table.advance(MOVE_MS - 1)
    assert len(table.state.history) == 1
    table.advance(1)
    assert len(table.state.history) >= 2


def test_a_held_token_turns_and_is_put_back_by_a_second_click():
    table = Table(23, 8, "greedy")
    layout = layout_of(table)
    hand = layout.hands[0]
    table.click(middle(hand[1]), layout)
    assert table.slot == 2
    shapes = {tuple(c for c, _ in table.held_cells())}
    for _ in range(3):
        table.rotate()
        shapes.add(tuple(c for c, _ in table.held_cells()))
    table.rotate()
    assert table.turn == 0 and len(shapes) >= 2
    table.click(middle(hand[1]), layout)
    assert table.slot is None and table.held_cells() is None
