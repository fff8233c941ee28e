"""Every game's doc has a table "the seed says / we do / why", and every quote in its first
column (in straight double quotes) is the seed's own words: the owners' rules documents live
beside the repository (`../shared/`), Lost Gems' in part 1 of LOSTGEMS.md."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
# doc -> the seed it cites (a quote with Cyrillic letters is the Russian version's)
SEEDS = {
    "docs/rules.md": "LOSTGEMS.md",
    "docs/waterfall.md": "seeds/waterfall-rules.md",
    "docs/gemmatch.md": "seeds/gem-match-rules.md",
    "docs/gembatan.md": "seeds/gembatan-rules.md",
}
RUSSIAN = {"seeds/gem-match-rules.md": "seeds/gem-match-rules.ru.md"}
HEADER = "| the seed says |"


def flat(text):
    """Text as compared: no Markdown emphasis, whitespace collapsed."""
    return " ".join(text.replace("*", "").replace("_", "").split())


def seed_text(name):
    with open(os.path.join(SHARED, name), encoding="utf-8") as f:
        text = f.read()
    if name == "LOSTGEMS.md":  # the rules are part 1
        text = text.split("## Part 1", 1)[1].split("## Part 2", 1)[0]
    return flat(text)


def seed_rows(doc):
    """The first cells of the doc's seed tables' rows."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        lines = f.read().splitlines()
    cells, inside = [], False
    for line in lines:
        if line.startswith(HEADER):
            inside = True
        elif inside and line.startswith("|"):
            if not line.startswith("|---"):
                cells.append(line.split("|")[1])
        else:
            inside = False
    return cells


def quotes(doc):
    """Every quote of the doc's seed tables; a quote may skip words with an ellipsis (…)."""
    return [q for cell in seed_rows(doc) for q in re.findall(r'"([^"]+)"', cell)]


@pytest.mark.parametrize("doc", sorted(SEEDS))
def test_every_game_doc_has_a_seed_table_that_quotes_its_seed(doc):
    assert len(seed_rows(doc)) >= 5, f"{doc}: no table headed {HEADER} we do | why |"
    assert len(quotes(doc)) >= 4, f"{doc}: its seed table quotes the seed too little"


@pytest.mark.parametrize("doc", sorted(SEEDS))
def test_every_quote_is_in_the_seed_it_cites(doc):
    if not os.path.isdir(os.path.join(SHARED, "seeds")):
        pytest.skip("the owners' rules documents (../shared/seeds) are not beside this checkout")
    missing = []
    for quote in quotes(doc):
        seed = SEEDS[doc]
        if re.search("[а-яА-Я]", quote):
            seed = RUSSIAN[seed]
        text = seed_text(seed)
        if any(flat(part) not in text for part in quote.split("…")):
            missing.append(f"{quote!r} (not in {seed})")
    assert not missing, f"{doc} quotes words its seed does not say: " + "; ".join(missing)


def test_a_misquote_is_caught():
    if not os.path.isdir(os.path.join(SHARED, "seeds")):
        pytest.skip("the owners' rules documents (../shared/seeds) are not beside this checkout")
    text = seed_text("seeds/gembatan-rules.md")
    assert flat("Your tile cannot cut off a socket.") in text
    assert flat("you may only lay a tile if you have a matching gem to place within it") not in text
