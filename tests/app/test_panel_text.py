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


def test_panel_text_is_drawn_in_dejavu_sans_with_kerning_and_grows_with_the_scale():
    import pygame

    from simulator.app.draw import TextCache
    from simulator.app.fonts import dejavu

    assert dejavu() and dejavu(bold=True)  # matplotlib's copy, whatever the system has
    pygame.font.init()
    small, big = TextCache(1.0), TextCache(1.5)
    font = small.font(20)
    assert font.path == dejavu() and font.kerning
    assert small.font(22).path == dejavu(bold=True)  # headings
    assert big.render("Hints 3/3", 20).get_height() > small.render("Hints 3/3", 20).get_height()
    # letters that SDL_ttf's small default font fused or split keep their own widths here
    assert small.render("tiles", 20).get_width() < small.render("Hints", 20).get_width()


def test_words_about_a_face_up_shard_go_under_it_not_over_its_value_spots():
    import pygame

    from simulator.app.draw import Painter, TextCache
    from simulator.app.layout import Table

    pygame.font.init()
    painter = Painter(Table(970, 800, 34.0), TextCache())
    leds = [31 << 10] * 6  # a red shard, every face lit
    centre = (300, 300)

    def drawn(**words):
        surface = pygame.Surface((600, 600))
        painter.draw_tile(surface, centre, leds, list(range(6)), **words)
        return pygame.surfarray.array3d(surface)

    changed = (drawn(captions=["slot 1"]) != drawn()).any(axis=2).nonzero()
    assert len(changed[1]) > 0  # the caption is drawn...
    assert changed[1].min() > centre[1] + 34 * 0.866  # ...wholly under the tile's bottom edge
    on_back = (drawn(captions=["slot 1"], hidden=True) != drawn(hidden=True)).any(axis=2)
    assert on_back[:, : centre[1] + 20].any()  # a hidden shard shows no spots: words on it
