"""The fast engine: one walk over the board and the compiled popcount trie, in two builds.

- `fast` runs the C kernel (`_kernel.c`, compiled when the package is
  installed): no JIT, a few milliseconds and about 30 MiB to start. Where it was
  not built (no C compiler at install time) `fast` runs the numba kernel
  instead, and says so.
- `numba` always runs the numba kernel (`kernels.py`, the `numba` extra): the
  same walk, compiled on first use and cached by numba.

Boards of up to 64 cells (a used-cell set is one 64-bit word); larger boards are
handed to the reference engine, and the result says so.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..board.board import Board, neighbours
from ..errors import BoardError, BoggleI18nError, EngineError, LimitError
from ..limits import INT64_MAX, LIMITS, MAX_WORDS, clip
from .base import FoundWord, Rules, SolveResult, register_solver
from .codec import FaceCodec
from .compiled import CompiledLexicon, compile_lexicon
from .scorer import ReferenceScorer, Scorer, ScorerBase

MAX_CELLS = 64
_SERIAL_LIMIT = 2**31 - 2
NO_C_KERNEL = "the fast engine's C kernel was not built (no C compiler at install time); running its numba kernel"


def load_kernel(name: str) -> Any:
    """The kernel module called `name` ("c" or "numba"); both offer `score_batch` and `solve_one`."""
    try:  # numba's module is imported only now, never on the solve path
        return importlib.import_module(f"{__package__}.{'_kernel' if name == 'c' else 'kernels'}")
    except ImportError as error:
        what = "the C kernel was not built" if name == "c" else "numba is not installed"
        raise EngineError(
            f"{what}; reinstall with a C compiler present, or: pip install 'boggle-i18n[numba]'"
        ) from error


def c_kernel_built() -> bool:
    """Whether the C kernel was compiled at install time."""
    try:
        load_kernel("c")
    except BoggleI18nError:
        return False
    return True


def neighbour_arrays(rows: int, cols: int, diagonals: bool) -> tuple[np.ndarray, np.ndarray]:
    """`(nbr int64[cells, 8], count int64[cells])` in the reference engine's neighbour order."""
    table = neighbours(rows, cols, diagonals)
    nbr = np.zeros((rows * cols, 8), dtype=np.int64)
    count = np.zeros(rows * cols, dtype=np.int64)
    for cell, adjacent in enumerate(table):
        nbr[cell, : len(adjacent)] = adjacent
        count[cell] = len(adjacent)
    return nbr, count


def points_table(rules: Rules, max_length: int, word_count: int = MAX_WORDS) -> np.ndarray:
    """Points by word length 0..max_length, zero below the minimum length.

    The kernels sum int64 with no overflow check in the hot loop, so the bound is
    checked here, once: each distinct word counts once a board, so a total is at
    most max(points) x word_count, which must stay inside int64 (`limits`).
    """
    values = [rules.scoring.points(n) if n >= rules.min_length else 0 for n in range(max_length + 1)]
    if values and (min(values) < 0 or max(values) * max(word_count, 1) > INT64_MAX):
        raise LimitError(
            f"scoring {clip(rules.scoring.name, 60)!r} could overflow a board total: points a word must be in "
            f"{LIMITS['points'].describe()}"
        )
    return np.array(values, dtype=np.int64)


