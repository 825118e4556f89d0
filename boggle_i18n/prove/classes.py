"""Board classes: every cell takes one bucket of faces, and only canonical classes are searched.

The faces a free board may hold are split into `k` buckets (the language's
vowels in one, the other faces in bands of equal total frequency), and a class
is one bucket per cell: `k ** cells` classes in all, each a base-`k` number read
cell by cell. A symmetry of the board (rotation, reflection) maps a class to a
class with the same best score, so only the classes whose number is the
smallest of their images are searched: every board is then covered, up to
symmetry, by exactly one canonical class (a board's bucket pattern has one
canonical image, and the board's image under the same symmetry lies in it).

Classes are numbered in blocks ("tasks") of consecutive class numbers, so a
proof of any size can be listed lazily, split among workers, and checkpointed
as a set of finished task numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import BoggleI18nError
from ..optimize.canonical import symmetries

MAX_BUCKETS = 16


@dataclass(frozen=True)
class Partition:
    """Faces split into buckets; `buckets[i]` lists face names."""

    buckets: tuple[tuple[str, ...], ...]

    @property
    def k(self) -> int:
        """Number of buckets."""
        return len(self.buckets)

    def to_list(self) -> list[list[str]]:
        """JSON form."""
        return [list(b) for b in self.buckets]


def make_partition(faces: Sequence[str], vowels: str, counts: dict[str, int], k: int) -> Partition:
    """`k` buckets: faces made only of vowels in one (when there are any), the rest in bands of about equal
    total letter frequency, most frequent first (frequent letters apart from rare ones keeps bounds tight)."""
    if not 1 <= k <= MAX_BUCKETS:
        raise BoggleI18nError(f"buckets must be 1 to {MAX_BUCKETS}, not {k}")
    faces = sorted(set(faces) - {""})
    if len(faces) < k:
        raise BoggleI18nError(f"{len(faces)} faces cannot fill {k} buckets")

    def weight(face: str) -> float:
        return float(sum(counts.get(ch, 0) for ch in face)) / len(face) + 1.0

    vowel_faces = [f for f in faces if vowels and all(ch in vowels for ch in f)] if k > 1 else []
    rest = sorted((f for f in faces if f not in vowel_faces), key=lambda f: (-weight(f), f))
    bands = k - (1 if vowel_faces else 0)
    if len(rest) < bands:
        vowel_faces, rest, bands = [], sorted(faces, key=lambda f: (-weight(f), f)), k
    total = sum(weight(f) for f in rest)
    groups: list[list[str]] = [[] for _ in range(bands)]
    acc, band = 0.0, 0
    for i, face in enumerate(rest):
        left_faces, left_bands = len(rest) - i, bands - band
        if band < bands - 1 and groups[band] and (acc >= total * (band + 1) / bands or left_faces <= left_bands - 1):
            band += 1
        groups[band].append(face)
        acc += weight(face)
    buckets = ([tuple(sorted(vowel_faces))] if vowel_faces else []) + [tuple(sorted(g)) for g in groups]
    if any(not b for b in buckets):
        raise BoggleI18nError("could not split the faces into non-empty buckets; try fewer --buckets")
    return Partition(tuple(buckets))


def split_order(rows: int, cols: int, neighbours: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The cell order of the bound's tree and of the branching: most neighbours first, then nearest the
    centre (cells in many words early make the choices that matter shared near the root)."""
    cr, cc = (rows - 1) / 2, (cols - 1) / 2
    return tuple(
        sorted(
            range(rows * cols),
            key=lambda i: (-len(neighbours[i]), (i // cols - cr) ** 2 + (i % cols - cc) ** 2, i),
        )
    )


def orbits(rows: int, cols: int) -> list[frozenset[int]]:
    """Cells that the board's symmetries map onto each other (corners, edges, centre ...)."""
    seen: dict[int, frozenset[int]] = {}
    for cell in range(rows * cols):
        if cell not in seen:
            orbit = frozenset(perm[cell] for perm in symmetries(rows, cols))
            for c in orbit:
                seen[c] = orbit
    return sorted(set(seen.values()), key=min)


def open_cells(rows: int, cols: int, order: Sequence[int], count: int) -> frozenset[int]:
    """The last `count` cells of the split order, rounded down to whole symmetry orbits: cells that take every
    face in every class (the branching splits them), so the words that avoid them are listed once per class
    of the other cells, not once per bucket of theirs."""
    chosen: set[int] = set()
    orbit_of = {c: o for o in orbits(rows, cols) for c in o}
    for cell in reversed(order):
        orbit = orbit_of[cell]
        if cell in chosen:
            continue
        if len(chosen) + len(orbit) > count:
            break
        chosen |= orbit
    return frozenset(chosen)


@dataclass(frozen=True)
class ClassSpace:
    """The canonical classes of one shape: `k` buckets on every cell but the `open` ones (every face), listed
    lazily in tasks of `block` class numbers. A class number is read base `k` over the bucketed cells."""

    rows: int
    cols: int
    k: int
    block: int
    open: frozenset[int] = frozenset()

    @property
    def cells(self) -> int:
        """Cells per board."""
        return self.rows * self.cols

    @property
    def bucketed(self) -> tuple[int, ...]:
        """Cells that take one bucket per class, in cell order."""
        return tuple(c for c in range(self.cells) if c not in self.open)

    @property
    def total(self) -> int:
        """Every class, canonical or not."""
        return int(self.k ** len(self.bucketed))

    @property
    def tasks(self) -> int:
        """Number of tasks (blocks of class numbers)."""
        return -(-self.total // self.block)

    def digits(self, numbers: np.ndarray) -> np.ndarray:
        """Each class number as its bucket per cell, `int64[n, cells]` (-1 on open cells)."""
        numbers = np.asarray(numbers, dtype=np.int64).reshape(-1)
        out = np.full((numbers.size, self.cells), -1, dtype=np.int64)
        rest = numbers.copy()
        for c in reversed(self.bucketed):
            out[:, c] = rest % self.k
            rest //= self.k
        return out

    def canonical_mask(self, numbers: np.ndarray) -> np.ndarray:
        """Which of `numbers` are the smallest of their images under the board's symmetries."""
        numbers = np.asarray(numbers, dtype=np.int64).reshape(-1)
        digits = self.digits(numbers)
        cells = list(self.bucketed)
        weights = self.k ** np.arange(len(cells) - 1, -1, -1, dtype=np.int64)
        keep = np.ones(numbers.size, dtype=bool)
        for perm in symmetries(self.rows, self.cols)[1:]:
            image = digits[:, list(perm)][:, cells]
            keep &= image @ weights >= numbers
        return keep

    def canonical_count(self) -> int:
        """How many canonical classes there are: one per orbit of the symmetry group, so by Burnside's lemma
        the mean over the symmetries of `k ** (cycles of the symmetry on the bucketed cells)`. Exact and
        instant at any size, where listing them would take minutes for 4x4 (and an estimate would have to
        project the count from its sample)."""
        bucketed = set(self.bucketed)
        group = set(symmetries(self.rows, self.cols))
        fixed = 0
        for perm in group:
            seen: set[int] = set()
            cycles = 0
            for cell in bucketed:
                if cell not in seen:
                    cycles += 1
                    while cell not in seen:
                        seen.add(cell)
                        cell = perm[cell]
            fixed += self.k**cycles
        return fixed // len(group)

    def task_classes(self, task: int) -> np.ndarray:
        """The canonical class numbers of one task."""
        if not 0 <= task < self.tasks:
            raise BoggleI18nError(f"task {task} is outside 0..{self.tasks - 1}")
        numbers = np.arange(task * self.block, min((task + 1) * self.block, self.total), dtype=np.int64)
        return numbers[self.canonical_mask(numbers)]


def class_space(
    rows: int, cols: int, k: int, open_: frozenset[int] = frozenset(), tasks_wanted: int = 1000
) -> ClassSpace:
    """Classes of a shape in about `tasks_wanted` tasks; at most 2**62 classes."""
    if rows < 1 or cols < 1 or rows * cols > 64:
        raise BoggleI18nError(f"the prover takes boards of 1 to 64 cells, not {rows}x{cols}")
    bucketed = rows * cols - len(open_)
    if k**bucketed >= 2**62:
        raise BoggleI18nError(f"{k} buckets on {bucketed} cells make more than 2**62 classes; use fewer buckets")
    total = k**bucketed
    block = max(1, -(-total // tasks_wanted))
    return ClassSpace(rows, cols, k, block, frozenset(open_))
