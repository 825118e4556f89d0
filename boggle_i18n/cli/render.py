"""Human-readable solve results: grid, score, words by length, paths drawn on the grid."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable

from ..board.board import Board, display_face
from ..language.records import Language, get_language
from ..solver.base import FoundWord, SolveResult

LRM = "\u200e"  # LEFT-TO-RIGHT MARK: keeps a grid of right-to-left letters in its columns' order


def isolate(text: str, direction: str) -> str:
    """Right-to-left text inside a left-to-right line, isolated (FSI ... PDI) so a bidi terminal
    reorders only the text, never the line around it. Never used on text meant to be pasted back."""
    return f"\u2068{text}\u2069" if direction == "rtl" and text else text


def rtl_grid(grid: str) -> str:
    """A grid of a right-to-left language: each cell followed by a LRM, so a bidi terminal keeps the
    board's geometry (first column on the left) instead of reversing each row."""
    return "\n".join(LRM + line.replace(" ", LRM + " ") + LRM for line in grid.split("\n"))


def _language(lang: str | None) -> Language | None:
    try:
        return get_language(lang) if lang else None
    except Exception:  # an unknown code prints as before: nothing to apply
        return None


def counted(n: int, noun: str, plural: str | None = None, grouped: bool = True) -> str:
    """`1 word`, `2 words`, `1,045 words` (`1045 words` ungrouped): a count with its noun in the right number."""
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun if n == 1 else plural or noun + 's'}"


def draw_path(board: Board, word: FoundWord, show: Callable[[str], str] = display_face) -> str:
    """The grid with the path's step numbers in its cells and dots elsewhere (`show` prints a face)."""
    steps = {cell: i for i, cell in enumerate(word.path, 1)}
    faces = [show(f) for f in board.faces]
    width = max(max(len(f) for f in faces), len(str(len(word.path))))
    lines = []
    for r in range(board.rows):
        letters = []
        numbers = []
        for c in range(board.cols):
            letters.append(faces[r * board.cols + c].ljust(width))
            step = steps.get((r, c))
            numbers.append((str(step) if step else "·").ljust(width))
        lines.append("  " + " ".join(letters) + "    " + " ".join(numbers))
    return "\n".join(line.rstrip() for line in lines)


def render_result(result: SolveResult, paths: bool = False, lang: str | None = None, dice: str | None = None) -> str:
    """Everything `solve` prints without --json; the board line is notation to paste back into `solve`."""
    width = min(shutil.get_terminal_size((100, 24)).columns, 120)
    rules = result.rules
    info = result.lexicon_info
    count = f" ({counted(info['word_count'], 'word')})" if "word_count" in info else ""
    board = result.board
    played = "".join(f"; {k} {v}" for k, v in (("language", lang), ("dice", dice)) if v)
    language = _language(lang)
    rtl = language is not None and language.direction == "rtl"
    shown = language.display if language is not None else str
    face = language.display_face if language is not None else display_face
    out = [
        rtl_grid(board.grid(face)) if rtl else board.grid(face),
        "",
        f"board {board.notation()} ({board.rows}x{board.cols}){played}",
        f"lexicon {result.lexicon}{count}; min {counted(rules.min_length, 'letter')}; "
        f"scoring {rules.scoring.name} ({rules.scoring.describe()}); "
        f"diagonals {'on' if rules.diagonals else 'off'}",
        f"score {result.score} from {counted(result.n_words, 'word', grouped=False)}",
    ]
    for length, words in result.by_length().items():
        pts = sorted({w.points for w in words})
        each = f"{pts[0]} point{'s' if pts[0] != 1 else ''} each" if len(pts) == 1 else "points vary"
        out.append("")
        out.append(f"{counted(length, 'letter')}, {each} ({counted(len(words), 'word', grouped=False)}):")
        out.append(
            textwrap.fill(
                " ".join(shown(w.word) for w in words), width=width, initial_indent="  ", subsequent_indent="  "
            )
        )
    if paths:
        out.append("")
        out.append("paths:")
        for w in sorted(result.words, key=lambda w: (-w.points, w.word)):
            out.append(
                f"{isolate(shown(w.word), 'rtl' if rtl else 'ltr')}: {w.points} point{'s' if w.points != 1 else ''}"
            )
            out.append(draw_path(result.board, w, face))
    out.append("")
    out.append(f"searched {result.nodes:,} nodes in {result.seconds * 1000:.1f} ms ({result.engine} engine)")
    return "\n".join(out)
