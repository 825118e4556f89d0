"""Checkpoints: a proof's finished tasks, one JSON line each, so a killed run resumes without redoing them.

The first line names the proof (`ProofSpec.identity()`); each later line is
one finished task, appended and flushed to disk as soon as it is done. A run
killed mid-write leaves at most a torn last line, which a resume drops and
redoes. Anything else that does not parse, or a header of another proof
(another lexicon, rules, size, buckets or threshold), is an error naming what
differs: a foreign checkpoint is never mixed into a proof.

A checkpoint is a claim, read back as one (`verify_resumed`): every field has
its type and a finite value, task numbers lie inside the proof, and every board
a line names is scored again and dropped unless it reaches the threshold (its
score and word count are corrected). Each line written since format 2 carries
`check`, a sha256 over the proof's header and the line: a line edited by hand
(a best board removed, a count changed) fails it, and its task is searched again.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import BoggleI18nError
from ..folders import read_regular
from .tasks import TaskResult

if TYPE_CHECKING:
    from .tasks import ProofSpec

FORMAT = "boggle-i18n-proof-checkpoint"
VERSION = 2  # 2: each task line carries `check`; version 1 files (no checks) are still read
READ_VERSIONS = (1, 2)


LOCK_SUFFIX = ".lock"  # the sidecar beside a checkpoint that a running proof holds (flock)
_held: dict[str, int] = {}  # lock paths this process holds -> how many `checkpoint_lock` blocks hold each
_held_guard = threading.Lock()


def lock_path(path: Path) -> Path:
    """The sidecar lock of checkpoint `path`: beside the file a link points to, so every name for one
    checkpoint meets the same lock."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + LOCK_SUFFIX)


@contextmanager
def checkpoint_lock(path: Path) -> Iterator[None]:
    """Hold checkpoint `path` for this proof alone: an exclusive `flock` on its sidecar `PATH.lock`, which names
    the holder (pid, start time, command). A second run on the same checkpoint is refused at once with one error
    naming the holder, before it reads or writes anything (two runs once both appended, duplicating tasks).

    Reentrant within a process (the command takes it before its threshold search, `prove` again). The lock dies
    with its holder, a SIGKILLed one too: the kernel drops a flock with the last descriptor (worker processes are
    forked with it, and die with their parent: lifeline.py). The sidecar is removed on release.
    """
    lock = lock_path(path)
    key = str(lock)
    with _held_guard:
        if key in _held:
            _held[key] += 1
            fd = -1
        else:
            fd = _acquire(path, lock)
            _held[key] = 1
    try:
        yield
    finally:
        with _held_guard:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]
                if fd >= 0:
                    _release(lock, fd)


