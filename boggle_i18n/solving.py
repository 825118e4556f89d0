"""From typed options and a board text to a solved board and its JSON: what `solve` and the web app share.

    selection, board = choose_board("trap/kaas/oven/blij", lang="nl")
    result = solve(board, load_lexicon(selection.require_lexicon()), selection.rules)
    document = solution_dict(selection, result)     # the object `solve --json` prints and /api/solve returns

The board is parsed before any lexicon is loaded, so a typo never waits for a
build; its size then decides the dice set and rules (`Selection.for_size`).
"""

from __future__ import annotations

import os

from .board.board import Board
from .board.notation import parse_board, parse_board_file
from .language.selection import Selection, select
from .lexicon.store import Lexicon
from .record import replace
from .solver.base import SolveResult

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

    from .solver.batch import BatchSettings, LineScorer  # the batch layer: never on the solve path


def choose_board(
    text: str,
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    dice: str | None = None,
    size: tuple[int, int] | None = None,
    min_length: int | None = None,
    scoring: str | None = None,
    diagonals: bool = True,
    bare_q: str | None = None,
    store: str | os.PathLike[str] | None = None,
    file_format: bool = False,
) -> tuple[Selection, Board]:
    """Parse `text` with the chosen language's shorthands and fit the selection to the board's size.

    A face outside the language's alphabet is folded as `lookup` folds a typed word (`ς` -> `σ`,
    `Selection.fold_faces`), and refused if it is still outside, before any lexicon is loaded: `solve`
    and the web page's `/api/solve` both call this, so both read a board alike.
    """
    chosen = select(
        lang=lang,
        lexicon=lexicon,
        dice=dice,
        min_length=min_length,
        scoring=scoring,
        diagonals=diagonals,
        bare_q=bare_q,
        store=store,
    )
    if chosen.language.lower:  # Turkish: a typed I is ı, İ is i (the parser's lower case would say i, i + dot)
        table: dict[str, str | int | None] = dict(chosen.language.lower)
        text = text.translate(str.maketrans(table))
    board = (parse_board_file if file_format else parse_board)(text, chosen.shorthands, size)
    board = replace(board, faces=chosen.fold_faces(board.faces, store))
    return chosen.for_size(board.size), board


def search_selection(
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    dice: str | None = None,
    size: tuple[int, int] | None = None,
    min_length: int | None = None,
    scoring: str | None = None,
    diagonals: bool = True,
    store: str | os.PathLike[str] | None = None,
) -> Selection:
    """What `optimize` searches (the command and the web page's Search): the size asked, else the dice set's,
    else 4x4, with the rules of that size."""
    chosen = select(
        lang=lang,
        lexicon=lexicon,
        dice=dice,
        size=size,
        min_length=min_length,
        scoring=scoring,
        diagonals=diagonals,
        store=store,
    )
    return chosen.for_size(chosen.size or (4, 4))


def with_lexicon_info(result: SolveResult, lexicon: Lexicon) -> SolveResult:
    """The result carrying its lexicon's identity (manifest and trie checksums, word count), as `solve --json` shows."""
    if not lexicon.manifest_sha256:
        return result
    info = {
        "manifest_sha256": lexicon.manifest_sha256,
        "trie_sha256": lexicon.manifest.get("trie_sha256"),
        "word_count": len(lexicon),
    }
    return replace(result, lexicon_info=info)


def solution_dict(selection: Selection, result: SolveResult) -> dict[str, Any]:
    """The JSON document of a solved board: board and shape first, then language and dice set, then the result.

    Faces and words are as the lexicon stores them; `shown_grid` is how a reader writes the faces (the
    language's capitals: Turkish İ), and a word whose written form differs (Greek final ς, Korean
    syllables) carries it as `shown`, for a face that prints them.
    """
    data = result.to_dict()
    language = selection.language
    data["shown_grid"] = [[language.display_face(f) for f in row] for row in data["grid"]]
    if language.finals or language.compose:  # only these records write a word otherwise than it is stored
        for word in data["words"]:
            if (shown := language.display(word["word"])) != word["word"]:
                word["shown"] = shown
    dice = selection.dice.id if selection.dice else None
    return {**{k: data[k] for k in ("board", "rows", "cols")}, "lang": language.code, "dice": dice, **data}


def batch_inputs(settings: BatchSettings, lexicon: Lexicon | None = None) -> tuple[Selection, Lexicon]:
    """What a batch scorer's settings resolve to: the selection, and the lexicon (`lexicon`, else loaded).

    `score_stream` and its workers take this as their resolver, so the engines'
    batch layer never imports selection or the store itself.
    """
    from .api import load_lexicon

    s = settings
    selection = select(
        lang=s.lang,
        lexicon=s.lexicon,
        dice=s.dice,
        size=s.size,
        min_length=s.min_length,
        scoring=s.scoring,
        diagonals=s.diagonals,
        bare_q=s.bare_q,
        store=s.store,
    )
    return selection, lexicon if lexicon is not None else load_lexicon(s.lexicon, s.store)


def line_scorer(settings: BatchSettings, lexicon: Lexicon | None = None) -> LineScorer:
    """A `LineScorer` for `settings`, its selection and lexicon resolved here."""
    from .solver.batch import LineScorer

    return LineScorer(settings, *batch_inputs(settings, lexicon))
