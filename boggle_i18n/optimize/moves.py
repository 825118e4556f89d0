"""Search spaces: what a board may hold, and the moves between boards.

A search state is a small int32 array. `FreeSpace` lets every cell take any face
of an alphabet (state = the face codes). `DiceSpace` is a real roll of a dice
set (state = which die sits in each cell, then which face of it is up), so every
board it produces can be rolled with that set. Both give, for one state, its
whole neighbourhood as one array (so a scorer takes it in one batch), and random
multi-cell moves for annealing and for escaping local optima.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..board.board import Board
from ..board.dice import DiceSet
from ..errors import BoggleI18nError

if TYPE_CHECKING:
    from ..solver.codec import FaceCodec


class Space(Protocol):
    """The boards a search may visit."""

    rows: int
    cols: int
    codec: FaceCodec

    def random(self, rng: np.random.Generator) -> np.ndarray:
        """A random state."""
        ...

    def codes(self, states: np.ndarray) -> np.ndarray:
        """Face codes `int32[n, cells]` of states `int32[n, width]`."""
        ...

    def neighbours(self, state: np.ndarray) -> np.ndarray:
        """Every state one move away (change/re-roll one cell, swap two), `int32[m, width]`."""
        ...

    def perturb(self, state: np.ndarray, rng: np.random.Generator, n: int, moves: int) -> np.ndarray:
        """`n` states, each `moves` random moves away from `state`."""
        ...

    def valid(self, state: np.ndarray) -> bool:
        """Whether a state is a legal board of this space."""
        ...

    def board(self, state: np.ndarray) -> Board:
        """The board of a state."""
        ...

    def describe(self) -> str:
        """One line for reports."""
        ...


def _swap_pairs(cells: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(cells, k=1)
    return i.astype(np.int64), j.astype(np.int64)


class FreeSpace:
    """Every cell takes any face of `faces`; `weights` (e.g. letter frequencies) guide random draws."""

    def __init__(
        self, codec: FaceCodec, rows: int, cols: int, faces: Sequence[str], weights: Sequence[float] | None = None
    ) -> None:
        faces = sorted(set(faces) - {""})
        if not faces:
            raise BoggleI18nError("a free board needs at least one face to choose from")
        self.rows, self.cols, self.codec = rows, cols, codec
        self.cells = rows * cols
        self.faces = faces
        self.face_codes = np.array([codec.index(f) for f in faces], dtype=np.int32)
        if weights is None:
            self.p = np.full(len(faces), 1.0 / len(faces))
        else:
            w = np.asarray(weights, dtype=np.float64)
            if w.shape != (len(faces),) or (w < 0).any() or w.sum() <= 0:
                raise BoggleI18nError("face weights must be one non-negative number per face, not all zero")
            w = np.maximum(w, w.sum() * 1e-3)  # every face stays reachable
            self.p = w / w.sum()
        self._si, self._sj = _swap_pairs(self.cells)
        self._allowed = set(int(c) for c in self.face_codes)

    def describe(self) -> str:
        """Free letters over the alphabet."""
        return f"free {self.rows}x{self.cols} over {len(self.faces)} faces"

    def random(self, rng: np.random.Generator) -> np.ndarray:
        """Cells drawn independently by weight."""
        return rng.choice(self.face_codes, size=self.cells, p=self.p).astype(np.int32)

    def codes(self, states: np.ndarray) -> np.ndarray:
        """A free state is its codes."""
        return np.asarray(states, dtype=np.int32).reshape(-1, self.cells)

    def neighbours(self, state: np.ndarray) -> np.ndarray:
        """All single-cell changes, then all swaps of two different faces."""
        cells, faces = self.cells, self.face_codes
        changes = np.repeat(state[None, :], cells * len(faces), axis=0)
        cell_idx = np.repeat(np.arange(cells), len(faces))
        changes[np.arange(len(changes)), cell_idx] = np.tile(faces, cells)
        changes = changes[changes[np.arange(len(changes)), cell_idx] != state[cell_idx]]
        keep = state[self._si] != state[self._sj]
        si, sj = self._si[keep], self._sj[keep]
        swaps = np.repeat(state[None, :], len(si), axis=0)
        rows = np.arange(len(si))
        swaps[rows, si] = state[sj]
        swaps[rows, sj] = state[si]
        return np.concatenate([changes, swaps])

    def perturb(self, state: np.ndarray, rng: np.random.Generator, n: int, moves: int) -> np.ndarray:
        """Each row: `moves` random moves, a swap one time in three, else a cell changed to a weighted draw."""
        out = np.repeat(state[None, :], n, axis=0)
        rows = np.arange(n)
        for _ in range(moves):
            kind = rng.random(n) < 1 / 3
            a = rng.integers(0, self.cells, n)
            b = (a + rng.integers(1, self.cells, n)) % self.cells if self.cells > 1 else a
            new = rng.choice(self.face_codes, size=n, p=self.p)
            va, vb = out[rows, a].copy(), out[rows, b].copy()
            out[rows, a] = np.where(kind, vb, new)
            out[rows, b] = np.where(kind, va, out[rows, b])
        return out

    def valid(self, state: np.ndarray) -> bool:
        """Right length, every face from the alphabet."""
        return state.shape == (self.cells,) and all(int(c) in self._allowed for c in state)

    def board(self, state: np.ndarray) -> Board:
        """Decode."""
        return self.codec.decode(state, self.rows, self.cols)


class DiceSpace:
    """A roll of a dice set: state = die in each cell (a permutation) then the face up on it."""

    def __init__(self, codec: FaceCodec, dice: DiceSet) -> None:
        self.rows, self.cols, self.codec = dice.rows, dice.cols, codec
        self.cells = dice.rows * dice.cols
        self.dice = dice
        width = max(len(d) for d in dice.dice)
        self.n_faces = np.array([len(d) for d in dice.dice], dtype=np.int32)
        self.table = np.zeros((len(dice.dice), width), dtype=np.int32)
        for d, die in enumerate(dice.dice):
            for f, face in enumerate(die):
                self.table[d, f] = codec.index(face.lower())
        # For each die and face code: the first face index showing it (re-rolls to a repeat letter are skipped).
        self._distinct = [
            sorted({int(self.table[d, f]): f for f in range(len(die) - 1, -1, -1)}.values())
            for d, die in enumerate(dice.dice)
        ]
        self._si, self._sj = _swap_pairs(self.cells)

    def describe(self) -> str:
        """The dice set."""
        return f"dice {self.dice.id} ({self.rows}x{self.cols})"

    def random(self, rng: np.random.Generator) -> np.ndarray:
        """Shake the dice into the grid, one face up each."""
        perm = rng.permutation(self.cells).astype(np.int32)
        up = (rng.random(self.cells) * self.n_faces[perm]).astype(np.int32)
        return np.concatenate([perm, up])

    def codes(self, states: np.ndarray) -> np.ndarray:
        """Face codes through the dice table."""
        states = np.asarray(states, dtype=np.int32).reshape(-1, 2 * self.cells)
        return self.table[states[:, : self.cells], states[:, self.cells :]]

    def neighbours(self, state: np.ndarray) -> np.ndarray:
        """Every re-roll of one die, every swap of two dice (faces kept), and every swap that turns the
        die arriving in the first cell to another face (how a letter from another die reaches a cell)."""
        cells = self.cells
        perm, up = state[:cells], state[cells:]
        code = self.table[perm, up]
        out: list[np.ndarray] = []
        for c in range(cells):
            for f in self._distinct[perm[c]]:
                if self.table[perm[c], f] != code[c]:
                    s = state.copy()
                    s[cells + c] = f
                    out.append(s)
        keep = code[self._si] != code[self._sj]
        for a, b in zip(self._si[keep], self._sj[keep], strict=True):
            s = state.copy()
            s[a], s[b] = perm[b], perm[a]
            s[cells + a], s[cells + b] = up[b], up[a]
            out.append(s)
        for a in range(cells):
            for b in range(cells):
                if a == b:
                    continue
                die = perm[b]
                for f in self._distinct[die]:
                    if f == up[b] or self.table[die, f] == code[a]:
                        continue
                    s = state.copy()
                    s[a], s[b] = die, perm[a]
                    s[cells + a], s[cells + b] = f, up[a]
                    out.append(s)
        return np.array(out, dtype=np.int32).reshape(-1, 2 * cells)

    def perturb(self, state: np.ndarray, rng: np.random.Generator, n: int, moves: int) -> np.ndarray:
        """Each row: `moves` random moves, each a swap of two dice (half the time) and a re-roll of one."""
        cells = self.cells
        out = np.repeat(state[None, :], n, axis=0)
        rows = np.arange(n)
        for _ in range(moves):
            swap = rng.random(n) < 0.5
            a = rng.integers(0, cells, n)
            b = (a + rng.integers(1, cells, n)) % cells if cells > 1 else a
            pa, pb = out[rows, a].copy(), out[rows, b].copy()
            ua, ub = out[rows, cells + a].copy(), out[rows, cells + b].copy()
            out[rows, a] = np.where(swap, pb, pa)
            out[rows, b] = np.where(swap, pa, pb)
            out[rows, cells + a] = np.where(swap, ub, ua)
            out[rows, cells + b] = np.where(swap, ua, ub)
            die = out[rows, a]
            out[rows, cells + a] = (rng.random(n) * self.n_faces[die]).astype(np.int32)
        return out

    def valid(self, state: np.ndarray) -> bool:
        """Each die used once, each face index on its die."""
        cells = self.cells
        if state.shape != (2 * cells,):
            return False
        perm, up = state[:cells], state[cells:]
        return sorted(perm.tolist()) == list(range(cells)) and bool(((up >= 0) & (up < self.n_faces[perm])).all())

    def board(self, state: np.ndarray) -> Board:
        """Decode."""
        return self.codec.decode(self.codes(state)[0], self.rows, self.cols)
