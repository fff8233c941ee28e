"""Panel text is wrapped to the panel's width, long file paths included."""

from hypothesis import given
from hypothesis import strategies as st

from simulator.app.panels import wrap

SAVED = (
    "Saved as /tmp/pytest-of-root/pytest-12/test_a_long_name0/scripts/you-conventions-seed3-2.lg;"
    " replay it with blinks session run."
)


def test_a_long_path_is_broken_after_a_slash_and_kept_whole():
    lines = wrap(SAVED, 38)
    assert all(len(line) <= 38 for line in lines)
    assert lines[0] == "Saved as /tmp/pytest-of-root/"
    # The path is broken only after a '/', and nothing is lost or added.
    assert all(line.endswith("/") for line in lines[:-2])
    assert "".join(lines).replace(" ", "") == SAVED.replace(" ", "")


def test_short_words_still_wrap_between_words():
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


words = st.text(alphabet="ab/", min_size=1, max_size=70)


@given(st.lists(words, max_size=8), st.integers(4, 46))
def test_no_line_is_wider_than_asked_and_no_character_is_lost(parts, width):
    lines = wrap(" ".join(parts), width)
    assert all(0 < len(line) <= width for line in lines)
    assert "".join("".join(lines).split()) == "".join(parts)
