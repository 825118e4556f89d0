"""Boards up to symmetry: rotations and reflections that keep the board's shape.

A square board has 8 symmetries (4 rotations, each also mirrored); any other
rectangle has 4 (identity, both mirrors, half turn). Every symmetry maps a
board to one with the same words and score, so reports show one canonical
representative: the image whose faces, read row by row, sort first.
"""

from __future__ import annotations

from functools import cache

from ..board.board import Board


@cache
def symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Cell permutations `p` (new cell k shows old cell p[k]) of every shape-keeping symmetry."""

    def perm(fn: object) -> tuple[int, ...]:
        return tuple(fn(r, c) for r in range(rows) for c in range(cols))  # type: ignore[operator]

    def at(r: int, c: int) -> int:
        return r * cols + c

    out = [
        perm(lambda r, c: at(r, c)),
        perm(lambda r, c: at(r, cols - 1 - c)),
        perm(lambda r, c: at(rows - 1 - r, c)),
        perm(lambda r, c: at(rows - 1 - r, cols - 1 - c)),
    ]
    if rows == cols:
        out += [
            perm(lambda r, c: at(c, r)),
            perm(lambda r, c: at(c, cols - 1 - r)),
            perm(lambda r, c: at(rows - 1 - c, r)),
            perm(lambda r, c: at(rows - 1 - c, cols - 1 - r)),
        ]
    unique: list[tuple[int, ...]] = []
    for p in out:  # a 1x1 or 1xN board has fewer distinct ones
        if p not in unique:
            unique.append(p)
    return tuple(unique)


def canonical_faces(faces: tuple[str, ...], rows: int, cols: int) -> tuple[str, ...]:
    """The smallest image of `faces` under the board's symmetries."""
    return min(tuple(faces[i] for i in p) for p in symmetries(rows, cols))


def canonical(board: Board) -> Board:
    """The canonical representative of `board`'s symmetry class."""
    return Board(board.rows, board.cols, canonical_faces(board.faces, board.rows, board.cols))
