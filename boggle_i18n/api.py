"""The Python API: lexicons, boards and solving, with rules taken from language and dice data.

from boggle_i18n import load_lexicon, parse_board, solve
lexicon = load_lexicon("nl")                  # builds it first if needed
board = parse_board("trap/kaas/oven/blij", lang="nl")
result = solve(board, lexicon, lang="nl")
print(result.score, result.n_words, result.words[0].path)
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import replace

from .board.board import Board
from .board.dice import DiceSet, get_dice
from .board.notation import parse_board as _parse_compact
from .board.notation import parse_board_file as _parse_file
from .errors import BoardError
from .languages import Language, get_language
from .lexicon.build import ensure_lexicon
from .lexicon.store import Lexicon
from .scoring import Scoring, get_scoring
from .solver.base import Rules, SolveResult, get_solver

BARE_Q = {"qu": {"q": "qu"}, "q": {}}


def load_lexicon(
    name: str,
    store: str | os.PathLike[str] | None = None,
    build: bool = True,
    on_build: Callable[[str], None] | None = None,
) -> Lexicon:
    """Load a built lexicon by name (`nl`, `en`, `en-enable2k` ...), building it first if needed."""
    if build:
        return ensure_lexicon(name, store=store, on_build=on_build)
    return Lexicon.load(name, store)


def shorthands_for(lang: str | None = None, dice: str | None = None, bare_q: str | None = None) -> dict[str, str]:
    """Which single letters stand for longer faces: `bare_q` wins, then the dice set, then the language."""
    if bare_q is not None:
        if bare_q not in BARE_Q:
            raise BoardError(f"bare q must mean 'qu' or 'q', not {bare_q!r}")
        return dict(BARE_Q[bare_q])
    if dice:
        return get_dice(dice).shorthands
    return get_language(lang or "en").shorthands


def parse_board(
    text: str,
    lang: str | None = None,
    dice: str | None = None,
    size: tuple[int, int] | None = None,
    bare_q: str | None = None,
    file_format: bool = False,
) -> Board:
    """Parse a board in compact notation (or file notation), with the language's shorthands."""
    shorthands = shorthands_for(lang, dice, bare_q)
    board = (_parse_file if file_format else _parse_compact)(text, shorthands, size)
    if dice:
        ds = get_dice(dice)
        if board.size != (ds.rows, ds.cols):
            raise BoardError(f"board is {board.rows}x{board.cols} but dice set {dice!r} is {ds.rows}x{ds.cols}")
    return board


def rules_for(
    board: Board,
    lang: str | None = None,
    dice: str | None = None,
    min_length: int | None = None,
    scoring: str | Scoring | None = None,
    diagonals: bool = True,
) -> Rules:
    """Rules for a board: explicit values, else the dice set's, else the language's defaults."""
    language: Language = get_language(lang or "en")
    ds: DiceSet | None = get_dice(dice) if dice else language.dice_for(board.rows, board.cols)
    if isinstance(scoring, Scoring):
        table = scoring
    else:
        table = get_scoring(scoring or (ds.scoring if ds else language.scoring))
    if min_length is None:
        min_length = ds.min_word_length if ds else language.min_length
    return Rules(min_length=min_length, scoring=table, diagonals=diagonals)


def solve(
    board: Board,
    lexicon: Lexicon,
    rules: Rules | None = None,
    lang: str | None = None,
    engine: str = "reference",
) -> SolveResult:
    """Solve `board`; without `rules`, use the defaults of `lang` (or the lexicon's language)."""
    if rules is None:
        rules = rules_for(board, lang or lexicon.manifest.get("language"))
    result = get_solver(engine).solve(board, lexicon, rules)
    info = {}
    if lexicon.manifest_sha256:
        info = {
            "manifest_sha256": lexicon.manifest_sha256,
            "trie_sha256": lexicon.manifest.get("trie_sha256"),
            "word_count": len(lexicon),
        }
    return replace(result, lexicon_info=info)


def new_seed() -> int:
    """A fresh random seed (always echoed, so any board can be rolled again)."""
    return random.SystemRandom().randrange(2**32)


def roll_board(
    dice: str | None = None,
    lang: str | None = None,
    size: tuple[int, int] | None = None,
    letters: str | None = None,
    seed: int | None = None,
    letter_counts: dict[str, int] | None = None,
) -> tuple[Board, int]:
    """Roll a board and return it with its seed.

    With a dice set (named, or the language's for `size`): dice shuffled to cells,
    one face up. With `letters` = "uniform" or "lexicon": every cell drawn from the
    faces of the language's dice, uniformly or weighted by `letter_counts` (from a
    lexicon manifest).
    """
    seed = new_seed() if seed is None else seed
    rng = random.Random(seed)
    language = get_language(lang or (get_dice(dice).language if dice else "en"))
    if letters is None:
        if not dice and not language.dice:
            raise BoardError(
                f"language {language.code!r} has no sourced dice set: pass --letters lexicon (its lexicon's letter "
                "frequencies) or --letters uniform"
            )
        ds = get_dice(dice) if dice else (language.dice_for(*size) if size else get_dice(language.dice[0]))
        if ds is None:
            shape = f"{size[0]}x{size[1]}" if size else "of this size"
            raise BoardError(f"no {language.code} dice set is {shape}: pass --letters uniform or --letters lexicon")
        if size is not None and size != (ds.rows, ds.cols):
            raise BoardError(f"dice set {ds.id!r} is {ds.rows}x{ds.cols}, not {size[0]}x{size[1]}")
        return ds.roll(rng), seed
    rows, cols = size or (4, 4)
    # The faces of the dice, or the letters of the alphabet for a language without dice.
    faces = sorted(get_dice(dice).faces - {""}) if dice else sorted(language.alphabet)
    if not dice and language.dice:
        faces = sorted(get_dice(language.dice[0]).faces - {""})
    if letters == "uniform":
        weights = [1] * len(faces)
    elif letters == "lexicon":
        if not letter_counts:
            raise BoardError("--letters lexicon needs a built lexicon's letter counts")
        weights = [letter_counts.get(face[0], 0) for face in faces]
    else:
        raise BoardError(f"--letters must be 'uniform' or 'lexicon', not {letters!r}")
    return Board(rows, cols, tuple(rng.choices(faces, weights, k=rows * cols))), seed
