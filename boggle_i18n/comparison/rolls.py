"""Many random boards at once (`random --count N`): drawn in bulk by numpy, written as board lines.

`api.roll` decides what a roll is (which dice set or faces, which weights, what
shape) and rolls one board with Python's `random`; this module takes those same
decisions from one such roll and draws N boards with numpy's generator, so a
stream of a million boards costs about a second, enough to feed `score`.

Reproducible: the same seed gives the same boards, and a longer run starts with
the boards of a shorter one (boards are drawn in fixed chunks). The stream is
not the one `random --seed S` rolls alone: board i is not `roll(seed=S + i)`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..api import RolledBoard, letter_distribution
from ..board.dice import get_dice

if TYPE_CHECKING:
    import numpy as np

    from ..lexicon import Lexicon

CHUNK = 8192  # boards drawn at a time, whatever the count: the stream does not depend on it


@dataclass(frozen=True)
class BoardSource:
    """What one roll draws from: dice (faces per die) or faces with probabilities, and the board's shape."""

    rows: int
    cols: int
    faces: tuple[str, ...]  # face codes -> face strings (lower case, "" a blank)
    dice: np.ndarray | None  # int32[dice, sides]: face codes per die (padded), with `sides` int32[dice]
    sides: np.ndarray | None
    weights: np.ndarray | None  # float64[faces]: probabilities for drawn letters
    first: RolledBoard  # the roll it was made from: language, dice set, letter mode, lexicon

    @property
    def cells(self) -> int:
        return self.rows * self.cols


def board_source(first: RolledBoard, lexicon: Lexicon | None = None) -> BoardSource:
    """The faces and weights behind `first` (a roll made by `api.roll`, which checked every option)."""
    import numpy as np

    rows, cols = first.board.rows, first.board.cols
    source = get_dice(first.dice) if first.dice else None
    if first.letters is None:
        assert source is not None  # api.roll rolls dice only from a dice set
        faces = sorted({face.lower() for die in source.dice for face in die})
        code = {face: i for i, face in enumerate(faces)}
        sides = max(len(die) for die in source.dice)
        table = np.zeros((len(source.dice), sides), dtype=np.int32)
        for d, die in enumerate(source.dice):
            table[d, : len(die)] = [code[face.lower()] for face in die]
        counts = np.asarray([len(die) for die in source.dice], dtype=np.int32)
        return BoardSource(rows, cols, tuple(faces), table, counts, None, first)
    if first.letters == "uniform":
        assert source is not None
        printed = [face.lower() for die in source.dice for face in die if face]  # as api.roll: each printed face
        faces = sorted(set(printed))
        weights = np.asarray([printed.count(face) for face in faces], dtype=np.float64)
    else:
        distinct, counts_list = letter_distribution(source, lexicon)
        faces = list(distinct)
        weights = np.asarray(counts_list, dtype=np.float64)
    return BoardSource(rows, cols, tuple(faces), None, None, weights / weights.sum(), first)


def draw_codes(source: BoardSource, rng: np.random.Generator, n: int) -> np.ndarray:
    """int32[n, cells] face codes: dice shaken into the grid with one face up, or faces drawn per cell."""
    import numpy as np

    if source.dice is not None and source.sides is not None:
        order = np.argsort(rng.random((n, source.cells)), axis=1)  # die at each cell: a uniform shuffle
        side = (rng.random((n, source.cells)) * source.sides[order]).astype(np.int64)
        return source.dice[order, side]
    assert source.weights is not None
    return rng.choice(len(source.faces), size=(n, source.cells), p=source.weights).astype(np.int32)


def _token_table(source: BoardSource) -> np.ndarray:
    """uint8[faces, width]: each face as `Board.notation` writes it (`a`, `[qu]`, `[]`), NUL-padded."""
    import numpy as np

    tokens = [(face if len(face) == 1 else f"[{face}]").encode("utf-8") for face in source.faces]
    width = max(len(t) for t in tokens)
    table = np.zeros((len(tokens), width), dtype=np.uint8)
    for i, token in enumerate(tokens):
        table[i, : len(token)] = np.frombuffer(token, dtype=np.uint8)
    return table


def notation_lines(source: BoardSource, codes: np.ndarray, table: np.ndarray | None = None) -> bytes:
    """Boards as `Board.notation` lines (rows split by `/`, a lone row ending in `/`), without a loop per board."""
    import numpy as np

    table = _token_table(source) if table is None else table
    n = codes.shape[0]
    cells = table[codes]  # (n, cells, width)
    ends = np.zeros((n, source.cells, 2), dtype=np.uint8)
    row_ends = np.arange(source.cols - 1, source.cells - 1, source.cols)
    ends[:, row_ends, 0] = ord("/")
    if source.rows == 1 and source.cols > 1:
        ends[:, -1, 0] = ord("/")
    ends[:, -1, 1] = ord("\n")
    flat = np.concatenate([cells, ends], axis=2).reshape(-1)
    return flat[flat != 0].tobytes()


def roll_lines(
    source: BoardSource, count: int, seed: int, json_lines: bool = False, again: str | None = None
) -> Iterator[str]:
    """`count` boards as text, a chunk at a time: notation lines, or JSON Lines (one object a board, with
    `again`, the command that rolls the stream again, when given)."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(seed))
    table = _token_table(source)
    done = 0
    while done < count:
        codes = draw_codes(source, rng, CHUNK)[: count - done]
        text = notation_lines(source, codes, table).decode("utf-8")
        if json_lines:
            text = "".join(
                _json_line(source, seed, done + i, board, again) for i, board in enumerate(text.splitlines())
            )
        done += codes.shape[0]
        yield text


def _json_line(source: BoardSource, seed: int, index: int, board: str, again: str | None) -> str:
    first = source.first
    row: dict[str, Any] = {
        "board": board,
        "rows": source.rows,
        "cols": source.cols,
        "seed": seed,
        "index": index,
        "lang": first.language,
        "dice": first.dice,
        "letters": first.letters,
        "lexicon": first.lexicon,
    }
    if again is not None:
        row["again"] = again
    return json.dumps(row, ensure_ascii=False) + "\n"
