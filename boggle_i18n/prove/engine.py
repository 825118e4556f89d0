"""One class searched: the compiled bound and branching (`_bound.c`), then the fast engine scores what is left.

`ClassProver` is prepared once per process (scorer, face tables, bucket masks)
and then searches class after class. The C search returns the boards whose
bound is still at or above the threshold when every cell is forced; those are
few, and the fast engine's exact score decides which of them really reach it.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board.board import Board, neighbours
from ..errors import BoggleI18nError, EngineError
from ..optimize.canonical import canonical_faces
from ..solver.base import Rules
from .classes import ClassSpace, Partition, split_order

CANDIDATE_CAP = 1 << 20  # boards left in one class before it is refused (raise the threshold)


def load_bound(wide: bool = False) -> Any:
    """The compiled bound module, or one clear error where it was not built. `wide`: the build with int64
    values, for a class whose words score past what the everyday int32 build holds (see _bound.c)."""
    try:
        return importlib.import_module(f"{__package__}._bound{'_wide' if wide else ''}")
    except ImportError as error:
        raise EngineError(
            "the prover's C module was not built; reinstall boggle-i18n with a C compiler present"
        ) from error


@dataclass
class ClassOutcome:
    """What searching one class found, in plain data (it crosses process and network boundaries)."""

    number: int
    boards: list[tuple[str, int, int]] = field(default_factory=list)  # (canonical notation, score, words)
    bound: int = 0
    candidates: int = 0
    tree_nodes: int = 0
    branch_nodes: int = 0
    seconds: float = 0.0


class ClassProver:
    """Searches classes of one lexicon, rules, shape and partition for boards scoring at least a threshold."""

    def __init__(
        self,
        lexicon: Any,
        rules: Rules,
        shape: tuple[int, int],
        partition: Partition,
        space: ClassSpace,
        partitions: tuple[Partition, ...] = (),
    ) -> None:
        from ..solver.fast import FastScorer
        from ..solver.scorer import prepare_scorer

        self._bound, self._wide = load_bound(), False
        scorer = prepare_scorer(lexicon, rules, shape, "fast")
        if not isinstance(scorer, FastScorer) or scorer.kernel != "c":
            raise EngineError("the prover needs the fast engine's C kernel, which was not built here")
        self.scorer = scorer
        self.rows, self.cols = shape
        self.space = space
        self.partition = partition
        by_k = {p.k: p for p in (partition, *partitions)}
        width = max(space.radix)
        # masks[c, d]: the faces of bucket d on cell c (its radix's partition); the last column, read by digit -1
        # (an open cell), every face.
        self.masks = np.zeros((space.cells, width + 1), dtype=np.uint64)
        for cell, radix in enumerate(space.radix):
            if radix == 1:
                continue
            if radix not in by_k:
                raise BoggleI18nError(f"no {radix}-bucket partition was given for cell {cell}")
            codes = [[scorer.codec.index(face) for face in bucket] for bucket in by_k[radix].buckets]
            if max(max(c) for c in codes) >= 64:
                raise BoggleI18nError("the prover takes at most 64 distinct faces")
            self.masks[cell, :radix] = [sum(1 << c for c in bucket) for bucket in codes]
        every = [scorer.codec.index(face) for bucket in partition.buckets for face in bucket]
        if max(every) >= 64:
            raise BoggleI18nError("the prover takes at most 64 distinct faces")
        self.masks[:, width] = sum(1 << c for c in every)
        self._cells = np.arange(space.cells)
        self.order = np.array(
            split_order(self.rows, self.cols, neighbours(self.rows, self.cols, rules.diagonals)), dtype=np.int64
        )
        letters, lengths, nbr, nbr_n, records = scorer._board_tables()
        self._tables = (letters, lengths, nbr, nbr_n, records, scorer._points)
        self.min_length = rules.min_length
        self._out = np.zeros((1024, self.rows * self.cols), dtype=np.int32)

    def sets_of(self, number: int) -> np.ndarray:
        """The face mask of every cell of class `number`."""
        return np.ascontiguousarray(self.masks[self._cells, self.space.digits(np.array([number]))[0]])

    def search_sets(self, sets: np.ndarray, threshold: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
        """Boards of the class `sets` left at or above `threshold` by the bound, and (root bound, tree nodes,
        word-paths, branch nodes)."""
        letters, lengths, nbr, nbr_n, records, points = self._tables
        while True:
            n, root, tree, paths, branch = self._bound.search_class(
                np.ascontiguousarray(sets, dtype=np.uint64),
                letters,
                lengths,
                nbr,
                nbr_n,
                records,
                points,
                self.min_length,
                self.order,
                threshold,
                self._out,
            )
            if n >= 0:
                return self._out[:n].copy(), (root, tree, paths, branch)
            if n == -2:  # past int32 points: this class and the rest in int64 (2**40 points a word at most)
                if not self._wide:  # a table that overflows one class likely overflows most: switch once
                    self._bound, self._wide = load_bound(wide=True), True
                    continue
                raise BoggleI18nError(
                    "a class's words score more than 2**63 points together; use a smaller scoring table"
                )
            if self._out.shape[0] >= CANDIDATE_CAP:
                raise BoggleI18nError(
                    f"a class leaves more than {CANDIDATE_CAP:,} boards at threshold {threshold}; "
                    "give a higher --threshold"
                )
            self._out = np.zeros((self._out.shape[0] * 8, self._out.shape[1]), dtype=np.int32)

    def search(self, number: int, threshold: int) -> ClassOutcome:
        """Every board of class `number` scoring at least `threshold`, canonical and exactly scored."""
        started = time.process_time()
        try:
            candidates, (root, tree, _paths, branch) = self.search_sets(self.sets_of(number), threshold)
        except MemoryError:  # its tree did not fit: smaller classes (more buckets) build smaller trees
            raise BoggleI18nError(
                f"class {number}'s bound needs more memory than is free here; cut the boards into more, smaller "
                "classes (more --buckets per cell)"
            ) from None
        outcome = ClassOutcome(number, bound=root, candidates=len(candidates), tree_nodes=tree, branch_nodes=branch)
        if len(candidates):
            scores, words = self.scorer.score_codes(candidates)
            for row in np.flatnonzero(scores >= threshold):
                board = self.scorer.codec.decode(candidates[row], self.rows, self.cols)
                faces = canonical_faces(board.faces, self.rows, self.cols)
                notation = Board(self.rows, self.cols, faces).notation()
                outcome.boards.append((notation, int(scores[row]), int(words[row])))
            outcome.boards = sorted(set(outcome.boards), key=lambda b: (-b[1], b[0]))  # a symmetric class repeats
        outcome.seconds = time.process_time() - started
        return outcome
