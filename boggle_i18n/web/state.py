"""What the web app's requests share: lexicons loaded once, prepared scorers pooled, and long jobs.

Nothing here decides a rule: lexicons come from `api.load_lexicon`, scorers from
`prepare_scorer`, boards and rules from `solving`/`selection`; this module only
keeps them alive between requests and bounds what a client can start.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..api import load_lexicon
from ..board.board import Board
from ..digest import sha256_hex
from ..errors import BoggleI18nError
from ..folders import read_regular, with_suffix
from ..lexicon.store import Lexicon
from ..solver.base import Rules, SolveResult
from ..solver.scorer import Scorer, prepare_scorer

BUILD_WAIT = 1.5  # seconds a request waits for a lexicon before answering "building" (202)
MAX_JOBS = 2  # long jobs (optimize, compare) running at once, across all clients
JOB_KEEP = 600.0  # seconds a finished job's result stays readable
MAX_SCORERS = 16  # idle prepared scorers kept, all rule sets together (least recently used go first)
MAX_SCORER_BYTES = 64 * 2**20  # and their own arrays' bytes (each has a stamp per trie node: 0.7 MiB for ENABLE2K)
MAX_POOLED_FACES = 2048  # a scorer whose face codec has grown past this many faces is not kept


def _language_of(name: str) -> str | None:
    """The language code of a shipped recipe's lexicon (None for a name of the user's own)."""
    from ..pipeline.recipe import load_recipe

    try:
        return load_recipe(name).language
    except (BoggleI18nError, OSError):
        return None


class Building(Exception):
    """A lexicon is being built: the request answers 202 with the build's progress lines."""

    def __init__(self, name: str, lines: list[str], lang: str | None = None, percent: int | None = None) -> None:
        super().__init__(f"lexicon {name!r} is being built")
        self.name, self.lines = name, lines
        self.lang, self.percent = lang, percent  # the page says "building the <language> word list (n%)"

    def to_dict(self) -> dict[str, Any]:
        """The 202 answer: what is built, its language, how far, and the library's progress lines."""
        return {
            "building": self.name,
            "lang": self.lang,
            "percent": self.percent,
            "lines": self.lines,
            "error": f"lexicon {self.name!r} is being built: try again",
        }


class Busy(BoggleI18nError):
    """Too many long jobs are running (answered 429)."""


