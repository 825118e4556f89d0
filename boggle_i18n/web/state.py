"""What the web app's requests share: lexicons loaded once, prepared scorers pooled, and long jobs.

Nothing here decides a rule: lexicons come from `api.load_lexicon`, scorers from
`prepare_scorer`, boards and rules from `solving`/`selection`; this module only
keeps them alive between requests and bounds what a client can start.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..api import load_lexicon
from ..board.board import Board
from ..errors import BoggleI18nError
from ..lexicon.store import Lexicon
from ..solver.base import Rules, SolveResult
from ..solver.scorer import Scorer, prepare_scorer

BUILD_WAIT = 1.5  # seconds a request waits for a lexicon before answering "building" (202)
MAX_JOBS = 2  # long jobs (optimize, compare) running at once, across all clients
JOB_KEEP = 600.0  # seconds a finished job's result stays readable


class Building(Exception):
    """A lexicon is being built: the request answers 202 with the build's progress lines."""

    def __init__(self, name: str, lines: list[str]) -> None:
        super().__init__(f"lexicon {name!r} is being built")
        self.name, self.lines = name, lines


class Busy(BoggleI18nError):
    """Too many long jobs are running (answered 429)."""


@dataclass
class _Load:
    """One lexicon being loaded or built in a thread of its own."""

    name: str
    lines: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)
    lexicon: Lexicon | None = None
    error: str | None = None
    building: bool = False
    started: float = field(default_factory=time.monotonic)


class Lexicons:
    """Lexicons by name, each loaded (or built) once in a background thread and shared by every request.

    One build runs at a time (a build takes a core and hundreds of MB for seconds);
    loading a built lexicon never waits for one. A failed load is forgotten once
    reported, so the next request tries again and names that fail do not pile up.
    """

    def __init__(self, store: str | os.PathLike[str] | None) -> None:
        self.store = store
        self._loads: dict[str, _Load] = {}
        self._lock = threading.Lock()
        self._build = threading.Lock()

    def get(self, name: str, wait: float = BUILD_WAIT) -> Lexicon:
        """The loaded lexicon; raises `Building` if it is still being built after `wait` s, or its build's error."""
        with self._lock:
            load = self._loads.get(name)
            if load is None or (load.error is not None and load.done.is_set()):
                load = self._loads[name] = _Load(name)
                threading.Thread(target=self._load, args=(load,), name=f"lexicon-{name}", daemon=True).start()
        if not load.done.wait(wait):
            raise Building(name, list(load.lines))
        if load.error is not None:
            with self._lock:
                if self._loads.get(name) is load:
                    del self._loads[name]
            raise BoggleI18nError(load.error)
        assert load.lexicon is not None
        return load.lexicon

    def _load(self, load: _Load) -> None:
        def on_build(name: str) -> None:
            load.building = True
            if not self._build.acquire(blocking=False):
                load.lines.append(f"lexicon {name} is not built yet: waiting for another build to finish")
                self._build.acquire()
            load.lines.append(f"lexicon {name} is not built yet: building it")

        try:
            load.lexicon = load_lexicon(load.name, self.store, on_build=on_build, progress=load.lines.append)
            if load.building:
                load.lines.append(f"built in {time.monotonic() - load.started:.1f} s")
        except BoggleI18nError as exc:
            load.error = str(exc)
        except OSError as exc:
            load.error = f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)
        except Exception as exc:  # a bug: reported to the client as one line, never a traceback
            load.error = f"{type(exc).__name__}: {exc}"
        finally:
            if load.building:
                self._build.release()
            load.done.set()

    def status(self) -> dict[str, dict[str, Any]]:
        """Every lexicon this server has loaded or is building: state and progress lines."""
        with self._lock:
            loads = list(self._loads.values())
        out: dict[str, dict[str, Any]] = {}
        for load in loads:
            state = "building" if not load.done.is_set() else ("error" if load.error else "loaded")
            out[load.name] = {"state": state, "lines": list(load.lines), "error": load.error}
            if load.lexicon is not None:
                out[load.name]["word_count"] = len(load.lexicon)
        return out


