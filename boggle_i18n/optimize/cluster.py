"""Restarts on a Dask distributed cluster (`--cluster tcp://scheduler:8786`).

Dask is an optional extra (`pip install 'boggle-i18n[cluster]'`) imported only
here. The problem travels once to every worker (`scatter(broadcast=True)`) with
the lexicon's trie bytes, since cluster machines need not share this store;
each worker process prepares its scorer once. Each restart is one task; as many
run at once as the cluster has worker threads, and finished ones are replaced
by the next restart index until the restarts, the time limit or the target say
stop. A stop (target, Ctrl-C, time) sets a named Dask `Event` that running
restarts poll once a second. A task whose worker dies is retried by Dask on
another worker and, failing again, reported as an error, never waited on.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from ..errors import BoggleI18nError
from .parallel import Job, Outcome
from .problem import Problem
from .runner import Progress, RestartReport, run_restart
from .search import Budget
from .strategies import Params

POLL = 1.0  # seconds between a running task's looks at the stop event
CONNECT_TIMEOUT = "10s"  # how long to wait for the scheduler to answer


def _task(
    problem: Problem,
    strategy: str,
    params: Params,
    seed: int,
    index: int,
    seconds_left: float | None,
    target: int | None,
    top: int,
    event_name: str,
) -> RestartReport:
    """One restart on a cluster worker."""
    from distributed import Event

    event = Event(event_name)
    last = [0.0, False]

    def stop() -> bool:
        now = time.monotonic()
        if now - last[0] >= POLL:
            last[0] = now
            last[1] = bool(event.is_set())
        return bool(last[1])

    deadline = time.monotonic() + seconds_left if seconds_left is not None else None
    return run_restart(problem, strategy, params, seed, index, Budget(deadline, target, stop), top)


def connect(cluster: Any) -> tuple[Any, bool]:
    """(a `distributed.Client` for `cluster`, whether this call made it and must close it): `cluster` is a
    scheduler address or a Client; one error line when Dask is missing or the scheduler does not answer."""
    try:
        from distributed import Client
    except ImportError:
        raise BoggleI18nError("--cluster needs Dask distributed: pip install 'boggle-i18n[cluster]'") from None
    own = not isinstance(cluster, Client)
    try:
        return (Client(cluster, timeout=CONNECT_TIMEOUT) if own else cluster), own
    except (OSError, TimeoutError, ValueError) as exc:
        raise BoggleI18nError(f"cannot reach a Dask scheduler at {cluster}: {exc}") from None


def run_cluster(job: Job, cluster: Any, on_progress: Callable[[Progress], None] | None = None) -> tuple[Outcome, str]:
    """Run `job`'s restarts on the cluster at `cluster` (a scheduler address or a `distributed.Client`)."""
    client, own = connect(cluster)
    from distributed import Event, as_completed

    out = Outcome()
    started = time.monotonic()
    event_name = f"boggle-i18n-stop-{uuid.uuid4().hex}"
    event = Event(event_name, client=client)
    progress = Progress()
    try:
        slots = max(1, sum(client.nthreads().values()))
        shared = client.scatter(job.problem.portable(), broadcast=True)
        next_index = 0

        def left() -> float | None:
            return None if job.time_limit is None else job.time_limit - (time.monotonic() - started)

        def more() -> bool:
            if event.is_set():
                return False
            if job.restarts is not None and next_index >= job.restarts:
                return False
            remaining = left()
            return remaining is None or remaining > 0

        def submit() -> Any:
            nonlocal next_index
            fut = client.submit(
                _task,
                shared,
                job.strategy,
                job.params,
                job.seed,
                next_index,
                left(),
                job.target,
                job.top,
                event_name,
                pure=False,
                key=f"boggle-restart-{event_name}-{next_index}",
            )
            next_index += 1
            return fut

        pending = as_completed([submit() for _ in range(slots) if more()])
        try:
            for fut in pending:
                try:
                    report: RestartReport = fut.result()
                except Exception as exc:  # a task that raised, or whose workers died
                    out.errors.append(
                        f"restart {fut.key.rsplit('-', 1)[-1]} failed on the cluster: {type(exc).__name__}: {exc}"
                    )
                    continue
                out.reports.append(report)
                if report.best_score > out.best_score:
                    out.best_score, out.best_at = report.best_score, time.monotonic() - started
                if report.reached:
                    event.set()
                if on_progress is not None:
                    progress.evaluated += report.evaluated
                    progress.best_score = max(progress.best_score, report.best_score)
                    progress.restarts = len(out.reports)
                    progress.elapsed = time.monotonic() - started
                    on_progress(progress)
                if more():
                    pending.add(submit())
        except KeyboardInterrupt:
            out.interrupted = True
            event.set()
            for fut in pending.futures:
                try:
                    out.reports.append(fut.result(timeout=5.0))
                except Exception:
                    pass
    finally:
        try:
            event.set()
        finally:
            if own:
                client.close()
    return out, str((getattr(client, "scheduler", None) and client.scheduler.address) or cluster)
