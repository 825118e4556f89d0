"""Progress for work that can take a while: the library names the task, a front end may show it.

Library code wraps long work in `task(message, total)` and calls the function it
yields to advance; nothing is shown unless a front end installed a reporter (the
command line does, only when stderr is a terminal), so scripts, tests, pipes and
the web server stay quiet. This module imports nothing heavy: it sits on every path.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    Advance = Callable[[int], None]
    Reporter = Callable[[str, "int | None"], AbstractContextManager[Advance]]

_REPORTER: list[Reporter] = []


def set_reporter(reporter: Reporter | None) -> None:
    """Show tasks with `reporter` (a context manager factory yielding an `advance(n)`), or nowhere (None)."""
    _REPORTER[:] = [] if reporter is None else [reporter]


def _ignore(done: int) -> None:
    pass


class task:
    """Around work that may take over a second: `message` says what it is; the `advance(n)` it gives moves it on.

    A class rather than a `contextlib` generator: contextlib loads `collections` and `functools`, which a cold
    command does not otherwise need.
    """

    __slots__ = ("_message", "_shown", "_total")

    def __init__(self, message: str, total: int | None = None) -> None:
        self._message = message
        self._total = total
        self._shown: AbstractContextManager[Advance] | None = None

    def __enter__(self) -> Advance:
        if not _REPORTER:
            return _ignore
        self._shown = _REPORTER[0](self._message, self._total)
        return self._shown.__enter__()

    def __exit__(self, *exc: object) -> bool | None:
        shown, self._shown = self._shown, None
        return None if shown is None else shown.__exit__(*exc)  # type: ignore[arg-type]
