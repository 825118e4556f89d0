"""What a proof is (its `ProofSpec`) and its unit of work: one task, a block of class numbers.

The spec travels to every worker with the lexicon (a stored path, or the trie
bytes for cluster machines, as `optimize` sends it) and names everything the
result depends on, so a checkpoint can tell whether it belongs to this proof.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import BoggleI18nError
from ..optimize.problem import Problem
from .classes import CELL_KINDS, ClassSpace, Partition, Scheme, cell_kinds
from .engine import ClassProver


@dataclass(frozen=True)
class ProofSpec:
    """One proof: lexicon, rules, shape, faces and their buckets, open cells, task size and threshold."""

    problem: Problem
    partition: Partition  # the buckets of the cells with the most of them
    space: ClassSpace
    threshold: int
    partitions: tuple[Partition, ...] = ()  # the buckets of cells with fewer (a per-cell scheme such as 2/3/3)

    @property
    def scheme(self) -> str:
        """The bucket counts, `K` where every bucketed cell takes K (open cells aside), else per cell."""
        if self.space.uniform:
            return str(self.partition.k)
        return ",".join(str(r) for r in self.space.radix)

    def identity(self) -> dict[str, Any]:
        """The fields a checkpoint must match (JSON). A uniform scheme keeps the form of the first checkpoints
        (one list of buckets and the open cells), so they still resume."""
        p = self.problem
        data = {
            "lexicon": p.lexicon_name,
            "trie_sha256": p.manifest.get("trie_sha256"),
            "rows": p.rows,
            "cols": p.cols,
            "rules": p.rules.to_dict(),
            "faces": list(p.faces),
            "buckets": self.partition.to_list(),
            "open_cells": sorted(self.space.open),
            "block": self.space.block,
            "threshold": self.threshold,
        }
        if not self.space.uniform:
            every = sorted({self.partition, *self.partitions}, key=lambda q: q.k)
            data["buckets"] = {str(q.k): q.to_list() for q in every}
            data["cell_buckets"] = list(self.space.radix)
        return data


def classes_of(identity: dict[str, Any]) -> tuple[int | Scheme, int | None]:
    """The class scheme a checkpoint's proof used, as `proof_spec` takes it: `(K, open cells)` for a uniform
    scheme, `(Scheme, None)` for one with buckets by kind of cell. A resumed proof continues on the classes it
    began with even after the size's default scheme has changed; the identity check still compares the whole
    proof (faces in each bucket, block, ...)."""
    rows, cols = identity.get("rows"), identity.get("cols")
    radix = identity.get("cell_buckets")
    if radix is None:
        buckets, opened = identity.get("buckets"), identity.get("open_cells")
        if not isinstance(buckets, list) or not isinstance(opened, list):
            raise BoggleI18nError("the checkpoint does not say how its classes were cut")
        return len(buckets), len(opened)
    if not (isinstance(rows, int) and isinstance(cols, int) and isinstance(radix, list)) or len(radix) != rows * cols:
        raise BoggleI18nError("the checkpoint does not say how its classes were cut")
    by_kind: dict[str, set[int]] = {}
    for kind, r in zip(cell_kinds(rows, cols), radix, strict=True):
        by_kind.setdefault(kind, set()).add(r)
    if any(len(v) != 1 for v in by_kind.values()):
        raise BoggleI18nError("the checkpoint's classes are not cut by kind of cell")
    counts = {kind: next(iter(v)) for kind, v in by_kind.items()}
    return Scheme(*(counts.get(kind, 1) for kind in CELL_KINDS)), None


@dataclass
class TaskResult:
    """What one task found: boards at or above the threshold, and its cost."""

    task: int
    classes: int
    boards: list[tuple[str, int, int]] = field(default_factory=list)
    cpu_seconds: float = 0.0
    slowest_class: float = 0.0
    max_bound: int = 0
    candidates: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form (a checkpoint line)."""
        data = asdict(self)
        data["boards"] = [list(b) for b in self.boards]
        data["cpu_seconds"] = round(self.cpu_seconds, 4)
        data["slowest_class"] = round(self.slowest_class, 4)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskResult:
        """From a checkpoint line (already checked for shape by the caller)."""
        return cls(
            task=int(data["task"]),
            classes=int(data["classes"]),
            boards=[(str(b[0]), int(b[1]), int(b[2])) for b in data["boards"]],
            cpu_seconds=float(data["cpu_seconds"]),
            slowest_class=float(data.get("slowest_class", 0.0)),
            max_bound=int(data.get("max_bound", 0)),
            candidates=int(data.get("candidates", 0)),
        )


_PROVERS: dict[tuple[str, int], ClassProver] = {}
_LOCK = threading.Lock()


def prover_for(spec: ProofSpec) -> ClassProver:
    """The class prover of `spec`, made once per process and thread (its buffers are not shared)."""
    memo = (spec.problem.key + repr((spec.partition, spec.partitions, spec.space)), threading.get_ident())
    with _LOCK:
        hit = _PROVERS.get(memo)
    if hit is None:
        p = spec.problem
        hit = ClassProver(p.load_lexicon(), p.rules, (p.rows, p.cols), spec.partition, spec.space, spec.partitions)
        with _LOCK:
            _PROVERS[memo] = hit
    return hit


def run_task(spec: ProofSpec, task: int) -> TaskResult:
    """Search every canonical class of `task`."""
    prover = prover_for(spec)
    started = time.process_time()
    numbers = spec.space.task_classes(task)
    result = TaskResult(task, len(numbers))
    for number in numbers:
        outcome = prover.search(int(number), spec.threshold)
        result.boards += outcome.boards
        result.slowest_class = max(result.slowest_class, outcome.seconds)
        result.max_bound = max(result.max_bound, outcome.bound)
        result.candidates += outcome.candidates
    result.boards = sorted(set(result.boards), key=lambda b: (-b[1], b[0]))
    result.cpu_seconds = time.process_time() - started
    return result
