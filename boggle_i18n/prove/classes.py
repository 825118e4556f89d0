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


CELL_KINDS = ("corner", "edge", "inner")


def cell_kinds(rows: int, cols: int) -> tuple[str, ...]:
    """Each cell's kind: a corner (on a border row and a border column), an edge (on one border) or inner. Every
    symmetry of the board keeps a cell's kind, so a scheme that gives each kind its own bucket count keeps
    symmetry (a kind is a union of symmetry orbits)."""
    kinds = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        borders = (r in (0, rows - 1)) + (c in (0, cols - 1))
        kinds.append(CELL_KINDS[2 - borders])
    return tuple(kinds)


@dataclass(frozen=True)
class Scheme:
    """How many buckets each kind of cell takes: one bucket means an open cell (every face in every class).
    Written `K` (every cell) or `C/E/I` (corners, edges, inner cells), e.g. `2/3/3`."""

    corner: int
    edge: int
    inner: int

    @classmethod
    def parse(cls, text: str) -> Scheme:
        """`4` or `2/3/3`; one clear error otherwise."""
        parts = text.strip().split("/")
        if len(parts) not in (1, 3) or not all(p.strip().isdigit() for p in parts):
            raise BoggleI18nError(
                f"a bucket scheme is K (every cell) or C/E/I (corners/edges/inner cells, 1 = every face), not {text!r}"
            )
        values = [int(p) for p in parts] * (3 if len(parts) == 1 else 1)
        for v in values:
            if not 1 <= v <= MAX_BUCKETS:
                raise BoggleI18nError(f"buckets must be 1 to {MAX_BUCKETS}, not {v}")
        return cls(*values)

    def __str__(self) -> str:
        if self.corner == self.edge == self.inner:
            return str(self.corner)
        return f"{self.corner}/{self.edge}/{self.inner}"

    def radix(self, rows: int, cols: int) -> tuple[int, ...]:
        """The bucket count of every cell."""
        return tuple(getattr(self, kind) for kind in cell_kinds(rows, cols))


