"""The play layer's bots (simulator.play.bots) under every game that uses them: a bot sees only
its seat's observation, the bot table names the bots there are, takes `module:Class` for a bot
of your own, and a bot of your own that raises is named by its line."""

import importlib

import pytest

from simulator.play.bots import UnknownBot
from simulator.sessions.user_code import UserCodeError

GAMES = {  # game: a bot of its own to spy on
    "waterfall": "GreedyBot",
    "gemmatch": "CarefulBot",
    "gembatan": "GreedyBot",
}


def parts(game):
    """The game's bots module, its bot to spy on, and the observation type its referee hands
    a seat (from the descriptor's dealt game, wherever the game keeps the class)."""
    bots = importlib.import_module(f"simulator.games.{game}.bots")
    dealt = importlib.import_module(f"simulator.games.{game}").dealt(seed=0)
    return bots, getattr(bots, GAMES[game]), type(dealt.observation(0))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_is_handed_only_observations(game):
    bots, bot, observation = parts(game)
    seen = []

    class Spy(bot):
        def act(self, obs):
            seen.append(type(obs))
            return bot.act(self, obs)

    state = bots.play_game(Spy, seed=3)
    assert state.over and state.turns > 0
    assert set(seen) == {observation}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_bot_table_names_the_bots_there_are(game):
    bots, bot, _ = parts(game)
    assert bots.bot_class(bot.name) is bot
    with pytest.raises(UnknownBot, match="known bots: .*module:Class"):
        bots.bot_class("clever")
    with pytest.raises(UnknownBot, match="cannot import .no_such_module_here."):
        bots.bot_class("no_such_module_here:Bot")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_of_your_own_that_raises_is_named_by_its_line(game, tmp_path, monkeypatch):
    bots, _, _ = parts(game)
    base = f"simulator.games.{game}.bots"
    (tmp_path / f"mine_{game}.py").write_text(
        f"from {base} import Bot\n\nclass Broken(Bot):\n    def act(self, obs):\n"
        "        return 1 / 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UserCodeError) as caught:
        bots.play_game(f"mine_{game}:Broken", seed=2)
    assert f"mine_{game}.py:5: ZeroDivisionError" in str(caught.value)
    assert "seat A" in str(caught.value)
