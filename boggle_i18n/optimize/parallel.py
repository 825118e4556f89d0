"""Restarts in this process, or in K local worker processes.

Worker w of K runs restarts w, w+K, w+2K, ... and sends each restart's report,
plus progress twice a second, over one queue. The parent stops everyone through
one event (target reached, Ctrl-C, time up). A worker that dies is reported and
its finished restarts kept; one that does not stop in time is ended.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..lifeline import die_with_parent
from .problem import Problem
from .runner import Progress, RestartReport, run_restart
from .search import Budget, Search
from .strategies import Params

GRACE = 10.0  # seconds past the time limit before a silent worker is ended
PROGRESS_EVERY = 0.5


@dataclass
class Outcome:
    """What an executor brings back."""

    reports: list[RestartReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False
    best_score: int = -1
    best_at: float | None = None  # seconds from the start when the parent first heard of the best score


@dataclass(frozen=True)
class Job:
    """One run's settings, shared by every executor."""

    problem: Problem
    strategy: str
    params: Params
    seed: int
    restarts: int | None
    time_limit: float | None
    target: int | None
    top: int


def _throttled(send: Callable[[int, int], None]) -> Callable[[Search], None]:
    last = [0.0]

    def on_batch(search: Search) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            send(search.evaluated, search.best_score)

    return on_batch


def run_serial(
    job: Job, on_progress: Callable[[Progress], None] | None = None, stop: Callable[[], bool] | None = None
) -> Outcome:
    """All restarts in this process, one after another."""
    started = time.monotonic()
    deadline = started + job.time_limit if job.time_limit is not None else None
    out = Outcome()
    progress = Progress()

    def send(evaluated: int, best: int) -> None:
        if on_progress is not None:
            done = sum(r.evaluated for r in out.reports)
            progress.evaluated = done + evaluated
            progress.best_score = max(progress.best_score, best)
            progress.restarts = len(out.reports)
            progress.elapsed = time.monotonic() - started
            on_progress(progress)

    index = 0
    while job.restarts is None or index < job.restarts:
        budget = Budget(deadline, job.target, stop)
        report, interrupted = _restart_catching_interrupt(job, index, budget, _throttled(send))
        out.reports.append(report)
        index += 1
        if interrupted:
            out.interrupted = True
            break
        if not report.complete:
            break
    return out


def _restart_catching_interrupt(
    job: Job, index: int, budget: Budget, on_batch: Callable[[Search], None]
) -> tuple[RestartReport, bool]:
    """A restart that turns Ctrl-C into a stop, so the boards found so far are kept."""
    hits = [0]
    outer_stop = budget.stop
    budget.stop = lambda: hits[0] > 0 or (outer_stop is not None and outer_stop())
    previous = _catch_interrupts(hits)
    try:
        report = run_restart(job.problem, job.strategy, job.params, job.seed, index, budget, job.top, on_batch)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return report, hits[0] > 0


