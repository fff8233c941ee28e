"""The progress line of a long batch of games on a terminal: done of all, games a second, and
the time left (rich draws it on stderr and removes it at the end)."""

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class GamesPerSecond(ProgressColumn):
    def render(self, task):
        speed = task.speed
        return Text("" if speed is None else f"{speed:.1f} games/s")


def games_progress():
    """A Progress to use in a `with`: add_task(name, total=games), then update(completed=)."""
    from rich.console import Console

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
