"""Progress for work that can take a while: the library names the task, a front end may show it.

Library code wraps long work in `task(message, total)` and calls the function it
yields to advance; nothing is shown unless a front end installed a reporter (the
command line does, only when stderr is a terminal), so scripts, tests, pipes and
the web server stay quiet. This module imports nothing heavy: it sits on every path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

Advance = Callable[[int], None]
Reporter = Callable[[str, "int | None"], AbstractContextManager[Advance]]

_REPORTER: list[Reporter] = []


def set_reporter(reporter: Reporter | None) -> None:
    """Show tasks with `reporter` (a context manager factory yielding an `advance(n)`), or nowhere (None)."""
    _REPORTER[:] = [] if reporter is None else [reporter]


def _ignore(done: int) -> None:
    pass


@contextmanager
def task(message: str, total: int | None = None) -> Iterator[Advance]:
    """Around work that may take over a second: `message` says what it is; the yielded `advance(n)` moves it on."""
    if not _REPORTER:
        yield _ignore
        return
    with _REPORTER[0](message, total) as advance:
        yield advance
