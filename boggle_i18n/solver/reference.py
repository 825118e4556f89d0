"""The reference solver: a depth-first walk pruned by the lexicon's prefixes.

Small and obviously correct on purpose; faster engines are checked against it.
A 4x4 board visits some thousands of nodes, each one MARISA prefix test (~1 µs).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..board.board import Board, neighbours
from ..spelling import spelling_of
from .base import FoundWord, Rules, SolveResult, register_solver
from .scorer import ReferenceScorer

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any


class ReferenceSolver:
    """Pure-Python solver over any lexicon with `in` and `has_prefix`."""

    name = "reference"

    def solve(self, board: Board, lexicon: Any, rules: Rules) -> SolveResult:
        """Find every distinct word; keep the first path found for each."""
        started = time.perf_counter()
        adjacent = neighbours(board.rows, board.cols, rules.diagonals)
        faces = board.faces
        # The lexicon's own C-level calls where it offers them (`probes`): a 4x4 solve makes some
        # thousands of prefix tests; a Python method around each one cost 8-10% of the solve.
        probes = getattr(lexicon, "probes", None)
        contains, starting = probes() if probes is not None else (lexicon.__contains__, None)
        has_prefix = lexicon.has_prefix
        min_length = rules.min_length
        found: dict[str, tuple[int, ...]] = {}
        nodes = 0
        path: list[int] = []
        # Multi-letter letters (Welsh ll): a path spells a word only if its faces' letters are the word's
        # letters under the one rule (two l faces never make ll), and length counts letters.
        spelled = spelling_of(lexicon)
        split = spelled.split if spelled else list
        face_letters = [split(face) for face in faces]
        length = spelled.length if spelled else len

        def spells(word: str) -> bool:
            return not spelled or split(word) == [u for c in path for u in face_letters[c]]

        def walk(cell: int, prefix: str, used: int) -> None:
            nonlocal nodes
            nodes += 1
            path.append(cell)
            if prefix not in found and length(prefix) >= min_length and contains(prefix) and spells(prefix):
                found[prefix] = tuple(path)
            for nxt in adjacent[cell]:
                if not used >> nxt & 1 and faces[nxt]:
                    word = prefix + faces[nxt]
                    if (next(starting(word), None) is not None) if starting else has_prefix(word):
                        walk(nxt, word, used | 1 << nxt)
            path.pop()

        for cell, face in enumerate(faces):
            if face and has_prefix(face):
                walk(cell, face, 1 << cell)

        cols = board.cols
        points = {n: rules.scoring.points(n) for n in {length(word) for word in found}}
        words = tuple(
            FoundWord(
                word,
                points[length(word)],
                tuple(divmod(c, cols) for c in cells),  # Board.position, inlined: a solve has thousands of cells
                None if length(word) == len(word) else length(word),
            )
            for word, cells in found.items()
        )
        return SolveResult(
            board=board,
            lexicon=getattr(lexicon, "name", "custom"),
            rules=rules,
            words=words,
            nodes=nodes,
            seconds=time.perf_counter() - started,
            engine=self.name,
        )

    def prepare(self, lexicon: Any, rules: Rules, shape: tuple[int, int]) -> ReferenceScorer:
        """The batch contract over this engine (see `scorer.prepare_scorer`)."""
        return ReferenceScorer(lexicon, rules, shape)

    def score_many(self, boards: Iterable[Board], lexicon: Any, rules: Rules) -> list[int]:
        """Scores of many boards, one `solve` each."""
        return [self.solve(b, lexicon, rules).score for b in boards]


register_solver("reference", ReferenceSolver)
