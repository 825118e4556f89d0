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
from .checkpoint import CheckpointLines, CheckpointWriter, checkpoint_lock, read_checkpoint, verify_resumed
from .classes import ClassSpace, Partition, Scheme, class_space, make_partition, open_cells, split_order
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


# The default classes of each shape (rows, cols sorted), chosen from measured cost (docs/prove.md, "Choosing
# the classes"): open corners with 3 buckets on the other cells of 3x3 (1/3/3), 3 on edges and 4 on inner cells
# of 3x4 (1/3/4), and on 4x4 the cheapest of the schemes `prove --estimate --buckets A,B,...` compared there.
# Other shapes: 4 buckets, corners open from 3x3 up. A resumed checkpoint keeps its own classes (`classes_of`).
DEFAULT_SCHEMES: dict[tuple[int, int], str] = {(3, 3): "1/3/3", (3, 4): "1/3/4", (4, 4): "2/3/3"}


def default_scheme(shape: tuple[int, int]) -> Scheme | None:
    """The measured default classes of a shape, or None (4 buckets, the last `--open` cells open)."""
    found = DEFAULT_SCHEMES.get((min(shape), max(shape)))
    return Scheme.parse(found) if found else None


def proof_spec(
    lexicon: Lexicon,
    rules: Rules,
    shape: tuple[int, int],
    faces: tuple[str, ...] | list[str],
    vowels: str,
    threshold: int,
    *,
    buckets: int | Scheme | None = None,
    open_count: int | None = None,
    tasks_wanted: int = 1000,
    block: int | None = None,
) -> ProofSpec:
    """The proof of `shape` boards over `faces` at `threshold`. `buckets`: K buckets on every cell but the last
    `open_count` cells of the split order (whole symmetry orbits; default: the corners), or a `Scheme` of bucket
    counts by kind of cell (corners, edges, inner; 1 = open), or None: the shape's default scheme (or 4 buckets
    with open corners where the shape has none), unless `open_count` is given."""
    rows, cols = shape
    if not 0 <= threshold <= MAX_THRESHOLD:
        raise BoggleI18nError(f"the threshold must be 0 to {MAX_THRESHOLD}, not {threshold}")
    load_bound()
    problem = make_problem(lexicon, rules, shape, faces=tuple(faces))
    counts = lexicon.manifest.get("letter_counts") if isinstance(lexicon.manifest, dict) else None
    counts = counts if isinstance(counts, dict) else {}
    if buckets is None:
        buckets = default_scheme(shape) if open_count is None else None
        buckets = DEFAULT_BUCKETS if buckets is None else buckets
    if isinstance(buckets, Scheme):
        if open_count is not None:
            raise BoggleI18nError("--open goes with --buckets K; a scheme C/E/I opens cells with 1 bucket")
        radix = buckets.radix(rows, cols)
        ks = sorted({r for r in radix if r > 1}) or [1]
        parts = [make_partition(problem.faces, vowels, counts, k) for k in ks]
        space = class_space(rows, cols, radix, tasks_wanted=tasks_wanted, block=block)
        return ProofSpec(problem, parts[-1], space, threshold, tuple(parts[:-1]))
    partition: Partition = make_partition(problem.faces, vowels, counts, buckets)
    order = split_order(rows, cols, neighbours(rows, cols, rules.diagonals))
    if open_count is None:
        open_count = 4 if rows >= 3 and cols >= 3 else 0
    space = class_space(rows, cols, partition.k, open_cells(rows, cols, order, open_count), tasks_wanted, block)
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
    """Run (or resume) the proof of `spec`; Ctrl-C leaves the checkpoint ready for `resume`. The checkpoint is
    held for this run alone (`checkpoint_lock`): a second run on it is refused, naming this one."""
    if workers < 1:
        raise BoggleI18nError("workers must be at least 1")
    if resume and checkpoint is None:
        raise BoggleI18nError("--resume needs --checkpoint FILE")
    if checkpoint is None:
        return _prove(spec, threshold_source, workers, cluster, None, resume, on_progress)
    with checkpoint_lock(checkpoint):
        return _prove(spec, threshold_source, workers, cluster, checkpoint, resume, on_progress)


