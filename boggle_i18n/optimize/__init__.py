"""Inverse Boggle: search for the highest-scoring boards (`optimize`), on one core, K processes or a cluster.

Heavy modules (numpy, numba, dask) load only when a search runs, never on import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .optimizer import OptimizeResult as OptimizeResult
    from .optimizer import optimize as optimize

__all__ = ["OptimizeResult", "optimize"]


def __getattr__(name: str) -> Any:
    if name in ("optimize", "OptimizeResult"):
        from . import optimizer

        return getattr(optimizer, name)
    raise AttributeError(name)
