"""`prove()`: the best boards of a lexicon, rules and shape, proven by exhaustive branch and bound.

Every board is in exactly one canonical class up to symmetry (classes.py); a
class is dropped when its bound is below the threshold, else split down to the
boards still at or above it, which the fast engine scores exactly (engine.py).
So when every class is done, the boards found are *all* the boards scoring at
least the threshold, and the best of them is the best board there is. If none
is found, no board reaches the threshold. `estimate()` times a random sample of
classes to project what a whole proof would cost before starting one.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board.board import neighbours
from ..errors import BoggleI18nError
from ..optimize.problem import make_problem
from ..solver.base import Rules
from .checkpoint import CheckpointLines, CheckpointWriter, check_identity, read_checkpoint, verify_resumed
from .classes import Partition, class_space, make_partition, open_cells, split_order
from .engine import load_bound
from .tasks import ProofSpec, TaskResult, prover_for

if TYPE_CHECKING:
    from ..lexicon.store import Lexicon

DEFAULT_BUCKETS = 4
MAX_THRESHOLD = 2**62  # the library's own guard; the command holds thresholds to limits.py's range


@dataclass
class ProofProgress:
    """A live view: tasks and classes done, CPU spent, best so far, projected time left."""

    tasks_done: int
    tasks_total: int
    classes_done: int
    cpu_seconds: float
    wall_seconds: float
    best: int
    resumed: int = 0  # tasks taken from the checkpoint
    classes_total: int | None = None  # canonical classes of the whole proof (None: not known to the caller)
    resumed_classes: int = 0  # classes of the tasks taken from the checkpoint

    @property
    def eta_seconds(self) -> float | None:
        """Wall seconds left at the rate of this run so far (None before any class of this run). Counted in
        classes where their total is known: tasks hold very different numbers of canonical classes (about 60
        in the first tasks of a 3x4 proof, none in some later ones), so a rate per task is far off."""
        if self.wall_seconds <= 0:
            return None
        if self.classes_total is not None:
            ran = self.classes_done - self.resumed_classes
            return (self.classes_total - self.classes_done) * self.wall_seconds / ran if ran > 0 else None
        ran = self.tasks_done - self.resumed
        return (self.tasks_total - self.tasks_done) * self.wall_seconds / ran if ran > 0 else None


@dataclass
class ProofResult:
    """Every board at or above the threshold (all of them, once `complete`), and what the proof cost."""

    spec: ProofSpec
    boards: list[tuple[str, int, int]]
    complete: bool
    tasks_done: int
    classes: int
    cpu_seconds: float
    wall_seconds: float
    workers: int
    threshold_source: str
    cluster: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`--json`, result files that `results` reads)."""
        identity = self.spec.identity()
        best = self.boards[0] if self.boards and self.complete else None
        return {
            "kind": "proof",
            "rows": self.spec.problem.rows,
            "cols": self.spec.problem.cols,
            "complete": self.complete,
            "proven_best": None if best is None else {"board": best[0], "score": best[1], "n_words": best[2]},
            "boards": [{"board": b, "score": s, "n_words": n} for b, s, n in self.boards],
            "threshold": self.spec.threshold,
            "threshold_source": self.threshold_source,
            "classes": self.classes,
            "tasks": {"done": self.tasks_done, "total": self.spec.space.tasks},
            "cpu_seconds": round(self.cpu_seconds, 2),
            "wall_seconds": round(self.wall_seconds, 2),
            "workers": self.workers,
            "cluster": self.cluster,
            "notes": self.notes,
            "settings": {
                **{k: v for k, v in identity.items() if k != "threshold"},
                "word_count": self.spec.problem.manifest.get("word_count"),
                "machine": {
                    "cpus": os.cpu_count(),
                    "python": platform.python_version(),
                    "platform": platform.platform(),
                },
            },
        }


