"""The solver interface and its result types, shared by every engine.

A future compiled engine implements the same `Solver` protocol, so the CLI, the
tests and the optimiser can swap engines without change.
"""

from __future__ import annotations

from operator import attrgetter

from ..board.board import Board
from ..errors import BoggleI18nError
from ..limits import check, clip
from ..record import dataclass, field
from ..scoring import Scoring, get_scoring

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol
else:
    Protocol = object  # a plain base at run time: the protocol is for mypy


@dataclass(frozen=True)
class Rules:
    """How words are found and scored: minimum length (letters), scoring table, adjacency."""

    min_length: int = 3
    scoring: Scoring = field(default_factory=lambda: get_scoring("classic-4x4"))
    diagonals: bool = True

    def __post_init__(self) -> None:
        check("min_length", self.min_length)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"min_length": self.min_length, "scoring": self.scoring.to_dict(), "diagonals": self.diagonals}


@dataclass(frozen=True)
class FoundWord:
    """A word on the board, its points and one path of (row, col) cells that spells it."""

    word: str
    points: int
    path: tuple[tuple[int, int], ...]
    letters: int | None = None  # length in letters when it is not len(word): Welsh `ll` is one letter

    @property
    def length(self) -> int:
        """Length in letters (a `qu` face gives two; a multi-letter letter such as Welsh `ll` one)."""
        return len(self.word) if self.letters is None else self.letters


_WORD = attrgetter("word")
_POINTS = attrgetter("points")


@dataclass(frozen=True)
class SolveResult:
    """Every distinct word found, with the total score and the search effort."""

    board: Board
    lexicon: str
    rules: Rules
    words: tuple[FoundWord, ...]
    nodes: int
    seconds: float
    engine: str
    lexicon_info: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def score(self) -> int:
        """Sum of the points of all distinct words."""
        return sum(w.points for w in self.words)

    @property
    def n_words(self) -> int:
        """How many distinct words were found."""
        return len(self.words)

    def by_length(self) -> dict[int, list[FoundWord]]:
        """Words grouped by length, longest first; each group sorted alphabetically."""
        groups: dict[int, list[FoundWord]] = {}
        for w in sorted(self.words, key=lambda w: (-w.length, w.word)):
            groups.setdefault(w.length, []).append(w)
        return groups

    def by_points(self) -> list[FoundWord]:
        """Words by points, highest first, then alphabetically: sorted by (-points, word).

        Two stable sorts on plain keys (the word, then the points, descending) give that order and let
        the sort compare strings and ints directly, not tuples: a third of the cost for a thousand words.
        """
        return sorted(sorted(self.words, key=_WORD), key=_POINTS, reverse=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document `solve --json` prints."""
        return {
            "board": self.board.notation(),
            "rows": self.board.rows,
            "cols": self.board.cols,
            "grid": [
                list(self.board.faces[r * self.board.cols : (r + 1) * self.board.cols]) for r in range(self.board.rows)
            ],
            "lexicon": {"name": self.lexicon, **self.lexicon_info},
            "rules": self.rules.to_dict(),
            "engine": self.engine,
            "score": self.score,
            "n_words": self.n_words,
            "words": [  # `length` and `[r, c]` inlined: a solve has about a thousand words
                {
                    "word": w.word,
                    "points": w.points,
                    "length": len(w.word) if w.letters is None else w.letters,
                    "path": [[r, c] for r, c in w.path],
                }
                for w in self.by_points()
            ],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class Solver(Protocol):
    """What every engine offers: all words of one board, and the score of many."""

    name: str

    def solve(self, board: Board, lexicon: Any, rules: Rules) -> SolveResult:
        """Find every word of `board` in `lexicon` under `rules`."""
        ...

    def score_many(self, boards: Iterable[Board], lexicon: Any, rules: Rules) -> list[int]:
        """Total scores of many boards (engines may do this without building word lists)."""
        ...

    def prepare(self, lexicon: Any, rules: Rules, shape: tuple[int, int]) -> Any:
        """A `Scorer` (see `scorer.py`) for many boards of one shape."""
        ...


_SOLVERS: dict[str, Callable[[], Solver]] = {}
# Engines whose module needs numpy (and numba) register when first asked for, off the solve path.
_LAZY = {"fast": "boggle_i18n.solver.fast", "numba": "boggle_i18n.solver.fast"}


def register_solver(name: str, factory: Callable[[], Solver]) -> None:
    """Make an engine available by name (`get_solver`)."""
    _SOLVERS[name] = factory


def solvers() -> list[str]:
    """Names of the available engines."""
    return sorted(set(_SOLVERS) | set(_LAZY))


def get_solver(name: str = "reference") -> Solver:
    """An engine by name."""
    if name not in _SOLVERS and name in _LAZY:
        __import__(_LAZY[name])  # registers the engine (not importlib.import_module: not loaded on a cold path)
    try:
        factory = _SOLVERS[name]
    except KeyError:
        raise BoggleI18nError(f"unknown engine {clip(name, 40)!r} (known: {', '.join(solvers())})") from None
    return factory()
