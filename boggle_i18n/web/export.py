"""What the in-browser solver reads: the library's rules as data, so the browser decides nothing of its own.

The static site (`boggle-i18n export-web`, web/site.py) ships, per lexicon, the compiled trie the library
caches (`.bgc`, solver/compiled.py) and one JSON of rules made here from the same calls `solve` makes:
per board size the dice set, shortest word and scoring (`select(...).for_size`), every scoring preset's points
by length in letters,
the language's dice faces (rolled in the page), the face table that reads board notation (every token a
player or a link may write, mapped by `notation.face_of` with the language's shorthands and lower case), the
faces' capitals as `solve` prints them, the letter weights `roll --letters lexicon` draws with, and the boards of
the day (daily.py) for the coming year.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from ..board.notation import face_of
from ..errors import BoggleI18nError
from ..solver.base import Rules

MAX_SIDE = 10  # the page's largest board side (web/app.py)
MAX_CELLS = 64  # the walk's used-cell set is one 64-bit word (solver/_walk.h)
DAILY_DAYS = 400  # boards of the day a site carries, from the day before its export: re-export within a year


def browser_rules(rules: Rules, max_length: int) -> dict[str, Any]:
    """`rules` as the browser's solver takes them: points for every length up to the lexicon's longest word."""
    return {
        "min_length": rules.min_length,
        "diagonals": rules.diagonals,
        "scoring": rules.scoring.name,
        "points": [rules.scoring.points(n) for n in range(max_length + 1)],
    }


def face_tokens(language: Any, faces: Iterable[str], shorthands: dict[str, str]) -> dict[str, str]:
    """Board notation's tokens -> faces, as `parse_board` reads them: each face's letters in lower and upper
    case (the language's own capitals: Turkish İ), bracketed multi-letter faces, shorthands (`q` -> `qu`)."""
    table: dict[str, str] = {}
    lower = {upper: low for upper, low in language.lower.items()}
    for face in sorted(set(faces) - {""}):
        shown = language.display_face(face)
        tokens = [face, shown, face.upper()] if len(face) == 1 else [f"[{face}]", f"[{shown}]", f"[{face.upper()}]"]
        for token in tokens:
            text = "".join(lower.get(ch, ch) for ch in token)
            try:
                table[token] = face_of(text, shorthands)
            except BoggleI18nError:
                continue
    return table


def languages_answer(store: Any = None) -> dict[str, Any]:
    """GET /api/languages: every language with its lexicons, dice sets and rules, and the scoring presets."""
    from ..board.dice import get_dice
    from ..language.overview import language_overview
    from ..scoring import presets

    langs = language_overview(store, beta=True)  # the page offers the beta ones too, marked beta
    for lang in langs:
        lang["dice_sets"] = [
            {"id": d, "size": f"{ds.rows}x{ds.cols}", "min_length": ds.min_word_length, "scoring": ds.scoring}
            for d in lang["boards"]["dice"]
            for ds in [get_dice(d)]
        ]
    return {"languages": langs, "scoring": sorted(presets())}


def scoring_tables(longest: int) -> dict[str, Any]:
    """Every scoring preset as `solve --json` names it, with its points for each length up to `longest`."""
    from ..scoring import get_scoring, presets

    return {
        name: {
            "scoring": get_scoring(name).to_dict(),
            "points": [get_scoring(name).points(n) for n in range(longest + 1)],
        }
        for name in sorted(presets())
    }


def lexicon_rules(name: str, store: Any = None) -> dict[str, Any]:
    """The rules JSON for stored lexicon `name`: what the page's in-browser API needs besides the trie."""
    from ..api import face_counts, letter_distribution, load_lexicon
    from ..board.dice import get_dice
    from ..language.selection import select
    from ..solver.compiled import compile_lexicon
    from ..solver.scorer import lexicon_letters

    lexicon = load_lexicon(name, store)
    compiled = compile_lexicon(lexicon)
    chosen = select(lexicon=name, store=store)
    language = chosen.language
    sizes = {}
    for rows in range(1, MAX_SIDE + 1):
        for cols in range(1, MAX_SIDE + 1):
            if rows * cols <= MAX_CELLS:
                sized = chosen.for_size((rows, cols))
                sizes[f"{rows}x{cols}"] = {
                    "dice": sized.dice.id if sized.dice else None,
                    "min_length": sized.rules.min_length,
                    "scoring": sized.rules.scoring.name,
                }
    dice = {}
    faces = set(lexicon_letters(lexicon)) | set(language.units) | set(language.alphabet)
    for d in language.dice:
        ds = get_dice(d)
        dice[d] = {"rows": ds.rows, "cols": ds.cols, "dice": [[face.lower() for face in die] for die in ds.dice]}
        faces |= ds.faces
    faces -= {""}
    # `roll --letters lexicon`'s faces and weights: from each dice set's faces; "": the lexicon's letters, or
    # its clusters for a language that attaches letters (Thai), counted by the library as a roll counts them.
    draw = {"": letter_distribution(None, lexicon)}
    faces |= set(draw[""][0])
    counts = face_counts(lexicon, sorted(faces))
    for d in language.dice:
        draw[d] = letter_distribution(get_dice(d), lexicon, counts)
    tokens = face_tokens(language, faces, dict(chosen.shorthands))
    from ..daily import board_of_the_day, today

    first = today() - dt.timedelta(days=1)  # a player a timezone behind UTC's new day
    daily = {}
    for n in range(DAILY_DAYS):
        day = first + dt.timedelta(days=n)
        daily[day.isoformat()] = board_of_the_day(language.code, day, lexicon).board.notation()
    return {
        "daily": daily,
        "lang": language.code,
        "lexicon": name,
        "trie_sha256": lexicon.manifest.get("trie_sha256"),
        "manifest_sha256": lexicon.manifest_sha256,
        "word_count": len(lexicon),
        "sizes": sizes,
        "scoring": scoring_tables(compiled.max_length),
        "dice": dice,
        "tokens": tokens,
        "shown": {face: language.display_face(face) for face in sorted(faces)},
        "draw": {d: {"faces": list(f), "weights": list(w)} for d, (f, w) in draw.items()},
        "alphabet": language.alphabet,
        "units": list(language.units),
        "lower": dict(language.lower),
        "finals": dict(language.finals),
    }