def proof_spec(
    lexicon: Lexicon,
    rules: Rules,
    shape: tuple[int, int],
    faces: tuple[str, ...] | list[str],
    vowels: str,
    threshold: int,
    *,
    buckets: int = DEFAULT_BUCKETS,
    open_count: int | None = None,
    tasks_wanted: int = 1000,
) -> ProofSpec:
    """The proof of `shape` boards over `faces` at `threshold`, split into `buckets` per cell (the last
    `open_count` cells of the split order, whole symmetry orbits, take every face; default: the corners)."""
    rows, cols = shape
    if not 0 <= threshold <= MAX_THRESHOLD:
        raise BoggleI18nError(f"the threshold must be 0 to {MAX_THRESHOLD}, not {threshold}")
    load_bound()
    problem = make_problem(lexicon, rules, shape, faces=tuple(faces))
    counts = lexicon.manifest.get("letter_counts") if isinstance(lexicon.manifest, dict) else None
    partition: Partition = make_partition(problem.faces, vowels, counts if isinstance(counts, dict) else {}, buckets)
    order = split_order(rows, cols, neighbours(rows, cols, rules.diagonals))
    if open_count is None:
        open_count = 4 if rows >= 3 and cols >= 3 else 0
    space = class_space(rows, cols, partition.k, open_cells(rows, cols, order, open_count), tasks_wanted)
    return ProofSpec(problem, partition, space, threshold)


def prove(
    spec: ProofSpec,
    *,
    threshold_source: str,
    workers: int = 1,
    cluster: str | Any | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    on_progress: Callable[[ProofProgress], None] | None = None,
) -> ProofResult:
    """Run (or resume) the proof of `spec`; Ctrl-C leaves the checkpoint ready for `resume`."""
    if workers < 1:
        raise BoggleI18nError("workers must be at least 1")
    if resume and checkpoint is None:
        raise BoggleI18nError("--resume needs --checkpoint FILE")
    identity = spec.identity()
    done: dict[int, TaskResult] = {}
    writer = None
    resume_notes: list[str] = []
    if checkpoint is not None:
        if resume and checkpoint.exists():
            seen = CheckpointLines()
            found, done, torn = read_checkpoint(checkpoint, spec.space.tasks, seen)
            check_identity(checkpoint, found, identity)
            # A checkpoint is a claim: its boards are scored again, lines failing their check are searched again.
            resume_notes = verify_resumed(spec, done)
            if seen.failed_checks:
                lines = ", ".join(str(n) for n in seen.failed_checks[:5])
                more = "..." if len(seen.failed_checks) > 5 else ""
                resume_notes.insert(
                    0,
                    f"checkpoint {checkpoint}: {len(seen.failed_checks)} line(s) failed their check (line {lines}"
                    f"{more}): their tasks are searched again",
                )
            writer = CheckpointWriter(checkpoint, identity, fresh=False, drop_torn=torn)
        else:
            writer = CheckpointWriter(checkpoint, identity, fresh=True)
    total = spec.space.tasks
    todo = [t for t in range(total) if t not in done]
    boards = {b for r in done.values() for b in r.boards}
    started = time.monotonic()
    progress = ProofProgress(
        tasks_done=len(done),
        tasks_total=total,
        classes_done=sum(r.classes for r in done.values()),
        cpu_seconds=sum(r.cpu_seconds for r in done.values()),
        wall_seconds=0.0,
        best=max((b[1] for b in boards), default=-1),
        resumed=len(done),
        classes_total=spec.space.canonical_count(),
        resumed_classes=sum(r.classes for r in done.values()),
    )
    if spec.problem.lexicon_path is not None or cluster is None:
        prover_for(spec)  # fail early (kernel, faces) and warm this process before forking workers

    def on_done(result: TaskResult) -> None:
        if writer is not None:
            writer.add(result)
        done[result.task] = result
        boards.update(result.boards)
        progress.tasks_done += 1
        progress.classes_done += result.classes
        progress.cpu_seconds += result.cpu_seconds
        progress.wall_seconds = time.monotonic() - started
        progress.best = max([progress.best, *(b[1] for b in result.boards)])
        if on_progress is not None:
            on_progress(progress)

    notes: list[str] = resume_notes[:10] + (
        [f"... and {len(resume_notes) - 10} more corrections of the checkpoint"] if len(resume_notes) > 10 else []
    )
    cluster_name = None
    from .executors import stop_on_termination

    try:
        with stop_on_termination():
            if on_progress is not None:
                on_progress(progress)
            if cluster is not None:
                from .executors import run_cluster

                cluster_notes, cluster_name = run_cluster(spec, todo, cluster, on_done)
                notes += cluster_notes
            elif workers > 1 or "fork" in mp.get_all_start_methods():
                # One worker process even for --workers 1 where fork is cheap: a class can run for a minute inside
                # C, where Ctrl-C is not seen until it returns; the parent waiting on the pool sees it at once.
                from .executors import run_processes

                notes += run_processes(spec, todo, workers, on_done)
            else:
                from .executors import run_serial

                run_serial(spec, todo, on_done)
    finally:
        if writer is not None:
            writer.close()
    return ProofResult(
        spec=spec,
        boards=sorted(boards, key=lambda b: (-b[1], b[0])),
        complete=len(done) == total,
        tasks_done=len(done),
        classes=sum(r.classes for r in done.values()),
        cpu_seconds=sum(r.cpu_seconds for r in done.values()),
        wall_seconds=time.monotonic() - started,
        workers=workers,
        threshold_source=threshold_source,
        cluster=cluster_name,
        notes=notes,
    )