class FastScorer(ScorerBase):
    """Scores boards of one shape with a kernel ("c" or "numba"); `solve` gives words and paths."""

    note: str | None = None

    def __init__(
        self,
        lexicon: Any,
        rules: Rules,
        shape: tuple[int, int],
        compiled: CompiledLexicon,
        kernel: str = "c",
        engine: str = "fast",
    ) -> None:
        rows, cols = shape
        if rows * cols > MAX_CELLS:
            raise BoardError(f"the fast engine takes boards of at most {MAX_CELLS} cells, not {rows}x{cols}")
        super().__init__(lexicon, rules, shape, FaceCodec(compiled.letters))
        self.compiled = compiled
        self._nbr, self._nbr_n = neighbour_arrays(rows, cols, rules.diagonals)
        self._points = points_table(rules, compiled.max_length, compiled.word_count)
        self._stamp = np.zeros(compiled.nodes, dtype=np.int32)
        self._serial = 1
        self.engine = engine
        self.kernel = kernel
        self._kernels: Any = load_kernel(kernel)  # checked at the call (buffers, numba types), not by mypy

    def _board_tables(self) -> tuple[np.ndarray, ...]:
        """What every kernel call reads: face spellings (current: the codec may have grown), neighbours, trie."""
        letters, lengths = self.codec.face_arrays()
        return letters, lengths, self._nbr, self._nbr_n, self.compiled.records

    def _serials(self, n: int) -> int:
        """The first board serial for a batch of `n`; stamps are wiped when serials would overflow."""
        if self._serial + n >= _SERIAL_LIMIT:
            self._stamp[:] = 0
            self._serial = 1
        first = self._serial
        self._serial += n
        return first

    def score_codes(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores (int64) and word counts (int32) of `int32[n, cells]` boards."""
        codes = np.ascontiguousarray(codes, dtype=np.int32).reshape(-1, self.cells)
        n = codes.shape[0]
        scores = np.zeros(n, dtype=np.int64)
        words = np.zeros(n, dtype=np.int32)
        if n == 0:
            return scores, words
        if codes.min() < 0 or codes.max() >= len(self.codec.faces):
            raise BoardError(f"face codes must lie in 0..{len(self.codec.faces) - 1} for this scorer's codec")
        self._kernels.score_batch(
            codes,
            *self._board_tables(),
            self._stamp,
            self._serials(n),
            self._points,
            self.rules.min_length,
            scores,
            words,
        )
        return scores, words

    def solve(self, board: Board) -> SolveResult:
        """Every distinct word with the first path found (the reference engine's order)."""
        self._check(board)
        started = time.perf_counter()
        codes = self.codec.encode(board)
        tables = self._board_tables()
        capacity = 1024
        while True:
            paths = np.empty((capacity, self.cells), dtype=np.int64)
            plen = np.empty(capacity, dtype=np.int64)
            found, nodes = self._kernels.solve_one(
                codes,
                *tables,
                self._stamp,
                self._serials(1),
                self._points,
                self.rules.min_length,
                paths,
                plen,
            )
            if found >= 0:
                break
            capacity *= 4
        faces = board.faces
        spelled = [len(self.codec.spell(face)) for face in faces]  # letters per face: Welsh [ll] is one
        positions = [board.position(i) for i in range(len(faces))]
        points = self.rules.scoring.points
        words = []
        # Python lists, not numpy rows, in this loop: a warm web solve spends most of its time here.
        for row, n in zip(paths[:found].tolist(), plen[:found].tolist(), strict=True):
            cells = row[:n]
            word = "".join([faces[i] for i in cells])
            letters = sum([spelled[i] for i in cells])
            path = tuple([positions[i] for i in cells])
            words.append(FoundWord(word, points(letters), path, None if letters == len(word) else letters))
        return SolveResult(
            board=board,
            lexicon=getattr(self.lexicon, "name", "custom"),
            rules=self.rules,
            words=tuple(words),
            nodes=int(nodes),
            seconds=time.perf_counter() - started,
            engine=self.engine,
        )


class FallbackScorer(ReferenceScorer):
    """A board over 64 cells: the reference engine does the work, and says so."""

    def __init__(self, lexicon: Any, rules: Rules, shape: tuple[int, int]) -> None:
        super().__init__(lexicon, rules, shape)
        self.note = (
            f"the fast engine takes at most {MAX_CELLS} cells; this {shape[0]}x{shape[1]} board "
            "was solved by the reference engine"
        )


class FastEngine:
    """The `fast` engine: prepare a scorer per board shape; one-off calls prepare on the fly."""

    name = "fast"
    releases_gil = True  # both kernels run without the GIL: score's workers can be threads

    def _kernel(self) -> tuple[str, str | None]:
        """The kernel to run and a note saying why when it is not the engine's first choice."""
        if c_kernel_built():
            return "c", None
        try:
            load_kernel("numba")
        except EngineError:
            raise EngineError(
                "the fast engine has no kernel: the C kernel was not built (no C compiler at install time) and "
                "numba is not installed; reinstall with a C compiler present, or: pip install 'boggle-i18n[numba]'"
            ) from None
        return "numba", NO_C_KERNEL

    def prepare(self, lexicon: Any, rules: Rules, shape: tuple[int, int]) -> Scorer:
        """A FastScorer, or the reference engine for boards over 64 cells."""
        if shape[0] * shape[1] > MAX_CELLS:
            return FallbackScorer(lexicon, rules, shape)
        kernel, note = self._kernel()
        scorer = FastScorer(lexicon, rules, shape, compile_lexicon(lexicon), kernel=kernel, engine=self.name)
        scorer.note = note
        return scorer

    def solve(self, board: Board, lexicon: Any, rules: Rules) -> SolveResult:
        """Solve one board."""
        return self.prepare(lexicon, rules, board.size).solve(board)

    def score_many(self, boards: Iterable[Board], lexicon: Any, rules: Rules) -> list[int]:
        """Scores of many boards in input order, one prepared scorer and one batch per shape."""
        boards = list(boards)
        by_shape: dict[tuple[int, int], list[int]] = {}
        for i, board in enumerate(boards):
            by_shape.setdefault(board.size, []).append(i)
        out = [0] * len(boards)
        for shape, indices in by_shape.items():
            scores, _ = self.prepare(lexicon, rules, shape).score_boards(boards[i] for i in indices)
            for i, score in zip(indices, scores, strict=True):
                out[i] = int(score)
        return out


class NumbaEngine(FastEngine):
    """The `numba` engine: the fast engine's walk, always on the numba kernel (the `numba` extra)."""

    name = "numba"

    def _kernel(self) -> tuple[str, str | None]:
        return "numba", None


register_solver("fast", FastEngine)
register_solver("numba", NumbaEngine)