def _prove(
    spec: ProofSpec,
    threshold_source: str,
    workers: int,
    cluster: str | Any | None,
    checkpoint: Path | None,
    resume: bool,
    on_progress: Callable[[ProofProgress], None] | None,
) -> ProofResult:
    identity = spec.identity()
    done: dict[int, TaskResult] = {}
    writer = None
    resume_notes: list[str] = []
    if checkpoint is not None:
        if resume and checkpoint.exists():
            seen = CheckpointLines()
            _, done, torn = read_checkpoint(checkpoint, spec.space.tasks, seen, wanted=identity)
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
class Stratum:
    """Canonical classes whose count of cells on the first (vowel) bucket lies in `vowels` (a range)."""

    vowels: tuple[int, int]  # first and last count, inclusive
    classes: int  # canonical classes in it (exact)
    times: list[float] = field(default_factory=list)
    work: list[int] = field(default_factory=list)  # tree nodes + branch steps of each sampled class (no noise)
    numbers: list[int] = field(default_factory=list)  # the sampled classes

    @property
    def mean(self) -> float:
        """Mean CPU seconds of its sampled classes."""
        return sum(self.times) / len(self.times) if self.times else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "vowel_cells": list(self.vowels),
            "classes": self.classes,
            "sampled": len(self.times),
            "mean_class_seconds": round(self.mean, 6),
            "slowest_class_seconds": round(max(self.times, default=0.0), 3),
            "cpu_seconds": round(self.mean * self.classes, 1),
        }


QUANTILES = (0.5, 0.9, 0.99, 0.999)


@dataclass
class Estimate:
    """A projected proof cost from a stratified random sample of classes."""

    classes_total: int
    sampled: int
    mean_seconds: float  # over every canonical class (the strata weighted by their exact sizes)
    low_seconds: float  # 95% interval of the total CPU seconds (bootstrap within the strata)
    high_seconds: float
    slowest_class: float
    boards_found: int
    seed: int = 1
    strata: list[Stratum] = field(default_factory=list)
    quantiles: dict[str, float] = field(default_factory=dict)  # of the class costs over every canonical class
    scheme: str = ""

    @property
    def total_seconds(self) -> float:
        """Projected CPU seconds for the whole proof."""
        return self.mean_seconds * self.classes_total

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "scheme": self.scheme,
            "classes_total": self.classes_total,
            "sampled": self.sampled,
            "seed": self.seed,
            "mean_class_seconds": round(self.mean_seconds, 6),
            "cpu_seconds": round(self.total_seconds, 1),
            "cpu_seconds_95": [round(self.low_seconds, 1), round(self.high_seconds, 1)],
            "cpu_hours": round(self.total_seconds / 3600, 3),
            "slowest_class_seconds": round(self.slowest_class, 3),
            "class_seconds_quantiles": {k: round(v, 4) for k, v in self.quantiles.items()},
            "strata": [s.to_dict() for s in self.strata],
            "boards_found_in_sample": self.boards_found,
        }


def strata_of(space: ClassSpace, count: int) -> list[Stratum]:
    """About `count` strata of consecutive vowel-cell counts, each holding about 1/count of the canonical
    classes (the rare vowel-rich and vowel-poor ends join their neighbours)."""
    by_v = space.canonical_by_vowels()
    total = sum(by_v)
    strata: list[Stratum] = []
    first, acc = None, 0
    for v, n in enumerate(by_v):
        if n == 0:
            continue
        first = v if first is None else first
        acc += n
        if acc * count >= total * (len(strata) + 1) * 0.999 or v == len(by_v) - 1:
            strata.append(Stratum((first, v), 0))
            first = None
    if first is not None:
        strata.append(Stratum((first, len(by_v) - 1), 0))
    for st in strata:
        st.classes = sum(by_v[st.vowels[0] : st.vowels[1] + 1])
    return [st for st in strata if st.classes]


def _draw(space: ClassSpace, stratum: Stratum, rng: Any, weights: list[int]) -> int:
    import numpy as np

    """A canonical class drawn uniformly from the stratum: a vowel-cell count in proportion to every class
    with it, a class uniform among those, kept only when canonical (so each canonical class is equally likely)."""
    lo, hi = stratum.vowels
    counts = weights[lo : hi + 1]
    while True:
        v = lo + int(rng.choice(len(counts), p=[c / sum(counts) for c in counts]))
        number = space.random_with_vowels(v, rng)
        if space.canonical_mask(np.array([number]))[0]:
            return number


