"""The command line's progress display: a transient rich line on stderr, installed only on a terminal."""

from __future__ import annotations

import sys

from .. import progress

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Iterator
    from contextlib import AbstractContextManager


def _terminal_task(message: str, total: int | None) -> AbstractContextManager[progress.Advance]:
    """rich's transient line for one task (rich and contextlib load here, when a long task starts on a terminal)."""
    from contextlib import contextmanager

    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    @contextmanager
    def shown() -> Iterator[progress.Advance]:
        columns = [SpinnerColumn(), TextColumn("{task.description}")]
        if total is not None:
            columns += [BarColumn(), TextColumn("{task.completed}/{task.total}")]
        with Progress(*columns, TimeElapsedColumn(), transient=True, console=Console(stderr=True)) as bar:
            job = bar.add_task(message, total=total)
            yield lambda done: bar.update(job, advance=done)

    return shown()


def install() -> None:
    """Show the library's long tasks while they run, when stderr is a terminal (else say nothing)."""
    try:
        terminal = sys.stderr.isatty()
    except (AttributeError, ValueError):  # stderr closed or replaced
        terminal = False
    progress.set_reporter(_terminal_task if terminal else None)
