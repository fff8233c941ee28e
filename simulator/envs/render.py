"""What an environment shows: the table as the seat to move sees it, as text ("ansi") or in a
pygame window ("human"). Only a seat's own view is drawn, so showing it hides what the rules
hide."""

from simulator.games import host_game

WINDOW = (900, 640)
LINE_PX = 18


def table_text(env):
    """The game, its deal, the last move and the view of the seat to move (or, once over, of
    the first seat), one line each."""
    state = env.table
    title = getattr(host_game(env.name), "TITLE", env.name)
    lines = [f"{title}, deal seed {env.deal_seed}"]
    if env.last_move is not None:
        lines.append(f"last move: {env.last_move[0]} {env.last_move[1]}")
    if state.is_terminal():
        lines.append(f"over: returns {state.returns()}")
        seat = 0
    else:
        seat = state.current_player()
        lines.append(f"to move: {env.possible_agents[seat]}, who sees:")
    return "\n".join(lines + state.observation_string(seat).splitlines())


def show(window, text, fps):
    """Draw `text` in the pygame window (opened on first use); returns the window."""
    import pygame

    if window is None:
        pygame.init()
        window = {
            "screen": pygame.display.set_mode(WINDOW),
            "font": pygame.font.SysFont("monospace", 14),
            "clock": pygame.time.Clock(),
        }
        pygame.display.set_caption("Blinks research table")
    pygame.event.pump()
    screen = window["screen"]
    screen.fill((18, 32, 24))  # the table's felt
    for row, line in enumerate(text.splitlines()[: WINDOW[1] // LINE_PX]):
        image = window["font"].render(line[:110], True, (230, 230, 210))
        screen.blit(image, (12, 8 + row * LINE_PX))
    pygame.display.flip()
    window["clock"].tick(fps)
    return window


def close(window):
    if window is not None:
        import pygame

        pygame.display.quit()
