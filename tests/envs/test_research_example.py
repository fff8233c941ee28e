"""examples/research/evaluate.py runs an agent through the PettingZoo API and reports figures
that tell a sensible agent from a random one."""

import importlib.util
import re
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "research" / "evaluate.py"


def load():
    spec = importlib.util.spec_from_file_location("research_evaluate", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_reports_its_figures(capsys):
    assert load().main(["--agent", "random", "--games", "5"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"random: mean \d\.\d\d of 9, perfect \d+\.\d%, \d\.\d{4} s a game", line)


def test_the_hinter_scores_more_than_random_play():
    example = load()
    hinter, _, _ = example.evaluate(example.hinter_agent, 40)
    chance, _, _ = example.evaluate(example.random_agent, 40)
    assert hinter > chance + 1
