"""Reading boards typed by people.

Compact notation: one face per character, rows separated by spaces or `/`,
multi-letter or blank faces in brackets (`[qu]`, `[th]`, `[]`), `.` for a blank,
case-insensitive. An unseparated string of n*n faces is an n x n board; a single
row written with a `/` (`abcd/`) stays one row (a 1x4 board).
File notation: one row per line, faces separated by spaces.
A dice set may declare shorthands: on English dice a bare `q` means `qu`.
"""

from __future__ import annotations

import math
import unicodedata

from ..errors import BoardError
from ..limits import check, check_face, clip
from ..spelling import is_unit
from .board import DOTTED_CIRCLE, Board

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping

_BLANKS = {".", "[]"}
BOM = "\ufeff"  # editors on Windows start UTF-8 files with it; it is not part of the board


def _face(token: str, shorthands: Mapping[str, str]) -> str:
    """Normalise one face token: brackets off, lower case, NFC, shorthand applied."""
    if token in _BLANKS:
        return ""
    bracketed = token.startswith("[") and token.endswith("]")
    text = unicodedata.normalize("NFC", token[1:-1] if bracketed else token).lower()
    text = text.replace("\u2019", "'")  # a letter written with an apostrophe (Breton [c'h]), straight or curly
    if not (all(ch.isalpha() or unicodedata.category(ch).startswith("M") for ch in text) or is_unit(text)):
        raise BoardError(
            f"bad face {clip(token, 40)!r}: faces are letters, e.g. a, [qu], [th], or [] for a blank",
            code="board.bad_face",
            params={"face": clip(token, 40)},
        )
    if not bracketed and len(text) == 1:
        return shorthands.get(text, text)
    return check_face(text, token)


def _nfc(text: str) -> str:
    """NFC within each face, never across two: a combining mark joins the character before it only where the
    two compose into one (`e` + U+0301 -> `é`); a mark that is a face of its own (Thai `ิ`, `่`) stays apart
    and in place (NFC of a whole row would reorder two neighbouring marks: cells `่` `ุ` -> `ุ` `่`). The dotted
    circle a mark is shown on (`◌ิ`, display_face) is dropped, so a printed grid reads back."""
    out: list[str] = []
    for ch in text.replace(DOTTED_CIRCLE, ""):
        if out and unicodedata.category(ch).startswith("M"):
            joined = unicodedata.normalize("NFC", out[-1] + ch)
            if len(joined) == 1:
                out[-1] = joined
                continue
        out.append(ch)
    return "".join(out)


def face_of(token: str, shorthands: Mapping[str, str]) -> str:
    """The face one token of compact notation stands for (`q` -> `qu` on English dice, `[Th]` -> `th`).

    The batch reader (batch.py) builds its token tables from this, so it reads
    tokens exactly as `parse_board` does. Raises BoardError for a token that is no face.
    """
    return _face(token, shorthands)


def _tokens(row: str) -> list[str]:
    """Split a compact row into face tokens (single characters or bracketed groups)."""
    tokens: list[str] = []
    i = 0
    while i < len(row):
        if row[i] == "[":
            end = row.find("]", i)
            if end < 0:
                raise BoardError(
                    f"unclosed '[' in board row {clip(row)!r}", code="board.bracket", params={"row": clip(row)}
                )
            tokens.append(row[i : end + 1])
            i = end + 1
        elif row[i] == "]":
            raise BoardError(
                f"unmatched ']' in board row {clip(row)!r}", code="board.bracket", params={"row": clip(row)}
            )
        else:
            tokens.append(row[i])
            i += 1
    return tokens


def _shape(rows: list[list[str]], size: tuple[int, int] | None, text: str, explicit: bool = False) -> Board:
    """Rows to a Board; one unseparated row is cut into a square (or `size`) unless `/` made it a row."""
    if len(rows) == 1 and len(rows[0]) > 1 and not explicit:
        flat = rows[0]
        if size is None:
            side = math.isqrt(len(flat))
            if side * side != len(flat):
                raise BoardError(
                    f"board {clip(text)!r} has {len(flat)} faces, not a square: separate rows with '/' or give a size",
                    code="board.not_rectangle",
                    params={"board": clip(text)},
                )
            size = (side, side)
        r, c = size
        if r * c != len(flat):
            raise BoardError(
                f"board {clip(text)!r} has {len(flat)} faces, a {r}x{c} board needs {r * c}",
                code="board.wrong_size",
                params={"board": clip(text), "size": f"{r}x{c}"},
            )
        rows = [flat[i * c : (i + 1) * c] for i in range(r)]
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise BoardError(
            f"board {clip(text)!r} has rows of different lengths {sorted(widths)}",
            code="board.not_rectangle",
            params={"board": clip(text)},
        )
    faces = tuple(face for row in rows for face in row)
    board = Board(len(rows), len(rows[0]), faces)
    if size is not None and board.size != size:
        raise BoardError(
            f"board {clip(text)!r} is {board.rows}x{board.cols}, expected {size[0]}x{size[1]}",
            code="board.wrong_size",
            params={"board": clip(text), "size": f"{size[0]}x{size[1]}"},
        )
    return board


def parse_board(
    text: str,
    shorthands: Mapping[str, str] | None = None,
    size: tuple[int, int] | None = None,
) -> Board:
    """Parse compact notation, e.g. `perslatgsineters`, `abc/def/ghi` or `[qu]ab c[th]d`."""
    shorthands = shorthands or {}
    text = _nfc(text).removeprefix(BOM)
    raw_rows = [r for r in text.replace("/", " ").split() if r]
    if not raw_rows:
        raise BoardError("empty board", code="board.empty")
    rows = [[_face(t, shorthands) for t in _tokens(r)] for r in raw_rows]
    return _shape(rows, size, text.strip(), explicit="/" in text)


def parse_board_file(
    text: str,
    shorthands: Mapping[str, str] | None = None,
    size: tuple[int, int] | None = None,
) -> Board:
    """Parse a board file: one row per line, faces separated by spaces.

    A line without spaces is read as a compact row, so `abcd` lines work too.
    Lines starting with `#` are comments; `/` separates rows as in compact notation.
    """
    shorthands = shorthands or {}
    text = _nfc(text).removeprefix(BOM)
    rows = []
    explicit = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        explicit = explicit or "/" in line
        for row in line.split("/"):
            parts = row.split()
            if not parts:
                continue
            tokens = parts if len(parts) > 1 else _tokens(parts[0])
            rows.append([_face(_bracket(t), shorthands) for t in tokens])
    if not rows:
        raise BoardError("empty board file")
    return _shape(rows, size, " / ".join(text.split("\n")).strip(), explicit)


def _bracket(token: str) -> str:
    """In file notation a multi-letter face needs no brackets: `Qu` is one face."""
    if len(token) > 1 and not token.startswith("[") and token not in _BLANKS:
        return f"[{token}]"
    return token


def parse_size(text: str) -> tuple[int, int]:
    """Parse `RxC` (or `N` for a square)."""
    try:
        if "x" in text.lower():
            r, c = (int(p) for p in text.lower().split("x"))
        else:
            r = c = int(text)
    except ValueError:
        raise BoardError(
            f"bad size {clip(text, 40)!r}: write RxC, e.g. 4x4 or 3x5", code="size.bad", params={"size": clip(text, 40)}
        ) from None
    if r < 1 or c < 1:
        raise BoardError(
            f"bad size {clip(text, 40)!r}: rows and columns must be at least 1",
            code="size.bad",
            params={"size": clip(text, 40)},
        )
    check("rows", r, "--size rows")
    check("cols", c, "--size columns")
    return (r, c)
