"""What the in-browser solver reads: the library's rules as data, so the browser decides nothing of its own.

The static site (`boggle-i18n export-web`, web/site.py) ships, per lexicon, the compiled trie the library
caches (`.bgc`, solver/compiled.py) and one JSON of rules made here from the same calls `solve` makes:
per board size the dice set, shortest word and the points table by length in letters (`select(...).for_size`),
the language's dice faces (rolled in the page), the face table that reads board notation (every token a
player or a link may write, mapped by `notation.face_of` with the language's shorthands and lower case), the
faces' capitals as `solve` prints them, and the letter weights `roll --letters lexicon` draws with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..board.notation import face_of
from ..errors import BoggleI18nError
from ..solver.base import Rules

SIZES = ((3, 3), (4, 4), (5, 5), (6, 6))  # the page's size menu


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


def lexicon_rules(name: str, store: Any = None) -> dict[str, Any]:
    """The rules JSON for stored lexicon `name`: what the page's in-browser API needs besides the trie."""
    from ..api import letter_distribution, load_lexicon
    from ..board.dice import get_dice
    from ..language.selection import select
    from ..solver.compiled import compile_lexicon
    from ..solver.scorer import lexicon_letters

    lexicon = load_lexicon(name, store)
    compiled = compile_lexicon(lexicon)
    chosen = select(lexicon=name, store=store)
    language = chosen.language
    sizes = {}
    for rows, cols in sorted(set(SIZES) | {(get_dice(d).rows, get_dice(d).cols) for d in language.dice}):
        sized = chosen.for_size((rows, cols))
        sizes[f"{rows}x{cols}"] = {
            "dice": sized.dice.id if sized.dice else None,
            **browser_rules(sized.rules, compiled.max_length),
        }
    dice = {}
    faces = set(lexicon_letters(lexicon)) | set(language.units)
    for d in language.dice:
        ds = get_dice(d)
        dice[d] = {"rows": ds.rows, "cols": ds.cols, "dice": [[face.lower() for face in die] for die in ds.dice]}
        faces |= ds.faces
    faces -= {""}
    draw = letter_distribution(get_dice(language.dice[0]) if language.dice else None, lexicon, None)
    tokens = face_tokens(language, faces, dict(chosen.shorthands))
    return {
        "lang": language.code,
        "lexicon": name,
        "trie_sha256": lexicon.manifest.get("trie_sha256"),
        "manifest_sha256": lexicon.manifest_sha256,
        "word_count": len(lexicon),
        "sizes": sizes,
        "dice": dice,
        "tokens": tokens,
        "shown": {face: language.display_face(face) for face in sorted(faces)},
        "draw": {"faces": list(draw[0]), "weights": list(draw[1])},
        "alphabet": language.alphabet,
    }
