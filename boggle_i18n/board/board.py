"""A board is a grid of faces; a face is a string ("a", "qu", "th", or "" for a blank cell)."""

from __future__ import annotations

import unicodedata

from ..errors import BoardError
from ..memo import cache
from ..record import dataclass

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_SIDE = 64


@dataclass(frozen=True)
class Board:
    """An R x C grid of lower-case faces stored row by row. `""` is a blank (unusable) cell."""

    rows: int
    cols: int
    faces: tuple[str, ...]

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE):
            raise BoardError(
                f"board size {self.rows}x{self.cols} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}",
                code="board.too_large",
                params={"size": f"{self.rows}x{self.cols}", "max": f"{MAX_SIDE}x{MAX_SIDE}"},
            )
        if len(self.faces) != self.rows * self.cols:
            raise BoardError(
                f"a {self.rows}x{self.cols} board needs {self.rows * self.cols} faces, got {len(self.faces)}"
            )

    @property
    def size(self) -> tuple[int, int]:
        """(rows, cols)."""
        return (self.rows, self.cols)

    def position(self, cell: int) -> tuple[int, int]:
        """(row, col) of a cell index."""
        return divmod(cell, self.cols)

    def notation(self) -> str:
        """Compact notation that `parse_board` reads back: rows joined by `/`, long faces in brackets.

        A single row of several faces ends in `/` (`abcd/`), else it would read back as a square.
        """

        def one(face: str) -> str:
            return face if len(face) == 1 else f"[{face}]"

        text = "/".join(
            "".join(one(f) for f in self.faces[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)
        )
        return text + "/" if self.rows == 1 and self.cols > 1 else text

    def grid(self, show: Callable[[str], str] | None = None) -> str:
        """The board as aligned rows of capitalised faces, blanks shown as `.`.

        `show` prints one face (a language's `display_face`, for case pairs like Turkish `i` -> `İ`).
        """
        shown = [(show or display_face)(f) for f in self.faces]
        width = max(map(columns, shown))
        return "\n".join(
            " ".join(s + " " * (width - columns(s)) for s in shown[r * self.cols : (r + 1) * self.cols]).rstrip()
            for r in range(self.rows)
        )

    def __str__(self) -> str:
        return self.notation()


def columns(text: str) -> int:
    """Terminal columns `text` takes: a non-spacing mark (Thai `ิ` on its dotted circle) takes none."""
    return sum(1 for ch in text if unicodedata.category(ch) not in ("Mn", "Me"))


DOTTED_CIRCLE = "\u25cc"  # Unicode's base for showing a combining mark alone (shown only, never in a key)


def display_face(face: str) -> str:
    """A face as printed on a die: `Qu`, `A`, `.` for a blank; `ß` stays one letter; a face that starts with a
    combining mark (a Thai vowel sign or tone mark: `ิ`, `่`) on a dotted circle (`◌ิ`), so it is readable alone."""
    if not face:
        return "."
    if unicodedata.category(face[0]).startswith("M"):
        return DOTTED_CIRCLE + face
    first = face[0].upper()
    return (first if len(first) == 1 else face[0]) + face[1:]


@cache
def neighbours(rows: int, cols: int, diagonals: bool = True) -> tuple[tuple[int, ...], ...]:
    """Adjacent cells of every cell: 8 neighbours, or 4 without diagonals. Cached per geometry."""
    steps = [(-1, 0), (0, -1), (0, 1), (1, 0)]
    if diagonals:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(
                tuple(
                    sorted((r + dr) * cols + (c + dc) for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols)
                )
            )
    return tuple(out)