def estimate(spec: ProofSpec, *, sample: int = 200, seed: int = 1, time_budget: float | None = None) -> Estimate:
    """Time `sample` canonical classes (or as many as `time_budget` CPU seconds allow) and project the proof.

    Stratified by the number of cells on the vowel bucket, which sorts classes by cost far better than chance
    (vowel-rich classes hold the most words): the canonical classes of every stratum are counted exactly
    (Burnside), a pilot of 40% of the sample is spread evenly over the strata, and the rest goes where it cuts
    the variance most (Neyman allocation: in proportion to a stratum's classes times the spread of its pilot
    classes' work, tree nodes and branch steps, which are free of the machine's noise, so a seed always draws
    the same classes). The projection weights each stratum's mean by its exact size, so a heavy stratum sampled
    more often than its share counts only for its share; the interval is a bootstrap within the strata."""
    if sample < 2:
        raise BoggleI18nError("an estimate needs a sample of at least 2 classes")
    import numpy as np

    space = spec.space
    prover = prover_for(spec)
    rng = np.random.default_rng(seed)
    strata = strata_of(space, max(1, min(8, sample // 5)))
    weights = space.all_by_vowels()
    found = 0
    spent = 0.0

    def out_of_time() -> bool:
        return time_budget is not None and spent >= time_budget and sum(len(st.times) for st in strata) >= 2

    def run(st: Stratum, n: int) -> None:
        nonlocal found, spent
        for _ in range(n):
            if out_of_time():
                return
            number = _draw(space, st, rng, weights)
            outcome = prover.search(number, spec.threshold)
            st.numbers.append(number)
            st.work.append(outcome.tree_nodes + outcome.branch_nodes)
            st.times.append(outcome.seconds)
            spent += outcome.seconds
            found += len(outcome.boards)

    pilot = max(1, int(sample * 0.4) // len(strata))
    for st in strata:
        run(st, min(pilot, st.classes))
    left = sample - sum(len(st.times) for st in strata)
    if left > 0:
        # The spread of the pilot's work (tree nodes and branch steps, which CPU time follows), not of its
        # seconds: the same seed then draws the same classes however busy the machine is.
        spread = [
            st.classes * max(float(np.std(st.work, ddof=1)) if len(st.work) > 1 else float(np.mean(st.work)), 1.0)
            for st in strata
        ]
        shares = [left * x / sum(spread) for x in spread]
        extra = [int(x) for x in shares]
        for i in sorted(range(len(strata)), key=lambda i: extra[i] - shares[i])[: left - sum(extra)]:
            extra[i] += 1
        for st, n in zip(strata, extra, strict=True):
            run(st, n)
    strata = [st for st in strata if st.times] or strata
    total = space.canonical_count()
    covered = sum(st.classes for st in strata)
    projected = sum(st.mean * st.classes for st in strata) * total / covered
    mean = projected / total
    if not math.isfinite(mean):
        raise BoggleI18nError("the sample took no measurable time")
    boot = random.Random(seed)
    sums = sorted(
        sum(sum(boot.choices(st.times, k=len(st.times))) / len(st.times) * st.classes for st in strata)
        * total
        / covered
        for _ in range(1000)
    )
    pairs = sorted((t, st.classes / len(st.times)) for st in strata for t in st.times)
    quantiles = {}
    for q in QUANTILES:
        acc, target = 0.0, q * sum(w for _, w in pairs)
        for t, w in pairs:
            acc += w
            if acc >= target:
                quantiles[f"p{q * 100:g}"] = t
                break
    sampled = sum(len(st.times) for st in strata)
    slowest = max(t for st in strata for t in st.times)
    return Estimate(
        total, sampled, mean, sums[24], sums[974], slowest, found, seed, strata, quantiles, _scheme_name(spec)
    )


def _scheme_name(spec: ProofSpec) -> str:
    """`C/E/I` bucket counts by kind of cell where the classes follow kinds, else the per-cell counts."""
    from .classes import cell_kinds

    by_kind: dict[str, set[int]] = {}
    for kind, radix in zip(cell_kinds(spec.space.rows, spec.space.cols), spec.space.radix, strict=True):
        by_kind.setdefault(kind, set()).add(radix)
    if all(len(v) == 1 for v in by_kind.values()):
        values = [next(iter(by_kind.get(k, {0}))) for k in ("corner", "edge", "inner")]
        if len({v for v in values if v}) == 1:
            return str(max(values))
        return "/".join(str(v) if v else "-" for v in values)
    return ",".join(str(r) for r in spec.space.radix)


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
