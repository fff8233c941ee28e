"""The typeface of every word the simulator draws: DejaVu Sans through FreeType.

pygame's built-in font, drawn by SDL_ttf at a dozen pixels, fused and split letters ("Hint s",
"tlles", "Vlew"). DejaVu Sans is made to be read small on screens (its hinting was tuned for
it); pygame.freetype draws it with that hinting and with kerning. It comes with matplotlib,
already a dependency, so the simulator needs no font of the system's; should it be missing,
pygame's own font is used.
"""

import importlib.util
import os

# Sizes in the code are those of pygame's default font (its size 20 draws letters 13.75 px
# tall); DejaVu Sans at this share of them draws text as tall.
POINTS_PER_SIZE = 0.6875
BOLD_FROM = 22  # headings and figures: size 22 and up is drawn bold


def dejavu(bold=False):
    """The path of matplotlib's DejaVu Sans (found without importing matplotlib), or None."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, "mpl-data", "fonts", "ttf", name)
        if os.path.exists(path):
            return path
    return None


def ui_font(size, scale=1.0):
    """A pygame.freetype font for text of `size` (pygame default-font units) drawn `scale`
    times larger: hinted, kerned, padded to whole lines so that text stacks evenly."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    bold = size >= BOLD_FROM
    font = pygame.freetype.Font(dejavu(bold), max(6.0, size * POINTS_PER_SIZE * scale))
    font.kerning = True
    font.pad = True
    font.antialiased = True
    return font
