"""`random`: roll a board from a dice set, or draw letters for any size."""

from __future__ import annotations

from pathlib import Path

import typer

from ..api import load_lexicon, roll_board
from ..board.dice import get_dice
from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..languages import get_language
from . import app
from .common import StoreOption, building_note, emit, handle_errors, note, to_json


@app.command("random")
@handle_errors
def random_cmd(
    dice: str | None = typer.Option(None, "--dice", help="Dice set to roll (see `boggle-i18n dice`)."),
    lang: str | None = typer.Option(None, "--lang", "-l", help="Language whose dice or letters to use [default: en]."),
    size: str | None = typer.Option(None, "--size", help="Board size RxC, e.g. 5x5 or 3x7."),
    letters: str | None = typer.Option(
        None, "--letters", help="uniform, or lexicon (weighted by a built lexicon's letter counts)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Random seed; the seed used is always echoed."),
    json_out: bool = typer.Option(False, "--json", help="Print board, notation and seed as JSON."),
    store: Path | None = StoreOption,
) -> None:
    """Roll a random board: dice shuffled to cells, one face up (or letters drawn per cell)."""
    shape = parse_size(size) if size else None
    counts = None
    if letters == "lexicon":
        language = get_language(lang or (get_dice(dice).language if dice else "en"))
        if language.lexicon is None:
            raise BoggleI18nError(f"language {language.code!r} has no lexicon to weigh letters: use --letters uniform")
        lexicon = load_lexicon(language.lexicon, store, on_build=building_note)
        counts = lexicon.manifest.get("letter_counts")
    board, used_seed = roll_board(dice=dice, lang=lang, size=shape, letters=letters, seed=seed, letter_counts=counts)
    note(f"seed: {used_seed}")
    if json_out:
        emit(
            to_json(
                {
                    "board": board.notation(),
                    "rows": board.rows,
                    "cols": board.cols,
                    "seed": used_seed,
                    "dice": dice,
                    "lang": lang,
                    "letters": letters,
                }
            )
        )
    else:
        emit(f"{board.grid()}\n\n{board.notation()}  (seed {used_seed})")