def _acquire(path: Path, lock: Path) -> int:
    import fcntl

    for _ in range(20):  # the lock file replaced between our open and our flock (its holder let go): again
        try:
            flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(lock, flags, 0o666)  # the user's umask applies
        except OSError as exc:
            raise BoggleI18nError(f"cannot lock checkpoint {path} ({lock}): {exc.strerror or exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise BoggleI18nError(f"cannot lock checkpoint {path}: {lock} is not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                raise BoggleI18nError(
                    f"checkpoint {path} is in use by another prove ({holder}): wait for it to finish or stop it; "
                    "two runs on one checkpoint would both append to it"
                ) from None
            try:
                same = os.stat(lock, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                text = f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}: {_command()}\n"
                os.ftruncate(fd, 0)
                os.pwrite(fd, text.encode("utf-8", "replace"), 0)
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise BoggleI18nError(f"cannot lock checkpoint {path}: {lock} keeps being replaced")  # pragma: no cover


def _release(lock: Path, fd: int) -> None:
    """Remove the sidecar while still holding it (a run waiting to open it then finds a new file), then let go."""
    import fcntl

    try:
        if os.stat(lock, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
            os.unlink(lock)
    except OSError:
        pass
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)  # forked workers share the descriptor: released for them too
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    """What the lock's holder wrote about itself (its first line, cut short), or a plain word if nothing yet."""
    try:
        text = os.pread(fd, 400, 0).decode("utf-8", "replace").splitlines()
    except OSError:
        text = []
    line = text[0].strip() if text else ""
    return line[:200] if line else "a process that has not yet said which"


def _command() -> str:
    """This process's command line, its program by base name, cut short."""
    words = [os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python", *sys.argv[1:]]
    return " ".join(words)[:160]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _loads(line: bytes) -> Any:
    """JSON without NaN or Infinity (Python's json takes both; a checkpoint never holds them)."""
    return json.loads(line, parse_constant=_no_constant)


def line_check(identity: dict[str, Any], record: dict[str, Any]) -> str:
    """The `check` of a task line: sha256 over the proof's identity and the record (both canonical JSON)."""
    text = json.dumps(
        [identity, {k: v for k, v in record.items() if k != "check"}],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass
class CheckpointLines:
    """What `read_checkpoint` found beyond the tasks: lines whose check failed (their tasks are redone)."""

    failed_checks: list[int] = field(default_factory=list)  # line numbers
    unchecked: int = 0  # lines without a check (a version 1 file)


def read_checkpoint(
    path: Path,
    tasks_total: int | None = None,
    lines_seen: CheckpointLines | None = None,
    wanted: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[int, TaskResult], bool]:
    """(header identity, finished tasks by number, whether a torn last line was dropped).

    With `wanted` (this proof's identity) a checkpoint of another proof is refused first, as such, before its
    lines are read against this proof's task count.

    Every line's fields are checked for type and finite values, and task numbers
    against `tasks_total` when given: a line that fails is one error naming it.
    A line whose `check` differs is left out (its task is searched again) and
    its number noted in `lines_seen`.
    """
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise BoggleI18nError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")
    torn = bool(lines and lines[-1])  # no newline after the last record: it was cut off
    complete_lines = lines[:-1]
    if not complete_lines:
        raise BoggleI18nError(f"checkpoint {path} has no header line; it is not a proof checkpoint")
    try:
        header = _loads(complete_lines[0])
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BoggleI18nError(f"checkpoint {path} does not start with a proof header; it is not a checkpoint") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not isinstance(header.get("proof"), dict):
        raise BoggleI18nError(f"{path} is not a boggle-i18n proof checkpoint")
    version = header.get("version")
    if type(version) is not int or version not in READ_VERSIONS:
        raise BoggleI18nError(f"checkpoint {path} has format version {str(version)[:20]}, not {VERSION}")
    identity: dict[str, Any] = header["proof"]
    threshold = identity.get("threshold")
    if type(threshold) is not int or threshold < 0:
        raise BoggleI18nError(f"checkpoint {path} has no valid threshold in its header")
    if wanted is not None:
        check_identity(path, identity, wanted)
    seen = lines_seen if lines_seen is not None else CheckpointLines()
    done: dict[int, TaskResult] = {}
    for number, line in enumerate(complete_lines[1:], 2):
        if not line.strip():
            continue
        try:
            data = _loads(line)
            result = _task_result(data, tasks_total)
        except _OutsideProof as exc:
            raise BoggleI18nError(f"checkpoint {path} line {number}: {exc}; it cannot be resumed") from None
        except (ValueError, UnicodeDecodeError, KeyError, TypeError, IndexError, RecursionError):
            raise BoggleI18nError(f"checkpoint {path} line {number} is damaged; it cannot be resumed") from None
        check = data.get("check")
        if check is None and version == 1:
            seen.unchecked += 1
        elif check != line_check(identity, data):
            seen.failed_checks.append(number)
            continue
        done[result.task] = result
    return identity, done, torn


class _OutsideProof(ValueError):
    """A task line that parses but cannot belong to this proof."""


def _shown(value: Any) -> str:
    """A value as the file has it (JSON), cut short."""
    try:
        return json.dumps(value)[:30]
    except ValueError:
        return str(value)[:30]


WHOLE_LIMIT = 1 << 63  # a count or score beyond a signed 64-bit integer is a hand edit, refused as one


def _whole(value: Any, name: str, high: int | None = None) -> int:
    high = WHOLE_LIMIT if high is None else min(high, WHOLE_LIMIT)
    if type(value) is not int or value < 0 or value >= high:
        span = f"0..{high - 1}" if high != WHOLE_LIMIT else "0..2**63-1"
        raise _OutsideProof(f"{name} {_shown(value)} is not a whole number in {span}")
    return value


def _seconds(value: Any, name: str) -> float:
    finite = (type(value) is int and 0 <= value < WHOLE_LIMIT) or (type(value) is float and math.isfinite(value))
    if not finite or value < 0:
        raise _OutsideProof(f"{name} {_shown(value)} is not a finite number of seconds")
    return float(value)


def _task_result(data: Any, tasks_total: int | None) -> TaskResult:
    """A task line, every field checked: whole numbers in range, finite seconds, boards as [text, int, int]."""
    if not isinstance(data, dict):
        raise TypeError("not an object")
    boards = data["boards"]
    if not isinstance(boards, list):
        raise TypeError("boards")
    checked = []
    for b in boards:
        if not isinstance(b, list) or len(b) != 3 or not isinstance(b[0], str) or len(b[0]) > 20_000:
            raise TypeError("board")
        checked.append((b[0], _whole(b[1], "a board's score"), _whole(b[2], "a board's word count")))
    return TaskResult(
        task=_whole(data["task"], "task", tasks_total),
        classes=_whole(data["classes"], "classes"),
        boards=checked,
        cpu_seconds=_seconds(data["cpu_seconds"], "cpu_seconds"),
        slowest_class=_seconds(data.get("slowest_class", 0.0), "slowest_class"),
        max_bound=_whole(data.get("max_bound", 0), "max_bound"),
        candidates=_whole(data.get("candidates", 0), "candidates"),
    )


def verify_resumed(spec: ProofSpec, done: dict[int, TaskResult]) -> list[str]:
    """Score again every board the checkpoint's tasks claim; keep those at or above the threshold, with their
    true score and word count. Returns a note per board corrected or dropped (the first few)."""
    from ..board.notation import parse_board
    from ..optimize.canonical import canonical_faces
    from .tasks import prover_for

    problem = spec.problem
    allowed = set(problem.faces)
    notes: list[str] = []
    scorer = None
    for result in done.values():
        kept = []
        for board, score, words in result.boards:
            try:
                parsed = parse_board(board, size=(problem.rows, problem.cols))
            except BoggleI18nError:
                parsed = None
            if parsed is None or not set(parsed.faces) <= allowed:
                notes.append(f"task {result.task}: {board[:40]!r} is not a board of this proof; dropped")
                continue
            if tuple(parsed.faces) != canonical_faces(tuple(parsed.faces), problem.rows, problem.cols):
                notes.append(f"task {result.task}: {board[:40]!r} is not in canonical form; dropped")
                continue
            if scorer is None:
                scorer = prover_for(spec).scorer
            scores, counts = scorer.score_codes(scorer.codec.encode(parsed))
            true_score, true_words = int(scores[0]), int(counts[0])
            if (true_score, true_words) != (score, words):
                notes.append(f"task {result.task}: {board} scores {true_score}, not {score} as the checkpoint said")
            if true_score >= spec.threshold:
                kept.append((board, true_score, true_words))
            else:
                notes.append(f"task {result.task}: {board} is below the threshold {spec.threshold}; dropped")
        result.boards = sorted(set(kept), key=lambda b: (-b[1], b[0]))
    return notes


def check_identity(path: Path, found: dict[str, Any], wanted: dict[str, Any]) -> None:
    """One error naming every field where the checkpoint's proof differs from this one."""
    differs = [k for k in sorted(set(found) | set(wanted)) if found.get(k) != wanted.get(k)]
    if differs:
        detail = "; ".join(f"{k}: checkpoint {found.get(k)!r}, now {wanted.get(k)!r}" for k in differs[:3])
        raise BoggleI18nError(f"checkpoint {path} belongs to another proof ({detail})")


class CheckpointWriter:
    """Appends finished tasks to a checkpoint, each line flushed and synced before the next task counts."""

    def __init__(self, path: Path, identity: dict[str, Any], *, fresh: bool, drop_torn: bool = False) -> None:
        self.path = path
        self.identity = identity
        if fresh:
            self._file = self._open(path, "x")
            self._write({"format": FORMAT, "version": VERSION, "proof": identity})
        else:
            if drop_torn:
                raw = path.read_bytes()
                with open(path, "r+b") as f:
                    f.truncate(raw.rfind(b"\n") + 1)
            self._file = self._open(path, "a")

    @staticmethod
    def _open(path: Path, mode: str) -> IO[str]:
        try:
            return open(path, mode, encoding="utf-8")
        except FileExistsError:
            raise BoggleI18nError(f"checkpoint {path} exists: add --resume to continue it, or remove it") from None
        except OSError as exc:
            raise BoggleI18nError(f"cannot write checkpoint {path}: {exc.strerror or exc}") from None

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, result: TaskResult) -> None:
        """Record one finished task, with the `check` that a later resume compares."""
        record = result.to_dict()
        record["check"] = line_check(self.identity, record)
        self._write(record)

    def close(self) -> None:
        """Close the file."""
        self._file.close()
