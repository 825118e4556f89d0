"""`solve`: find every word of a board."""

from __future__ import annotations

import sys

from ..api import solve
from ..board.board import MAX_SIDE
from ..board.notation import parse_size
from ..errors import BoardError
from ..language.selection import Selection
from ..limits import MAX_LINE, clip
from ..solver.base import get_solver
from ..solving import choose_board, solution_dict
from . import app
from .common import OutputOption, StoreOption, check_output, emit, load_or_build, to_json, warn
from .framework import Argument, Option

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: not imported on a cold solve's path
    from pathlib import Path
    from typing import BinaryIO

STDIN = "-"


MAX_BOARD_FILE = MAX_LINE * MAX_SIDE  # a board file: at most 64 rows of at most MAX_LINE bytes (4 MiB)


def read_board_stream(stream: BinaryIO, name: str) -> str:
    """A board file's text, read with bounds before it is held: each line at most MAX_LINE bytes, the whole file
    at most MAX_BOARD_FILE; UTF-8. Linear in what is read; a file, FIFO or terminal are read the same way.
    """
    read = getattr(stream, "read1", stream.read)
    parts: list[bytes] = []
    size = 0
    line = 1
    current = 0  # bytes of the current line so far
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_BOARD_FILE:
            raise BoardError(f"{name} is over {MAX_BOARD_FILE:,} bytes: a board file holds one board")
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            current += (len(chunk) if end < 0 else end) - start
            if current > MAX_LINE:
                raise BoardError(f"{name}: line {line} is over the maximum {MAX_LINE:,} bytes a line")
            if end < 0:
                break
            line += 1
            current = 0
            start = end + 1
        parts.append(chunk)
    data = b"".join(parts)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = data.count(b"\n", 0, exc.start) + 1
        raise BoardError(f"{name} is not UTF-8 text (line {where}: byte {data[exc.start]:#04x})") from None


def _stdin_text() -> str:
    """The board from stdin, as UTF-8 (a BOM is dropped by the parser)."""
    return read_board_stream(sys.stdin.buffer, "board input")


def read_board_text(board: list[str] | None, board_file: Path | None) -> tuple[str, bool]:
    """The board text and whether it is in file notation (from --file, or `-` for stdin).

    Rows given as separate arguments (`solve abcd efgh ijkl mnop`) are one board.
    """
    board = board or []
    if board_file is not None:
        if board:
            raise BoardError("give the board as an argument or with --file, not both")
        if str(board_file) == STDIN:
            return _stdin_text(), True
        if board_file.is_dir():
            raise BoardError(f"board file {clip(str(board_file))} is a folder")
        with board_file.open("rb") as stream:
            return read_board_stream(stream, f"board file {clip(str(board_file))}"), True
    if not board:
        raise BoardError("give a board (e.g. perslatgsineters or abcd/efgh/ijkl/mnop), --file FILE, or - for stdin")
    if board == [STDIN]:
        return _stdin_text(), True
    return " ".join(board), False


@app.command("solve")
def solve_cmd(
    board: list[str] | None = Argument(
        None,
        metavar="BOARD",
        help="Board: rows split by '/' or spaces (or given as separate arguments), [qu] for a multi-letter face, "
        "[] or . for a blank; - reads stdin.",
        show_default=False,
    ),
    board_file: Path | None = Option(
        None,
        "--file",
        "-f",
        metavar="FILE",
        help="Read the board from FILE (- for stdin): one row per line, faces split by spaces.",
        show_default=False,
    ),
    lang: str | None = Option(
        None,
        "--lang",
        "-l",
        metavar="CODE",
        help="Language: its default lexicon, dice and rules [default: the lexicon's, or en].",
        show_default=False,
    ),
    lexicon_name: str | None = Option(
        None,
        "--lexicon",
        metavar="NAME",
        help="Lexicon to use (a built name, a recipe name or .toml path) instead of the language's.",
        show_default=False,
    ),
    dice: str | None = Option(
        None,
        "--dice",
        metavar="SET",
        help="Dice set whose rules apply (min length, scoring, q = qu).",
        show_default=False,
    ),
    size: str | None = Option(
        None, "--size", metavar="RxC", help="Shape of an unseparated board string, e.g. 3x5.", show_default=False
    ),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = Option(
        None,
        "--min-length",
        metavar="N",
        help="Shortest word that counts, in letters [default: the dice set's].",
        show_default=False,
    ),
    scoring: str | None = Option(
        None,
        "--scoring",
        metavar="TABLE",
        help="Scoring preset (classic-4x4, big-5x5, superbig-6x6, ...) or a table like 3:1,4:1,5:2,6:3,7:5,8:11 "
        "[default: the dice set's].",
        show_default=False,
    ),
    bare_q: str | None = Option(
        None, "--bare-q", metavar="qu|q", help="What a lone q means [default: from the dice].", show_default=False
    ),
    paths: bool = Option(False, "--paths", help="Draw each word's path on the grid."),
    engine: str = Option(
        "reference",
        "--engine",
        metavar="NAME",
        help="Engine: reference (no start-up cost, best for one board), fast (C kernel; loads numpy once) or numba.",
    ),
    json_out: bool = Option(
        False, "--json", help="Print one JSON object (board, lang, dice, lexicon, rules, score, words with paths)."
    ),
    output: Path | None = OutputOption,
    store: Path | None = StoreOption,
) -> None:
    """Solve a board: every word, its points and its path, and the total score."""
    get_solver(engine)  # an unknown engine is a usage error, before any work
    check_output(output)
    text, file_format = read_board_text(board, board_file)
    # Parsed first: a typo in the board should not wait for a lexicon build.
    chosen, parsed = choose_board(
        text,
        lang=lang,
        lexicon=lexicon_name,
        dice=dice,
        size=parse_size(size) if size else None,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        bare_q=bare_q,
        store=store,
        file_format=file_format,
    )
    name = chosen.require_lexicon()
    for message in chosen.warnings:
        warn(message)
    lexicon = load_or_build(name, store)
    result = solve(parsed, lexicon, chosen.rules, lang=chosen.language.code, engine=engine)
    if json_out:
        emit(to_json(solution_dict(chosen, result)), output)
    else:
        from .render import render_result  # the text layout: not needed for --json

        emit(render_result(result, paths=paths, lang=chosen.language.code, dice=_dice_id(chosen)), output)


def _dice_id(chosen: Selection) -> str | None:
    return chosen.dice.id if chosen.dice else None
