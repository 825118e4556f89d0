"""`optimize()`: search for the highest-scoring boards of a lexicon, rules and shape."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..board.board import Board
from ..errors import BoggleI18nError
from ..limits import check, clip, workers_for
from ..solver.base import Rules
from .parallel import Job, Outcome, run_processes, run_serial
from .problem import make_problem
from .runner import Progress, merge_top
from .search import Found
from .strategies import STRATEGIES, Params

if TYPE_CHECKING:
    from ..lexicon.store import Lexicon


@dataclass
class OptimizeResult:
    """The best distinct boards found (canonical under symmetry, best first) and how they were found."""

    rows: int
    cols: int
    best: list[Found]
    seed: int
    strategy: str
    seconds: float
    boards_evaluated: int
    restarts: int  # restarts that ran (the last ones may have been cut short)
    stopped: str  # "restarts" | "time-limit" | "target" | "interrupted"
    best_at: float | None  # seconds from the start until the best score was first seen (None if unknown)
    workers: int
    cluster: str | None = None
    errors: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def boards(self) -> list[Board]:
        """The best boards as Board objects."""
        return [Board(self.rows, self.cols, f.faces) for f in self.best]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`--json`, result files)."""
        return {
            "best": [
                {"board": Board(self.rows, self.cols, f.faces).notation(), "score": f.score, "n_words": f.n_words}
                for f in self.best
            ],
            "rows": self.rows,
            "cols": self.cols,
            "seed": self.seed,
            "strategy": self.strategy,
            "seconds": round(self.seconds, 3),
            "best_at": None if self.best_at is None else round(self.best_at, 3),
            "boards_evaluated": self.boards_evaluated,
            "boards_per_second": round(self.boards_evaluated / self.seconds) if self.seconds > 0 else None,
            "restarts": self.restarts,
            "stopped": self.stopped,
            "workers": self.workers,
            "cluster": self.cluster,
            "errors": self.errors,
            "settings": self.settings,
        }


def check_request(
    *,
    strategy: str = "hill",
    shape: tuple[int, int] = (4, 4),
    seed: int = 0,
    restarts: int | None = None,
    iterations: int | None = None,
    time_limit: float | None = None,
    target: int | None = None,
    workers: int = 1,
    top: int = 10,
    pool: int = 200,
) -> int:
    """Check every number and name a search is given (ranges in `limits`); return the worker count (0: one per core).

    The CLI calls this before it loads a lexicon, `optimize` calls it again: one rule for both.
    """
    if strategy not in STRATEGIES:
        raise BoggleI18nError(f"unknown strategy {clip(strategy, 40)!r} (known: {', '.join(STRATEGIES)})")
    check("rows", shape[0], "--size rows")
    check("cols", shape[1], "--size columns")
    check("seed", seed)
    for name, value in (("restarts", restarts), ("iterations", iterations), ("target", target)):
        if value is not None:
            check(name, value)
    if time_limit is not None:
        check("seconds", time_limit, "--time-limit")
    check("top", top)
    check("pool", pool)
    return workers_for(workers)


def optimize(
    lexicon: Lexicon,
    rules: Rules,
    shape: tuple[int, int],
    *,
    dice: str | None = None,
    faces: list[str] | tuple[str, ...] | None = None,
    weights: list[float] | tuple[float, ...] | None = None,
    strategy: str = "hill",
    seed: int = 0,
    restarts: int | None = None,
    iterations: int | None = None,
    time_limit: float | None = None,
    target: int | None = None,
    workers: int = 1,
    cluster: str | Any | None = None,
    top: int = 10,
    engine: str = "fast",
    params: Params | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> OptimizeResult:
    """Search boards of `shape` for the highest score under `rules`.

    With `dice` (a dice-set id) every board is a roll of that set; without, each
    cell takes any of `faces` (default: the lexicon's letters). Runs restarts of
    `strategy` (hill, anneal, pool) until `restarts` are done, `time_limit`
    seconds pass, a board reaches `target`, or Ctrl-C; on `workers` local
    processes, or on a Dask cluster at `cluster` (an address or a Client).
    `stop` (serial runs only) is asked between batches; once true the search ends
    with the boards found so far, as Ctrl-C does (the web app's stop button).
    """
    workers = check_request(
        strategy=strategy,
        shape=shape,
        seed=seed,
        restarts=restarts,
        iterations=iterations,
        time_limit=time_limit,
        target=target,
        workers=workers,
        top=top,
        pool=(params or Params()).pool,
    )
    if restarts is None and time_limit is None and target is None:
        raise BoggleI18nError("give a number of restarts, a time limit or a target score, or the search never ends")
    if stop is not None and (workers > 1 or cluster is not None):
        raise BoggleI18nError("a stop callback works on serial runs only (workers=1, no cluster)")
    params = params or Params()
    if iterations is not None:
        params = Params(**{**params.__dict__, "iterations": iterations})
    problem = make_problem(lexicon, rules, shape, dice=dice, faces=faces, weights=weights, engine=engine)
    job = Job(problem, strategy, params, seed, restarts, time_limit, target, top)
    started = time.monotonic()
    outcome: Outcome
    cluster_name = None
    if cluster is not None:
        from .cluster import run_cluster

        outcome, cluster_name = run_cluster(job, cluster, on_progress)
    elif workers > 1:
        outcome = run_processes(job, workers, on_progress)
    else:
        problem.prepare(lexicon)
        outcome = run_serial(job, on_progress, stop)
    seconds = time.monotonic() - started
    reports = outcome.reports
    best = merge_top(reports, top)
    reached = target is not None and any(r.reached for r in reports)
    if outcome.interrupted or (stop is not None and stop()):
        stopped = "interrupted"
    elif reached:
        stopped = "target"
    elif restarts is not None and len(reports) >= restarts and all(r.complete for r in reports):
        stopped = "restarts"
    else:
        stopped = "time-limit"
    best_at = None
    if best and workers == 1 and cluster is None:
        # restarts ran one after another: the first restart holding the best adds its own offset
        elapsed = 0.0
        for r in sorted(reports, key=lambda r: r.index):
            if r.best_score == best[0].score:
                best_at = elapsed + r.best_at
                break
            elapsed += r.seconds
    elif best and outcome.best_score == best[0].score:
        best_at = outcome.best_at
    return OptimizeResult(
        rows=shape[0],
        cols=shape[1],
        best=best,
        seed=seed,
        strategy=strategy,
        seconds=seconds,
        boards_evaluated=sum(r.evaluated for r in reports),
        restarts=len(reports),
        stopped=stopped,
        best_at=best_at,
        workers=workers,
        cluster=cluster_name,
        errors=outcome.errors,
        settings={
            "lexicon": problem.lexicon_name,
            "trie_sha256": problem.manifest.get("trie_sha256"),
            "word_count": problem.manifest.get("word_count"),
            "rules": rules.to_dict(),
            "dice": dice,
            "faces": None if dice else list(problem.faces),
            "engine": engine,
            "restarts": restarts,
            "time_limit": time_limit,
            "target": target,
            "top": top,
            "params": {k: v for k, v in params.__dict__.items()},
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "platform": platform.platform(),
                "load_average": _load_average(),  # at the end: 1, 5 and 15 minutes
            },
        },
    )


def _load_average() -> list[float] | None:
    """The system load average (how contended the timed run was), where the OS reports one."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None