@dataclass(frozen=True)
class ClassSpace:
    """The canonical classes of one shape: cell `c` takes one of `radix[c]` buckets (one bucket: an open cell,
    every face), listed lazily in tasks of `block` class numbers. A class number is read in mixed radix over the
    bucketed cells (radix above 1), first cell most significant. Every symmetry maps a cell to one of the same
    radix (class_space checks it), so the image of a class is a class and canonical classes are well defined."""

    rows: int
    cols: int
    radix: tuple[int, ...]
    block: int

    @property
    def cells(self) -> int:
        """Cells per board."""
        return self.rows * self.cols

    @property
    def k(self) -> int:
        """The largest bucket count of a cell."""
        return max(self.radix)

    @property
    def uniform(self) -> bool:
        """Every bucketed cell takes the same number of buckets (the classes of --buckets K [--open N])."""
        return len({r for r in self.radix if r > 1}) <= 1

    @property
    def open(self) -> frozenset[int]:
        """Cells that take every face in every class."""
        return frozenset(c for c, r in enumerate(self.radix) if r == 1)

    @property
    def bucketed(self) -> tuple[int, ...]:
        """Cells that take one bucket per class, in cell order."""
        return tuple(c for c in range(self.cells) if self.radix[c] > 1)

    @property
    def weights(self) -> np.ndarray:
        """The place value of each bucketed cell's digit in a class number."""
        out, w = [], 1
        for c in reversed(self.bucketed):
            out.append(w)
            w *= self.radix[c]
        return np.array(out[::-1], dtype=np.int64)

    @property
    def total(self) -> int:
        """Every class, canonical or not."""
        return int(np.prod([self.radix[c] for c in self.bucketed], dtype=object)) if self.bucketed else 1

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
            out[:, c] = rest % self.radix[c]
            rest //= self.radix[c]
        return out

    def number_of(self, digits: Sequence[int]) -> int:
        """The class number of one bucket per cell (open cells ignored)."""
        return int(sum(int(digits[c]) * int(w) for c, w in zip(self.bucketed, self.weights, strict=True)))

    def canonical_mask(self, numbers: np.ndarray) -> np.ndarray:
        """Which of `numbers` are the smallest of their images under the board's symmetries."""
        numbers = np.asarray(numbers, dtype=np.int64).reshape(-1)
        digits = self.digits(numbers)
        cells = list(self.bucketed)
        weights = self.weights
        keep = np.ones(numbers.size, dtype=bool)
        for perm in symmetries(self.rows, self.cols)[1:]:
            image = digits[:, list(perm)][:, cells]
            keep &= image @ weights >= numbers
        return keep

    def _cycles(self) -> list[list[tuple[int, int]]]:
        """For each symmetry, its cycles on the bucketed cells as (length, radix)."""
        bucketed = set(self.bucketed)
        out = []
        for perm in set(symmetries(self.rows, self.cols)):
            seen: set[int] = set()
            cycles = []
            for cell in sorted(bucketed):
                if cell not in seen:
                    length = 0
                    while cell not in seen:
                        seen.add(cell)
                        cell = perm[cell]
                        length += 1
                    cycles.append((length, self.radix[cell]))
            out.append(cycles)
        return out

    def canonical_count(self) -> int:
        """How many canonical classes there are: one per orbit of the symmetry group, so by Burnside's lemma
        the mean over the symmetries of the classes each fixes: the product, over the symmetry's cycles on the
        bucketed cells, of the cycle's bucket count (a fixed class is constant on each cycle). Exact and
        instant at any size, where listing them would take minutes for 4x4 (and an estimate would have to
        project the count from its sample)."""
        return sum(self.canonical_by_vowels())

    def canonical_by_vowels(self) -> list[int]:
        """Canonical classes by how many bucketed cells take bucket 0 (the vowels' bucket, where the faces have
        vowels): entry v counts those with v such cells. Exact, by Burnside's lemma with a polynomial: the
        count is kept by every symmetry, and a symmetry's fixed classes with v such cells are the coefficient
        of x**v in the product over its cycles of (x**length + radix - 1). The estimate samples by this."""
        group = self._cycles()
        sums = [0] * (len(self.bucketed) + 1)
        for cycles in group:
            poly = [1]
            for length, radix in cycles:
                grown = [0] * (len(poly) + length)
                for i, a in enumerate(poly):
                    grown[i] += a * (radix - 1)
                    grown[i + length] += a
                poly = grown
            for v, a in enumerate(poly):
                sums[v] += a
        if any(s % len(group) for s in sums):
            raise AssertionError("Burnside's count is not whole: the symmetries do not keep the radix")
        return [s // len(group) for s in sums]

    def all_by_vowels(self) -> list[int]:
        """Every class (canonical or not) by how many bucketed cells take bucket 0."""
        poly = [1]
        for c in self.bucketed:
            poly = [a * (self.radix[c] - 1) + (poly[i - 1] if i else 0) for i, a in enumerate([*poly, 0])]
        return poly

    def random_with_vowels(self, v: int, rng: np.random.Generator) -> int:
        """A class drawn uniformly among every class (canonical or not) with exactly `v` bucketed cells on
        bucket 0: cell by cell, bucket 0 with the share of the completions that take it."""
        cells = self.bucketed
        # ways[i][z]: assignments of cells[i:] with exactly z cells on bucket 0
        ways = [[0] * (v + 1) for _ in range(len(cells) + 1)]
        ways[len(cells)][0] = 1
        for i in range(len(cells) - 1, -1, -1):
            r = self.radix[cells[i]]
            for z in range(v + 1):
                ways[i][z] = ways[i + 1][z] * (r - 1) + (ways[i + 1][z - 1] if z else 0)
        if ways[0][v] == 0:
            raise BoggleI18nError(f"no class has {v} cells on the first bucket")
        digits = [0] * self.cells
        z = v
        for i, cell in enumerate(cells):
            zero = ways[i + 1][z - 1] if z else 0
            if rng.random() * ways[i][z] < zero:
                digits[cell], z = 0, z - 1
            else:
                digits[cell] = int(rng.integers(1, self.radix[cell]))
        return self.number_of(digits)

    def task_classes(self, task: int) -> np.ndarray:
        """The canonical class numbers of one task."""
        if not 0 <= task < self.tasks:
            raise BoggleI18nError(f"task {task} is outside 0..{self.tasks - 1}")
        numbers = np.arange(task * self.block, min((task + 1) * self.block, self.total), dtype=np.int64)
        return numbers[self.canonical_mask(numbers)]


def class_space(
    rows: int,
    cols: int,
    k: int | Sequence[int],
    open_: frozenset[int] = frozenset(),
    tasks_wanted: int = 1000,
    block: int | None = None,
) -> ClassSpace:
    """Classes of a shape in about `tasks_wanted` tasks (or in tasks of `block` class numbers, as a resumed
    checkpoint was cut); at most 2**62 classes. `k`: one bucket count for every cell but the `open_` ones, or a
    bucket count per cell (1: open)."""
    if rows < 1 or cols < 1 or rows * cols > 64:
        raise BoggleI18nError(f"the prover takes boards of 1 to 64 cells, not {rows}x{cols}")
    if isinstance(k, int):
        radix = tuple(1 if c in open_ else k for c in range(rows * cols))
    else:
        radix = tuple(int(r) for r in k)
        if len(radix) != rows * cols or open_:
            raise BoggleI18nError("a bucket count per cell needs one count for each cell and no open cells")
    if any(not 1 <= r <= MAX_BUCKETS for r in radix):
        raise BoggleI18nError(f"buckets must be 1 to {MAX_BUCKETS}")
    for perm in symmetries(rows, cols):
        if any(radix[perm[c]] != radix[c] for c in range(rows * cols)):
            raise BoggleI18nError("cells that a symmetry maps onto each other must take as many buckets")
    total = 1
    for r in radix:
        total *= r
    if total >= 2**62:
        raise BoggleI18nError(f"{total:.3g} classes are more than 2**62; use fewer buckets")
    if block is None:
        block = max(1, -(-total // tasks_wanted))
    elif block < 1:
        raise BoggleI18nError(f"a task must hold at least one class number, not {block}")
    return ClassSpace(rows, cols, radix, block)
