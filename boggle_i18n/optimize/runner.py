"""Restarts: the unit of work that runs in this process, in worker processes, or on a cluster.

Restart i of a run with seed S draws from `numpy.random.default_rng([S, i])` and
keeps its own top boards, so a run is the union of its restarts: for a given
seed and strategy the same restarts give the same boards however many workers
share them. (A time limit or target cuts runs short wherever the clock says, so
those runs are repeatable only up to where they stopped.)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .problem import Problem
from .search import Budget, Found, Search, Stop
from .strategies import STRATEGY_FUNCTIONS, Params


@dataclass
class RestartReport:
    """What one restart found, in plain data (it crosses process and network boundaries)."""

    index: int
    top: list[dict[str, Any]]
    evaluated: int
    best_score: int
    seconds: float
    best_at: float  # seconds into the restart when its best score first appeared
    complete: bool  # ran to its own end (not cut by time, target or a stop)
    reached: bool = False  # hit the target score


@dataclass
class Progress:
    """A live view for progress displays: totals so far."""

    evaluated: int = 0
    best_score: int = -1
    restarts: int = 0
    elapsed: float = 0.0


def run_restart(
    problem: Problem,
    strategy: str,
    params: Params,
    seed: int,
    index: int,
    budget: Budget,
    top: int,
    on_batch: Callable[[Search], None] | None = None,
) -> RestartReport:
    """Run restart `index` of a seeded search until it ends or the budget stops it."""
    scorer, space = problem.prepare()
    search = Search(scorer, space, budget, top=top, on_batch=on_batch)
    rng = np.random.default_rng([seed, index])
    complete = True
    try:
        STRATEGY_FUNCTIONS[strategy](search, rng, params)
    except Stop:
        complete = False
    return RestartReport(
        index=index,
        top=[f.to_dict() for f in search.top.best()],
        evaluated=search.evaluated,
        best_score=search.best_score,
        seconds=time.monotonic() - search.started,
        best_at=search.best_at,
        complete=complete,
        reached=search.reached,
    )


def merge_top(reports: list[RestartReport], size: int) -> list[Found]:
    """The best `size` distinct boards over all reports."""
    from .search import TopBoards

    merged = TopBoards(size, 1, 1)
    for report in sorted(reports, key=lambda r: r.index):
        merged.merge([Found.from_dict(d) for d in report.top])
    return merged.best()