class Scorers:
    """Prepared fast-engine scorers per (lexicon, rules, shape): one per request in flight (each keeps board state)."""

    def __init__(self) -> None:
        self._idle: dict[tuple[int, Rules, tuple[int, int]], queue.SimpleQueue[Scorer]] = {}
        self._lock = threading.Lock()

    def solve(self, lexicon: Lexicon, rules: Rules, board: Board) -> SolveResult:
        """Solve `board` with an idle prepared scorer, preparing one only when all are busy."""
        key = (id(lexicon), rules, board.size)
        with self._lock:
            idle = self._idle.setdefault(key, queue.SimpleQueue())
        try:
            scorer = idle.get_nowait()
        except queue.Empty:
            scorer = prepare_scorer(lexicon, rules, board.size, engine="fast")
        try:
            return scorer.solve(board)
        finally:
            idle.put(scorer)


@dataclass
class Job:
    """A long job (optimize, compare) running in a thread: its progress events, result, and a stop flag."""

    id: str
    kind: str
    params: dict[str, Any]
    stop: threading.Event = field(default_factory=threading.Event)
    events: list[dict[str, Any]] = field(default_factory=list)
    state: str = "running"  # running | done | stopped | error
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    thread: threading.Thread | None = None

    def emit(self, event: dict[str, Any]) -> None:
        """Record a progress event (the SSE stream sends each one once)."""
        self.events.append({"t": round(time.monotonic() - self.started, 3), **event})

    def to_dict(self) -> dict[str, Any]:
        """What GET /api/jobs/ID answers."""
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "params": self.params,
            "events": len(self.events),
            "last": self.events[-1] if self.events else None,
            "result": self.result,
            "error": self.error,
            "seconds": round((self.ended or time.monotonic()) - self.started, 3),
        }


class Jobs:
    """At most `limit` long jobs at once; each can be stopped, and all are stopped on shutdown."""

    def __init__(self, limit: int = MAX_JOBS) -> None:
        self.limit = limit
        self.closing = threading.Event()  # set once the server is stopping: no new jobs, streams end
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, kind: str, params: dict[str, Any], work: Callable[[Job], Any]) -> Job:
        """Run `work(job)` in a thread; its return value is the job's result."""
        if self.closing.is_set():
            raise Busy("the server is stopping")
        with self._lock:
            self._forget_old()
            running = [j for j in self._jobs.values() if j.state == "running"]
            if len(running) >= self.limit:
                raise Busy(f"{len(running)} long jobs are running (at most {self.limit}): stop one or wait")
            job = Job(uuid.uuid4().hex[:16], kind, params)
            self._jobs[job.id] = job
        job.thread = threading.Thread(target=self._run, args=(job, work), name=f"job-{kind}-{job.id}", daemon=True)
        job.thread.start()
        return job

    def _run(self, job: Job, work: Callable[[Job], Any]) -> None:
        try:
            job.result = work(job)
            job.state = "stopped" if job.stop.is_set() else "done"
        except BoggleI18nError as exc:
            job.error, job.state = str(exc), "error"
        except Exception as exc:  # a bug: one line to the client, never a traceback
            job.error, job.state = f"{type(exc).__name__}: {exc}", "error"
        finally:
            job.ended = time.monotonic()

    def get(self, job_id: str) -> Job | None:
        """The job, or None if unknown (or forgotten)."""
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> int:
        """How many jobs are running."""
        with self._lock:
            return sum(1 for j in self._jobs.values() if j.state == "running")

    def _forget_old(self) -> None:
        now = time.monotonic()
        for key in [k for k, j in self._jobs.items() if j.ended is not None and now - j.ended > JOB_KEEP]:
            del self._jobs[key]

    def stop_all(self) -> None:
        """Ask every job to stop (Ctrl-C): their event streams then end, so the server's connections close."""
        self.closing.set()
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.stop.set()

    def shutdown(self, wait: float = 5.0) -> None:
        """Stop every job and wait for their threads (the server is stopping)."""
        self.stop_all()
        with self._lock:
            jobs = list(self._jobs.values())
        end = time.monotonic() + wait
        for job in jobs:
            if job.thread is not None:
                job.thread.join(max(0.0, end - time.monotonic()))
