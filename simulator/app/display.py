"""Whether a window can be shown, asked before one is opened.

With no display SDL quietly picks its offscreen driver: `blinks sim` then runs with no
window and never exits, and the only output is an XDG_RUNTIME_DIR warning. So: with no
SDL_VIDEODRIVER chosen, a Unix desktop needs DISPLAY or WAYLAND_DISPLAY, and SDL must not have
fallen back to a driver that shows nothing. A driver chosen on purpose is trusted (`dummy` is
how headless runs and tests draw).
"""

import os
import sys

HEADLESS_DRIVERS = ("offscreen", "dummy")  # what SDL picks when it finds no display
WHAT_TO_DO = (
    "run it on a desktop (or with DISPLAY set), or headless with "
    "SDL_VIDEODRIVER=dummy and --run-for SECONDS --screenshot FILE.png"
)


def hide_pygame_banner():
    """pygame prints a "Hello from the pygame community" line when imported; not from us."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def headless(environ=os.environ) -> bool:
    """Whether frames are drawn for nobody (the dummy driver): run as fast as possible."""
    return environ.get("SDL_VIDEODRIVER") == "dummy"


def no_display_reason(environ=os.environ, platform=sys.platform):
    """Why no window can be shown, found without starting SDL, or None."""
    if environ.get("SDL_VIDEODRIVER"):
        return None
    desktop_unix = os.name == "posix" and platform != "darwin"
    if desktop_unix and not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def fallback_reason(driver, environ=os.environ):
    """Why the video driver SDL started cannot show a window, or None."""
    if environ.get("SDL_VIDEODRIVER") or driver not in HEADLESS_DRIVERS:
        return None
    return f"SDL found no display and fell back to its {driver!r} driver, which shows nothing"


def cannot_show(who, reason):
    """The one line a command prints (then exits 2) when it cannot show its window."""
    return f"{who}: cannot open a window: {reason}; {WHAT_TO_DO}"


def open_display(who):
    """Start pygame's display; None, or the line to print when no window can be shown."""
    import pygame

    reason = no_display_reason()
    if reason is None:
        try:
            pygame.display.init()
        except pygame.error as exc:
            reason = str(exc)
        else:
            reason = fallback_reason(pygame.display.get_driver())
            if reason is not None:
                pygame.display.quit()
    return None if reason is None else cannot_show(who, reason)


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tga")


def save_screenshot(surface, path):
    """A PNG at `path`, whatever its name (pygame would write a TGA for `shot` or `shot.out`);
    a name ending in another format pygame writes (.jpg, .bmp, .tga) gets that format."""
    import pygame

    suffix = os.path.splitext(path)[1].lower()
    with open(path, "wb") as f:
        pygame.image.save(surface, f, suffix if suffix in IMAGE_SUFFIXES else ".png")
