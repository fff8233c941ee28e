"""The rich console the host tools print their tables on.

On a terminal a table takes the terminal's width (rich wraps the widest cells inside the
table), so an 80-column terminal gets no row broken across the screen by the terminal. Piped
(into a file, grep, less -S) there is no width to fit, so each row stays on one line.
"""

PIPE_WIDTH = 200


def table_console():
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=PIPE_WIDTH)
