"""One search's bookkeeping: batch scoring, the top boards seen, and when to stop."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .canonical import canonical_faces

if TYPE_CHECKING:
    from ..solver.scorer import Scorer
    from .moves import Space


@dataclass(frozen=True, order=True)
class Found:
    """A board found: canonical faces, score and word count. Sorts best first."""

    sort_key: tuple[int, int, tuple[str, ...]] = field(repr=False)
    faces: tuple[str, ...] = field(compare=False)
    score: int = field(compare=False)
    n_words: int = field(compare=False)

    @classmethod
    def make(cls, faces: tuple[str, ...], score: int, n_words: int) -> Found:
        """Best first: higher score, then more words, then faces in order."""
        return cls((-score, -n_words, faces), faces, score, n_words)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (crosses process and network boundaries)."""
        return {"faces": list(self.faces), "score": self.score, "n_words": self.n_words}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Found:
        """Inverse of `to_dict`."""
        return cls.make(tuple(data["faces"]), int(data["score"]), int(data["n_words"]))


class TopBoards:
    """The best `size` distinct boards (up to symmetry) offered so far."""

    def __init__(self, size: int, rows: int, cols: int) -> None:
        self.size, self.rows, self.cols = max(1, size), rows, cols
        self._by_faces: dict[tuple[str, ...], Found] = {}
        self._floor = -1  # lowest score kept, once full

    def offer(self, faces_of: list[str], codes: np.ndarray, scores: np.ndarray, words: np.ndarray) -> None:
        """Consider a scored batch; only rows that could enter are canonicalised."""
        full = len(self._by_faces) >= self.size
        candidates = np.flatnonzero(scores >= self._floor) if full else np.arange(len(scores))
        if len(candidates) == 0:
            return
        if len(candidates) > self.size * 4:
            order = np.argsort(-scores[candidates], kind="stable")[: self.size * 4]
            candidates = candidates[order]
        for i in candidates:
            faces = tuple(faces_of[c] for c in codes[i])
            self.add(Found.make(canonical_faces(faces, self.rows, self.cols), int(scores[i]), int(words[i])))

    def add(self, found: Found) -> None:
        """Add one (already canonical) board."""
        if found.faces in self._by_faces:
            return
        self._by_faces[found.faces] = found
        if len(self._by_faces) > self.size:
            worst = max(self._by_faces.values())
            del self._by_faces[worst.faces]
        if len(self._by_faces) >= self.size:
            self._floor = max(self._by_faces.values()).score

    def merge(self, others: list[Found]) -> None:
        """Add many."""
        for f in others:
            self.add(f)

    def best(self) -> list[Found]:
        """Best first."""
        return sorted(self._by_faces.values())


class Stop(Exception):
    """Raised inside a strategy when the budget is spent; the search's state is kept."""


@dataclass
class Budget:
    """When to stop: a monotonic deadline, a target score, and an external stop flag (Ctrl-C, another worker)."""

    deadline: float | None = None
    target: int | None = None
    stop: Callable[[], bool] | None = None

    def spent(self) -> bool:
        """Time is up or someone asked to stop."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return True
        return self.stop is not None and self.stop()


class Search:
    """Scores batches of states for a strategy and keeps what every run reports."""

    def __init__(
        self,
        scorer: Scorer,
        space: Space,
        budget: Budget,
        top: int = 10,
        on_batch: Callable[[Search], None] | None = None,
    ) -> None:
        self.scorer, self.space, self.budget = scorer, space, budget
        self.top = TopBoards(top, space.rows, space.cols)
        self.evaluated = 0
        self.best_score = -1
        self.reached = False
        self.started = time.monotonic()
        self.best_at = 0.0
        self.on_batch = on_batch

    def score(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores and word counts of a batch; raises `Stop` once the budget is spent (after recording it)."""
        codes = self.space.codes(states)
        scores, words = self.scorer.score_codes(codes)
        self.evaluated += len(scores)
        if len(scores):
            self.top.offer(self.scorer.codec.faces, codes, scores, words)
            high = int(scores.max())
            if high > self.best_score:
                self.best_score = high
                self.best_at = time.monotonic() - self.started
        if self.on_batch is not None:
            self.on_batch(self)
        if self.budget.target is not None and self.best_score >= self.budget.target:
            self.reached = True
            raise Stop
        if self.budget.spent():
            raise Stop
        return scores, words
