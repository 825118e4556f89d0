"""The reference solver: a depth-first walk pruned by the lexicon's prefixes.

Small and obviously correct on purpose; faster engines are checked against it.
A 4x4 board visits some thousands of nodes, each one MARISA prefix test (~1 µs).
"""

from __future__ import annotations

import time

from ..board.board import Board, neighbours
from ..spelling import spelling_of
from .base import FoundWord, Rules, SolveResult, register_solver

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from .scorer import ReferenceScorer


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
        # `starting(prefix)` yields the words that start with `prefix`, the prefix itself first when it is a
        # word (`Lexicon.probes`), so one call per step tells both whether to go on and whether it is a word.
        probes = getattr(lexicon, "probes", None)
        if probes is not None:
            _, starting = probes()
        else:
            contains, has_prefix = lexicon.__contains__, lexicon.has_prefix

            def starting(prefix: str) -> Iterator[str]:
                return iter((prefix,) if contains(prefix) else ("",) if has_prefix(prefix) else ())

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
        plain = not spelled
        # Each cell's next steps, worked out once: (cell, its face, its bit), blank cells left out.
        steps = [
            tuple((nxt, faces[nxt], 1 << nxt) for nxt in adjacent[cell] if faces[nxt]) for cell in range(len(faces))
        ]

        def spells(word: str) -> bool:
            return plain or split(word) == [u for c in path for u in face_letters[c]]

        def walk(cell: int, prefix: str, used: int, is_word: bool) -> None:
            nonlocal nodes
            nodes += 1
            path.append(cell)
            if is_word and prefix not in found and length(prefix) >= min_length and spells(prefix):
                found[prefix] = tuple(path)
            for nxt, face, bit in steps[cell]:
                if not used & bit:
                    word = prefix + face
                    first = next(starting(word), None)
                    if first is not None:  # some word starts with it
                        walk(nxt, word, used | bit, first == word)
            path.pop()

        for cell, face in enumerate(faces):
            first = next(starting(face), None) if face else None
            if first is not None:
                walk(cell, face, 1 << cell, first == face)

        cells = [board.position(cell) for cell in range(len(faces))]
        table: dict[int, int] = {}
        found_words = []
        for word, at in found.items():
            letters = length(word)
            points = table.get(letters)
            if points is None:
                points = table[letters] = rules.scoring.points(letters)
            found_words.append(
                FoundWord(word, points, tuple(map(cells.__getitem__, at)), None if letters == len(word) else letters)
            )
        words = tuple(found_words)
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
        from .scorer import ReferenceScorer  # batches only: a single solve does not load the batch layer

        return ReferenceScorer(lexicon, rules, shape)

    def score_many(self, boards: Iterable[Board], lexicon: Any, rules: Rules) -> list[int]:
        """Scores of many boards, one `solve` each."""
        return [self.solve(b, lexicon, rules).score for b in boards]


register_solver("reference", ReferenceSolver)
