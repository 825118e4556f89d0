"""The engine contract for batch work: prepare once, then feed integer-coded boards.

    scorer = prepare_scorer(lexicon, rules, (4, 4), engine="fast")
    codes = scorer.codec.encode_many(boards, scorer.cells)      # int32[n, cells]
    scores, n_words = scorer.score_codes(codes)                  # int64[n], int32[n]
    result = scorer.solve(board)                                 # words, points, paths

Every engine's scorer has the same methods, so the `score` command, the
optimiser and the comparison swap engines freely. The reference scorer decodes
codes back to boards and runs the reference solver: slow, and the yardstick.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board.board import Board
from ..errors import BoardError
from ..spelling import spelling_of
from .base import Rules, SolveResult, get_solver
from .codec import FaceCodec

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any, Protocol

    import numpy as np
else:
    Protocol = object  # a plain base at run time: the protocol is for mypy


class Scorer(Protocol):
    """A lexicon, rules and board shape made ready for many boards."""

    engine: str
    rows: int
    cols: int
    rules: Rules
    codec: FaceCodec

    @property
    def cells(self) -> int:
        """Cells per board (rows * cols)."""
        ...

    def score_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores (int64) and distinct-word counts (int32) of `int32[n, cells]` boards."""
        ...

    def score_boards(self, boards: Iterable[Board]) -> tuple[np.ndarray, np.ndarray]:
        """The same for Board objects (encoded with this scorer's codec)."""
        ...

    def solve(self, board: Board) -> SolveResult:
        """Every word of one board, with points and paths."""
        ...


class ScorerBase:
    """What every scorer shares: shape checks and Board encoding."""

    engine = "base"

    def __init__(self, lexicon: Any, rules: Rules, shape: tuple[int, int], codec: FaceCodec) -> None:
        self.lexicon = lexicon
        self.rules = rules
        self.rows, self.cols = shape
        self.codec = codec

    @property
    def cells(self) -> int:
        """Cells per board."""
        return self.rows * self.cols

    def _check(self, board: Board) -> None:
        if board.size != (self.rows, self.cols):
            raise BoardError(
                f"board {board.notation()} is {board.rows}x{board.cols}; this scorer is {self.rows}x{self.cols}"
            )

    def score_boards(self, boards: Iterable[Board]) -> tuple[np.ndarray, np.ndarray]:
        """Encode and score."""
        return self.score_codes(self.codec.encode_many(boards, self.cells))

    def score_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - abstract
        raise NotImplementedError


class ReferenceScorer(ScorerBase):
    """The contract over the reference solver: each code row decoded and solved."""

    engine = "reference"

    def __init__(self, lexicon: Any, rules: Rules, shape: tuple[int, int]) -> None:
        super().__init__(lexicon, rules, shape, FaceCodec(lexicon_letters(lexicon), max_letters=None))
        self._solver = get_solver("reference")

    def score_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Decode each row and solve it."""
        import numpy as np

        codes = np.asarray(codes, dtype=np.int32).reshape(-1, self.cells)
        scores = np.empty(codes.shape[0], dtype=np.int64)
        words = np.empty(codes.shape[0], dtype=np.int32)
        for i, row in enumerate(codes):
            result = self._solver.solve(self.codec.decode(row, self.rows, self.cols), self.lexicon, self.rules)
            scores[i] = result.score
            words[i] = result.n_words
        return scores, words

    def solve(self, board: Board) -> SolveResult:
        """The reference solve."""
        self._check(board)
        return self._solver.solve(board, self.lexicon, self.rules)


def lexicon_letters(lexicon: Any) -> list[str]:
    """A lexicon's alphabet: from its manifest when it has one, else read from its words.

    A lexicon with multi-letter letters (Welsh `ll`) lists them as letters: its manifest's letter counts.
    """
    manifest = getattr(lexicon, "manifest", {})
    counts = manifest.get("letter_counts")
    if spelling_of(lexicon) and isinstance(counts, dict) and counts:
        return sorted(counts)
    alphabet = manifest.get("alphabet")
    if isinstance(alphabet, str) and alphabet:
        return sorted(alphabet)
    return sorted({ch for w in lexicon.keys() for ch in w}) if hasattr(lexicon, "keys") else []


def prepare_scorer(lexicon: Any, rules: Rules, shape: tuple[int, int], engine: str = "fast") -> Scorer:
    """A scorer of `engine` for boards of `shape` (rows, cols) under `rules`."""
    prepared: Scorer = get_solver(engine).prepare(lexicon, rules, shape)
    return prepared
