"""`cache`: functools.cache for the modules on a cold command's path, without importing functools.

`functools` loads `collections` (and with it `keyword`, `operator`, `reprlib`) and `types`: together
about a tenth of a cold `solve` beyond the bare interpreter (docs/performance.md, "Cold start"). The
library only memoises small lookups (a language record, a dice set, a scoring table) by their
arguments, which a dictionary does as well.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])

_KEYWORDS = object()  # separates positional from keyword arguments in a key


class CacheInfo:
    """What `cache_info()` reports: the number of results held (functools' `currsize`)."""

    __slots__ = ("currsize",)

    def __init__(self, currsize: int) -> None:
        self.currsize = currsize


def cache(function: F) -> F:
    """Memoise `function` by its (hashable) arguments, for the life of the process, as `functools.cache` does;
    `cache_clear()` and `cache_info().currsize` as there."""
    memo: dict[Any, Any] = {}

    def cached(*args: Any, **kwargs: Any) -> Any:
        key = args if not kwargs else (*args, _KEYWORDS, *sorted(kwargs.items()))
        try:
            return memo[key]
        except KeyError:
            pass
        value = memo[key] = function(*args, **kwargs)
        return value

    cached.__name__ = function.__name__
    cached.__qualname__ = function.__qualname__
    cached.__doc__ = function.__doc__
    cached.__module__ = function.__module__
    cached.__wrapped__ = function  # type: ignore[attr-defined]
    cached.cache_clear = memo.clear  # type: ignore[attr-defined]
    cached.cache_info = lambda: CacheInfo(len(memo))  # type: ignore[attr-defined]
    return cached  # type: ignore[return-value]
