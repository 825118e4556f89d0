"""`solve`: find every word of a board."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..api import load_lexicon, parse_board, rules_for, solve
from ..board.dice import get_dice
from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..languages import get_language
from ..lexicon.store import lexicon_paths
from ..pipeline.recipe import load_recipe
from . import app
from .common import StoreOption, building_note, emit, handle_errors, to_json
from .render import render_result


def read_board_text(board: str | None, board_file: Path | None) -> tuple[str, bool]:
    """The board text and whether it is in file notation (from --file or stdin)."""
    if board_file is not None:
        try:
            return board_file.read_text(encoding="utf-8"), True
        except UnicodeDecodeError:
            raise BoggleI18nError(f"board file {board_file} is not UTF-8 text") from None
    if board is None:
        raise BoggleI18nError(
            "give a board (e.g. perslatgsineters or abcd/efgh/ijkl/mnop), --file FILE, or - for stdin"
        )
    if board == "-":
        return sys.stdin.read(), True
    return board, False


@app.command("solve")
@handle_errors
def solve_cmd(
    board: str | None = typer.Argument(
        None, help="Board: rows split by '/' or spaces, [qu] for long faces, [] or . for blanks; - reads stdin."
    ),
    board_file: Path | None = typer.Option(
        None, "--file", "-f", help="Read the board from a file: one row per line, faces split by spaces."
    ),
    lang: str | None = typer.Option(
        None, "--lang", "-l", help="Language: its default lexicon, dice and rules [default: the lexicon's, or en]."
    ),
    lexicon_name: str | None = typer.Option(
        None, "--lexicon", help="Lexicon to use (a built name or recipe) instead of the language's."
    ),
    dice: str | None = typer.Option(None, "--dice", help="Dice set whose rules apply (min length, scoring, q = qu)."),
    size: str | None = typer.Option(None, "--size", help="Shape of an unseparated board string, e.g. 3x5."),
    no_diagonals: bool = typer.Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = typer.Option(None, "--min-length", min=1, help="Shortest word that counts (letters)."),
    scoring: str | None = typer.Option(
        None,
        "--scoring",
        help="Scoring preset (classic-4x4, big-5x5, superbig-6x6, ...) or a table like 3:1,4:1,5:2,6:3,7:5,8:11.",
    ),
    bare_q: str | None = typer.Option(None, "--bare-q", help="What a lone q means: qu or q [default: from the dice]."),
    paths: bool = typer.Option(False, "--paths", help="Draw each word's path on the grid."),
    json_out: bool = typer.Option(
        False, "--json", help="Print one JSON object (board, lexicon, score, words with paths)."
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the result to this file (atomically) instead of stdout."
    ),
    store: Path | None = StoreOption,
) -> None:
    """Solve a board: every word, its points and its path, and the total score."""
    text, file_format = read_board_text(board, board_file)
    if lang is None and dice is not None:
        lang = get_dice(dice).language
    name = lexicon_name or get_language(lang or "en").lexicon
    if name is None:
        raise BoggleI18nError(f"language {lang!r} has no default lexicon yet: pass --lexicon NAME or a recipe .toml")
    lang = lang or lexicon_language(name, store)
    # Parse first: a typo in the board should not wait for a lexicon build.
    shape = parse_size(size) if size else None
    parsed = parse_board(text, lang=lang, dice=dice, size=shape, bare_q=bare_q, file_format=file_format)
    rules = rules_for(parsed, lang=lang, dice=dice, min_length=min_length, scoring=scoring, diagonals=not no_diagonals)
    lexicon = load_lexicon(name, store, on_build=building_note)
    result = solve(parsed, lexicon, rules)
    emit(to_json(result.to_dict()) if json_out else render_result(result, paths=paths), output)


def lexicon_language(name: str, store: Path | None) -> str:
    """The language of a lexicon: from its manifest if built, else from its recipe."""
    _, manifest_path = lexicon_paths(name, store)
    try:
        return str(json.loads(manifest_path.read_text(encoding="utf-8"))["language"])
    except (OSError, ValueError, KeyError, TypeError):
        return load_recipe(name).language  # not built (or unreadable: loading will say so)
