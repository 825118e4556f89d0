"""Where a proof's tasks run: this process, K local worker processes, or a Dask cluster.

Every executor takes the tasks still to do and calls `on_done(result)` in this
process as each one finishes (the checkpoint and the progress display hang
there), in whatever order they finish: tasks are independent and their costs
very uneven. A worker that dies costs only the tasks it was running, which
run again; Ctrl-C stops the workers and leaves every finished task recorded.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ..errors import BoggleI18nError
from ..lifeline import die_with_parent
from .tasks import ProofSpec, TaskResult, run_task

MAX_RESTARTS = 5  # times a pool may lose a worker before the proof gives up
WINDOW_PER_THREAD = 8  # cluster tasks in flight per worker thread
MIN_WINDOW = 64  # and at least this many

OnDone = Callable[[TaskResult], None]


def run_serial(spec: ProofSpec, tasks: Sequence[int], on_done: OnDone) -> None:
    """Every task here, one after another."""
    for task in tasks:
        on_done(run_task(spec, task))


@contextmanager
def stop_on_termination() -> Iterator[None]:
    """While a proof runs, SIGTERM and SIGHUP (`kill`, a closed terminal, a session ending) stop it as Ctrl-C
    does: workers are ended and finished tasks stay in the checkpoint. Without this a killed parent leaves its
    workers running their classes. Only the main thread may set handlers; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    names = [n for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {n: signal.signal(getattr(signal, n), interrupt) for n in names}
    try:
        yield
    finally:
        for n, handler in before.items():
            signal.signal(getattr(signal, n), handler)


def _quiet_worker(parent: int) -> None:
    die_with_parent(parent)  # a SIGKILLed parent (the OOM killer) takes its workers with it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends the workers
    for name in ("SIGTERM", "SIGHUP"):  # forked with the parent's handlers: a worker inside C must die at once
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def run_processes(spec: ProofSpec, tasks: Sequence[int], workers: int, on_done: OnDone) -> list[str]:
    """Tasks on `workers` local processes; returns notes about workers that died (their tasks ran again)."""
    notes: list[str] = []
    left = list(tasks)
    restarts = 0
    context = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    while left:
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_quiet_worker, initargs=(os.getpid(),))
        futures: dict[Future[TaskResult], int] = {}
        queue = list(left)
        try:
            while queue or futures:
                while queue and len(futures) < 2 * workers:  # a few queued: a free worker never waits
                    task = queue.pop(0)
                    futures[pool.submit(run_task, spec, task)] = task
                finished, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = futures.pop(future)
                    on_done(future.result())
                    left.remove(task)
        except BrokenProcessPool:
            restarts += 1
            notes.append(f"a worker process died; {len(left)} unfinished tasks run again")
            pool.shutdown(wait=True, cancel_futures=True)  # its workers are dead or ended by its manager thread
            if restarts > MAX_RESTARTS:
                raise BoggleI18nError(f"worker processes died {restarts} times; the proof stops") from None
        except BaseException:
            _terminate(pool)
            try:  # let the pool's own threads see their workers gone and stop, before this process exits
                pool.shutdown(wait=True, cancel_futures=True)
            except BaseException:  # a second Ctrl-C: leave now
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        # Every task is done (or the pool broke): its workers are idle or dead, so this wait is short. It must be
        # waited for: the pool's manager thread closes its wake-up pipe as it ends, and CPython 3.11's exit hook
        # (concurrent.futures.process._python_exit) writes to that pipe without the pool's lock (CPython gh-125451,
        # fixed from 3.12 with a lock of the pipe's own), so a manager thread still ending as the command exits
        # could make an `OSError: [Errno 9] Bad file descriptor` traceback (issue 38). Joined here, the pipe is
        # closed before anything else runs.
        pool.shutdown(wait=True, cancel_futures=True)
    return notes


def _terminate(pool: ProcessPoolExecutor) -> None:
    """End a pool's processes now (Ctrl-C): finished tasks are already recorded."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()


def run_cluster(spec: ProofSpec, tasks: Sequence[int], cluster: Any, on_done: OnDone) -> tuple[list[str], str]:
    """Tasks on a Dask cluster (an address or a `distributed.Client`); returns (notes, scheduler address).

    The spec travels once to every worker with the trie bytes; a task whose worker dies is retried by Dask
    on another worker (up to 3 times)."""
    from ..optimize.cluster import connect

    client, own = connect(cluster)
    from distributed import as_completed

    notes: list[str] = []
    futures: set[Any] = set()
    try:
        shared = client.scatter(replace(spec, problem=spec.problem.portable()), broadcast=True)
        # A window of tasks in flight, refilled as they finish: a proof cut into 300,000 tasks once took minutes
        # to submit (one future at a time) and as long to cancel; the window keeps every worker busy, also
        # workers that join later (up to WINDOW_PER_THREAD tasks queued per thread seen at the start).
        window = max(MIN_WINDOW, WINDOW_PER_THREAD * sum(client.nthreads().values()))
        queue = iter(tasks)

        def submit(task: int) -> Any:
            future = client.submit(run_task, shared, task, pure=False, retries=3)
            futures.add(future)
            return future

        running = as_completed([submit(task) for task in itertools.islice(queue, window)])
        for future in running:
            futures.discard(future)
            try:
                result = future.result()
            except Exception as exc:
                raise BoggleI18nError(f"a proof task failed on the cluster: {type(exc).__name__}: {exc}") from None
            on_done(result)
            following = next(queue, None)
            if following is not None:
                running.add(submit(following))
    finally:
        for future in futures:
            future.cancel()
        address = str((getattr(client, "scheduler", None) and client.scheduler.address) or cluster)
        if own:
            client.close()
    return notes, address