def _worker(w: int, k: int, job: Job, q: Any, stop: Any, parent: int) -> None:
    """A worker process: restarts w, w+k, ... until done or stopped (or its parent is gone: lifeline.py)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and tells us through `stop`
    try:
        deadline = time.monotonic() + job.time_limit if job.time_limit is not None else None
        done = 0

        def send(evaluated: int, best: int) -> None:
            q.put(("progress", w, (done + evaluated, best)))

        index = w
        while job.restarts is None or index < job.restarts:
            budget = Budget(deadline, job.target, stop.is_set)
            report = run_restart(
                job.problem, job.strategy, job.params, job.seed, index, budget, job.top, _throttled(send)
            )
            done += report.evaluated
            q.put(("restart", w, report))
            if not report.complete:
                break
            index += k
        q.put(("done", w, None))
    except Exception as exc:  # reported to the parent, which says which worker failed
        q.put(("error", w, f"{type(exc).__name__}: {exc}"))


def start_method() -> str:
    """`fork` where it exists (workers inherit the prepared scorer), else `spawn`."""
    return "fork" if "fork" in mp.get_all_start_methods() else "spawn"


def run_processes(job: Job, workers: int, on_progress: Callable[[Progress], None] | None = None) -> Outcome:
    """Restarts shared by `workers` local processes."""
    method = start_method()
    ctx: Any = mp.get_context(method)
    if method == "fork":
        job.problem.prepare()  # compile once here; forked workers inherit it
    q = ctx.Queue()
    stop = ctx.Event()
    procs = [
        ctx.Process(target=_worker, args=(w, workers, job, q, stop, os.getpid()), daemon=True, name=f"boggle-opt-{w}")
        for w in range(workers)
    ]
    started = time.monotonic()
    for p in procs:
        p.start()
    out = Outcome()
    finished: set[int] = set()
    progress = Progress()
    live: dict[int, tuple[int, int]] = {}
    done_eval: dict[int, int] = {}

    def handle(msg: tuple[str, int, Any]) -> None:
        kind, w, data = msg
        if kind == "progress":
            live[w] = data
        elif kind == "restart":
            out.reports.append(data)
            done_eval[w] = done_eval.get(w, 0) + data.evaluated
            live[w] = (done_eval[w], max(live.get(w, (0, -1))[1], data.best_score))
            if data.reached:
                stop.set()
        elif kind == "done":
            finished.add(w)
        elif kind == "error":
            finished.add(w)
            out.errors.append(f"worker {w} failed: {data}")
        best = max((b for _, b in live.values()), default=-1)
        if best > out.best_score:
            out.best_score, out.best_at = best, time.monotonic() - started
        if on_progress is not None:
            progress.evaluated = sum(e for e, _ in live.values())
            progress.best_score = best
            progress.restarts = len(out.reports)
            progress.elapsed = time.monotonic() - started
            on_progress(progress)

    def stop_on_interrupt() -> None:
        """Ctrl-C: tell every worker to stop, then collect what they finish within the grace period."""
        out.interrupted = True
        stop.set()
        deadline = time.monotonic() + GRACE
        while len(finished) < workers and time.monotonic() < deadline and interrupts[0] < 2:
            try:
                handle(q.get(timeout=0.2))
            except queue_mod.Empty:
                if all(p.exitcode is not None for w, p in enumerate(procs) if w not in finished):
                    break

    # Ctrl-C only sets a flag: raised as KeyboardInterrupt it could land inside a queue
    # read, between a message's length and its body, and leave the pipe unreadable.
    interrupts = [0]
    previous = _catch_interrupts(interrupts)
    try:
        while len(finished) < workers:
            if interrupts[0]:
                stop_on_interrupt()
                break
            try:
                handle(q.get(timeout=0.2))
                continue
            except queue_mod.Empty:
                pass
            for w, p in enumerate(procs):
                if w not in finished and p.exitcode is not None:
                    _drain(q, handle, 0.3)
                    if w not in finished:
                        finished.add(w)
                        out.errors.append(f"worker {w} died (exit code {p.exitcode}); its finished restarts are kept")
            if job.time_limit is not None and time.monotonic() - started > job.time_limit + GRACE:
                stop.set()
                _drain(q, handle, 1.0)
                for w in range(workers):
                    if w not in finished:
                        finished.add(w)
                        out.errors.append(f"worker {w} did not stop {GRACE:.0f} s after the time limit; ended it")
                break
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        stop.set()
        for p in procs:
            p.join(timeout=2.0)
            if p.is_alive():
                p.terminate()
                p.join(timeout=2.0)
        q.close()
    return out


def _catch_interrupts(count: list[int]) -> Any:
    """Count SIGINTs in `count[0]` instead of raising; the previous handler, or None off the main thread."""

    def handler(signum: int, frame: Any) -> None:
        count[0] += 1

    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: Ctrl-C cannot reach us here anyway
        return None


def _drain(q: Any, handle: Callable[[tuple[str, int, Any]], None], wait: float) -> None:
    end = time.monotonic() + wait
    while True:
        try:
            handle(q.get(timeout=max(0.0, end - time.monotonic())))
        except queue_mod.Empty:
            return