class NotBuilt(BoggleI18nError):
    """A request that may not build (a GET) needs a lexicon that is not built, or built from an older recipe (409:
    the page asks for the build with a POST)."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"lexicon {name!r} is not built here: build it first (POST /api/lexicons/{name}/build, "
            f"or boggle-i18n build-lexicon {name})",
            code="lexicon.not_built",
            params={"name": name},
        )
        self.name = name


@dataclass
class _Load:
    """One lexicon being loaded or built in a thread of its own."""

    name: str
    lines: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)
    lexicon: Lexicon | None = None
    error: BoggleI18nError | None = None
    may_build: bool = False
    building: bool = False
    lang: str | None = None  # the language of the lexicon being built, once a build starts
    percent: int | None = None  # how much of its list the build has read (None: not known, an expanded dictionary)
    started: float = field(default_factory=time.monotonic)
    identity: tuple[int, ...] | None = None  # the manifest file's (device, inode, mtime, size) when last seen


def _identity(path: str) -> tuple[int, ...] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)


def _loaded_identity(lexicon: Lexicon) -> tuple[int, ...] | None:
    """The identity of `lexicon`'s manifest file as loaded; None (checked by content on the next request) when
    a rebuild may have come between the load and this look."""
    trie = lexicon.path
    if trie is None:
        return None
    manifest = with_suffix(trie, ".json")
    identity = _identity(manifest)  # first the identity, then the content it must belong to
    try:
        same = sha256_hex(read_regular(manifest)) == lexicon.stored_manifest_sha256  # the file's, word lists aside
    except OSError:
        same = False
    return identity if same else None


def is_current(load: _Load) -> bool:
    """Whether a loaded lexicon is still the one in the store: False once it was rebuilt (or replaced) there.

    One `stat` of its manifest per request; only when the file's identity changed is the manifest read, and
    the lexicon is stale when its sha256 is not the loaded one's (a `touch` changes nothing). A lexicon whose
    files are gone, or unreadable now, is kept: what is loaded still answers.
    """
    lexicon = load.lexicon
    trie = lexicon.path if lexicon is not None else None
    if lexicon is None or trie is None or lexicon.manifest_sha256 is None:
        return True
    manifest = with_suffix(trie, ".json")
    now = _identity(manifest)
    if now is None or now == load.identity:
        return True
    try:
        raw = read_regular(manifest)
    except OSError:
        return True
    if sha256_hex(raw) == lexicon.stored_manifest_sha256:
        load.identity = now
        return True
    return False


class Lexicons:
    """Lexicons by name, each loaded (or built) once in a background thread and shared by every request.

    One build runs at a time (a build takes a core and hundreds of MB for seconds);
    loading a built lexicon never waits for one. Only a caller that says `build=True`
    (a POST) may start a build; any caller may wait for one already running. A failed
    load is forgotten once reported, so the next request tries again and names that
    fail do not pile up.
    """

    def __init__(self, store: str | os.PathLike[str] | None) -> None:
        self.store = store
        self._loads: dict[str, _Load] = {}
        self._lock = threading.Lock()
        self._build = threading.Lock()

    def get(self, name: str, wait: float = BUILD_WAIT, build: bool = False) -> Lexicon:
        """The loaded lexicon; raises `Building` if it is still being built after `wait` s, `NotBuilt` if it needs
        a build and `build` is false, or its load's error."""
        for attempt in range(2):  # a load that may not build failed NotBuilt while a build is asked for: once more
            with self._lock:
                load = self._loads.get(name)
                stale = load is not None and load.done.is_set() and load.error is None and not is_current(load)
                if load is None or stale or (load.error is not None and load.done.is_set()):
                    load = self._loads[name] = _Load(name, may_build=build)
                    threading.Thread(target=self._load, args=(load,), name=f"lexicon-{name}", daemon=True).start()
            if not load.done.wait(wait):
                raise Building(name, list(load.lines), load.lang, load.percent)
            if load.error is None:
                assert load.lexicon is not None
                return load.lexicon
            with self._lock:
                if self._loads.get(name) is load:
                    del self._loads[name]
            if isinstance(load.error, NotBuilt) and not (build and attempt == 0):
                raise NotBuilt(name)
            if not isinstance(load.error, NotBuilt):
                # a new exception per request (threads share `load`), with the same code and params
                raise BoggleI18nError(str(load.error), code=load.error.code, params=load.error.params)
        raise NotBuilt(name)  # pragma: no cover - the second attempt may build, so it never fails NotBuilt

    def forget(self, name: str) -> None:
        """Drop a loaded lexicon, so the next request loads it again (the player's word lists changed).
        A load still running is left alone: it reads the lists when it opens the lexicon."""
        with self._lock:
            load = self._loads.get(name)
            if load is not None and load.done.is_set():
                del self._loads[name]

    def _load(self, load: _Load) -> None:
        def on_build(name: str) -> None:
            if not load.may_build:
                raise NotBuilt(name)
            load.building = True
            load.lang = _language_of(name)
            if not self._build.acquire(blocking=False):
                load.lines.append(f"lexicon {name} is not built yet: waiting for another build to finish")
                self._build.acquire()
            load.lines.append(f"lexicon {name} is not built yet: building it")

        try:
            load.lexicon = load_lexicon(
                load.name, self.store, on_build=on_build, progress=load.lines.append, on_read=self._reader(load)
            )
            load.identity = _loaded_identity(load.lexicon)
            if load.building:
                load.lines.append(f"built in {time.monotonic() - load.started:.1f} s")
        except BoggleI18nError as exc:
            load.error = exc
        except OSError as exc:
            load.error = BoggleI18nError(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        except Exception as exc:  # a bug, or a damaged file: reported to the client as one line, never a traceback
            load.error = BoggleI18nError(f"lexicon {load.name!r} could not be loaded: {type(exc).__name__}: {exc}")
        finally:
            if load.building:
                self._build.release()
            load.done.set()

    @staticmethod
    def _reader(load: _Load) -> Callable[[int], None]:
        def on_read(percent: int) -> None:
            load.percent = percent

        return on_read

    def status(self) -> dict[str, dict[str, Any]]:
        """Every lexicon this server has loaded or is building: state and progress lines."""
        with self._lock:
            loads = list(self._loads.values())
        out: dict[str, dict[str, Any]] = {}
        for load in loads:
            state = "building" if not load.done.is_set() else ("error" if load.error else "loaded")
            error = None if load.error is None else str(load.error)
            out[load.name] = {"state": state, "lines": list(load.lines), "error": error}
            if load.building:
                out[load.name].update(lang=load.lang, percent=load.percent)
            if load.lexicon is not None:
                out[load.name]["word_count"] = len(load.lexicon)
        return out


ScorerKey = tuple[int, "str | None", Rules, tuple[int, int]]  # (lexicon id, its manifest sha256, rules, shape)


class Scorers:
    """Prepared fast-engine scorers per (lexicon, rules, shape), kept for the next request with the same key.

    A scorer keeps board state, so each request in flight has its own; when it has
    answered it goes back to the pool (one that raised is dropped, so a bad request cannot spoil it for the
    next). The pool is bounded: at most `max_count` idle
    scorers and `max_bytes` of their own arrays, the least recently used key
    dropped first. Without a bound every distinct scoring table a client sends
    would pin a scorer for good (0.7 MiB each with ENABLE2K).
    """

    def __init__(self, max_count: int = MAX_SCORERS, max_bytes: int = MAX_SCORER_BYTES) -> None:
        self.max_count, self.max_bytes = max_count, max_bytes
        self._idle: OrderedDict[ScorerKey, list[tuple[Scorer, int]]] = OrderedDict()
        self._count = self._bytes = 0
        self._lock = threading.Lock()

    def solve(self, lexicon: Lexicon, rules: Rules, board: Board) -> SolveResult:
        """Solve `board` with an idle prepared scorer, preparing one only when none is idle."""
        key = (id(lexicon), lexicon.manifest_sha256, rules, board.size)  # a rebuilt lexicon never meets old scorers
        scorer = None
        with self._lock:
            idle = self._idle.get(key)
            if idle:
                scorer, size = idle.pop()
                self._count -= 1
                self._bytes -= size
                if not idle:
                    del self._idle[key]
        if scorer is None:
            scorer = prepare_scorer(lexicon, rules, board.size, engine="fast")
        result = scorer.solve(board)
        # only a scorer that answered goes back: one that raised may hold what raised (a face its codec took
        # in), and pooled it would fail every later request with the same key until the server restarts
        self._put(key, scorer)
        return result

    def _put(self, key: ScorerKey, scorer: Scorer) -> None:
        if len(getattr(getattr(scorer, "codec", None), "faces", ())) > MAX_POOLED_FACES:
            return  # its face codec grew with thousands of distinct faces a client sent: not kept
        size = scorer_bytes(scorer)
        with self._lock:
            self._idle.setdefault(key, []).append((scorer, size))
            self._idle.move_to_end(key)
            self._count += 1
            self._bytes += size
            while self._idle and (self._count > self.max_count or self._bytes > self.max_bytes):
                oldest = next(iter(self._idle))
                _, dropped = self._idle[oldest].pop(0)
                self._count -= 1
                self._bytes -= dropped
                if not self._idle[oldest]:
                    del self._idle[oldest]

    def usage(self) -> tuple[int, int]:
        """(idle scorers, their bytes) now."""
        with self._lock:
            return self._count, self._bytes


def scorer_bytes(scorer: Any) -> int:
    """The bytes a prepared scorer holds of its own: its numpy arrays and its face codec (the compiled trie is
    shared by every scorer of a lexicon, so not counted)."""
    own = [v for k, v in vars(scorer).items() if k != "compiled" and isinstance(v, np.ndarray)]
    codec = getattr(scorer, "codec", None)
    faces = getattr(codec, "faces", ())
    return sum(int(v.nbytes) for v in own) + 64 * len(faces) * (1 + max(map(len, faces), default=0)) + 4096


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
    error_code: str | None = None  # the library's code and params of `error` (errors.CODES), for the page
    error_params: dict[str, Any] = field(default_factory=dict)
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
            **({"error_code": self.error_code, "error_params": self.error_params} if self.error_code else {}),
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
            raise Busy("the server is stopping", code="server.busy")
        with self._lock:
            self._forget_old()
            running = [j for j in self._jobs.values() if j.state == "running"]
            if len(running) >= self.limit:
                raise Busy(
                    f"{len(running)} long jobs are running (at most {self.limit}): stop one or wait", code="server.busy"
                )
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
            job.error_code, job.error_params = exc.code, dict(exc.params)
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