@dataclass
class Estimate:
    """A projected proof cost from a random sample of classes."""

    classes_total: int
    sampled: int
    mean_seconds: float
    low_seconds: float  # 95% interval of the total CPU seconds (bootstrap over the sample)
    high_seconds: float
    slowest_class: float
    boards_found: int

    @property
    def total_seconds(self) -> float:
        """Projected CPU seconds for the whole proof."""
        return self.mean_seconds * self.classes_total

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "classes_total": self.classes_total,
            "sampled": self.sampled,
            "mean_class_seconds": round(self.mean_seconds, 6),
            "cpu_seconds": round(self.total_seconds, 1),
            "cpu_seconds_95": [round(self.low_seconds, 1), round(self.high_seconds, 1)],
            "cpu_hours": round(self.total_seconds / 3600, 3),
            "slowest_class_seconds": round(self.slowest_class, 3),
            "boards_found_in_sample": self.boards_found,
        }


def estimate(spec: ProofSpec, *, sample: int = 200, seed: int = 1, time_budget: float | None = None) -> Estimate:
    """Time `sample` random canonical classes (or as many as `time_budget` CPU seconds allow) and project."""
    if sample < 2:
        raise BoggleI18nError("an estimate needs a sample of at least 2 classes")
    import numpy as np

    space = spec.space
    prover = prover_for(spec)
    rng = np.random.default_rng(seed)
    times: list[float] = []
    found = 0
    slowest = 0.0
    spent = 0.0
    while len(times) < sample and (time_budget is None or spent < time_budget or len(times) < 2):
        numbers = rng.integers(0, space.total, size=256, dtype=np.int64)
        keep = space.canonical_mask(numbers)
        for number in numbers[keep]:
            if len(times) >= sample or (time_budget is not None and spent >= time_budget and len(times) >= 2):
                break
            outcome = prover.search(int(number), spec.threshold)
            times.append(outcome.seconds)
            spent += outcome.seconds
            slowest = max(slowest, outcome.seconds)
            found += len(outcome.boards)
    total = space.canonical_count()
    mean = sum(times) / len(times)
    boot = random.Random(seed)
    means = sorted(sum(boot.choices(times, k=len(times))) / len(times) for _ in range(1000))
    low, high = means[24] * total, means[974] * total
    if not math.isfinite(mean):
        raise BoggleI18nError("the sample took no measurable time")
    return Estimate(total, len(times), mean, low, high, slowest, found)


def found_threshold(
    lexicon: Lexicon,
    rules: Rules,
    shape: tuple[int, int],
    faces: tuple[str, ...] | list[str],
    *,
    seconds: float = 10.0,
    seed: int = 1,
    workers: int = 1,
) -> tuple[int, str]:
    """A threshold from a short `optimize` run: (its best score, where it came from). The proof then finds
    that board again, and every board at least as good."""
    from ..optimize import optimize

    found = optimize(lexicon, rules, shape, faces=faces, time_limit=seconds, seed=seed, workers=workers, top=1)
    if not found.best:
        return 0, "no board found by a short optimize run: every board with a score counts"
    best = found.best[0]
    from ..board.board import Board

    board = Board(shape[0], shape[1], best.faces).notation()
    return best.score, f"optimize (hill, seed {seed}, {seconds:g} s): {board} = {best.score}"
