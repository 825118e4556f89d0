"""The Python API: lexicons, boards and solving, with rules taken from language and dice data.

from boggle_i18n import load_lexicon, parse_board, solve
lexicon = load_lexicon("nl")                  # builds it first if needed
board = parse_board("trap/kaas/oven/blij", lang="nl")
result = solve(board, lexicon, lang="nl")
print(result.score, result.n_words, result.words[0].path)
"""

from __future__ import annotations

import os

from .board.board import Board
from .board.dice import DiceSet, get_dice
from .board.notation import parse_board as _parse_compact
from .board.notation import parse_board_file as _parse_file
from .errors import BoardError
from .language.records import get_language
from .language.selection import Selection, select
from .lexicon.store import Lexicon
from .limits import check, clip
from .record import dataclass, replace
from .scoring import Scoring
from .solver.base import Rules, SolveResult, get_solver
from .solving import with_lexicon_info
from .spelling import spelling_of

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

__all__ = [  # `select` is the one function that chooses language, dice, lexicon and rules
    "LETTER_MODES",
    "RolledBoard",
    "Selection",
    "attached_letters",
    "cluster_counts",
    "face_counts",
    "letter_distribution",
    "load_lexicon",
    "new_seed",
    "parse_board",
    "roll",
    "roll_board",
    "rules_for",
    "select",
    "shorthands_for",
    "solve",
]


def load_lexicon(
    name: str,
    store: str | os.PathLike[str] | None = None,
    build: bool = True,
    on_build: Callable[[str], None] | None = None,
    progress: Callable[[str], None] | None = None,
    on_read: Callable[[int], None] | None = None,
) -> Lexicon:
    """Load a built lexicon by name (`nl`, `en`, `en-enable2k` ...), building it first if needed (`on_read` gets
    the percentage of the list read so far)."""
    if build:
        from .lexicon.ensure import ensure_lexicon  # the recipe parser; the pipeline only if a build starts

        return ensure_lexicon(name, store=store, on_build=on_build, progress=progress, on_read=on_read)
    return Lexicon.load(name, store)


def shorthands_for(lang: str | None = None, dice: str | None = None, bare_q: str | None = None) -> dict[str, str]:
    """Which single letters stand for longer faces: `bare_q` wins, then the dice set, then the language."""
    return dict(select(lang=lang, dice=dice, bare_q=bare_q, lexicon=None).shorthands)


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
            raise BoardError(
                f"board is {board.rows}x{board.cols} but dice set {ds.id!r} is {ds.rows}x{ds.cols}",
                code="board.dice_size",
                params={"size": f"{board.rows}x{board.cols}", "dice": ds.id, "dice_size": f"{ds.rows}x{ds.cols}"},
            )
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
    return select(
        lang=lang, dice=dice, size=board.size, min_length=min_length, scoring=scoring, diagonals=diagonals
    ).rules


def solve(
    board: Board,
    lexicon: Lexicon,
    rules: Rules | None = None,
    lang: str | None = None,
    engine: str = "reference",
) -> SolveResult:
    """Solve `board`; without `rules`, use the defaults of `lang` (or the lexicon's language).

    A face outside that language's alphabet is folded by the stages of the lexicon's recipe, as `lookup`
    folds a typed word (`ς` -> `σ`), and refused if still outside (`Language.fold_faces`), as in `score`;
    an in-memory lexicon with no `lang` given has no language to check against.
    """
    code = lang or lexicon.manifest.get("language")
    if isinstance(code, str):
        faces = get_language(code).fold_faces(board.faces, lambda: _manifest_stages(lexicon))
        if faces != board.faces:
            board = replace(board, faces=faces)
    if rules is None:
        rules = rules_for(board, code)
    return with_lexicon_info(get_solver(engine).solve(board, lexicon, rules), lexicon)


def _manifest_stages(lexicon: Lexicon) -> Any:
    from .pipeline.typed import manifest_stages  # the pipeline: only for a face outside the alphabet

    return manifest_stages(lexicon.manifest)


def new_seed() -> int:
    """A fresh random seed (always echoed, so any board can be rolled again)."""
    import random  # only rolls need it: not on the solve path

    return random.SystemRandom().randrange(2**32)


LETTER_MODES = ("uniform", "lexicon")


@dataclass(frozen=True)
class RolledBoard:
    """A rolled board with everything needed to roll it again.

    `dice` is the dice set rolled (or, with `letters`, the set whose faces were
    drawn; None for a language without dice); `letters` is None when dice were
    rolled, else the drawing mode; `lexicon` names the lexicon that weighted the faces.
    """

    board: Board
    seed: int
    language: str
    dice: str | None
    letters: str | None = None
    lexicon: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form `random --json` prints."""
        return {
            "board": self.board.notation(),
            "rows": self.board.rows,
            "cols": self.board.cols,
            "seed": self.seed,
            "lang": self.language,
            "dice": self.dice,
            "letters": self.letters,
            "lexicon": self.lexicon,
        }


def face_counts(lexicon: Lexicon, faces: Iterable[str]) -> dict[str, int]:
    """How often each face's letters occur, in sequence, in the lexicon's words.

    A multi-letter face (`qu`, `th`, `er`) is counted as itself, not as its first
    letter, so `--letters lexicon` gives `er` the weight of "er", not of "e". In a lexicon with
    multi-letter letters (Welsh `ll`) the letters were counted by the one splitting rule when it
    was built (an `l` inside `ll` is not an `l`): those counts are used.
    """
    counted = lexicon.manifest.get("letter_counts")
    if spelling_of(lexicon) and isinstance(counted, dict):
        return {face: int(counted.get(face, 0)) for face in faces if face}
    text = "\n".join(lexicon)
    return {face: text.count(face) for face in faces if face}


def attached_letters(lexicon: Lexicon) -> str:
    """The letters the lexicon's language draws only on the face before them (its record's `attach`), or ""."""
    from .errors import LanguageError

    code = lexicon.manifest.get("language") if isinstance(getattr(lexicon, "manifest", None), dict) else None
    if not isinstance(code, str):
        return ""
    try:
        return get_language(code).attach
    except LanguageError:  # a lexicon of a language this installation does not ship: one face per letter
        return ""


_CLUSTERS: dict[tuple[str, str], dict[str, int]] = {}


def cluster_counts(lexicon: Lexicon, attach: str) -> dict[str, int]:
    """How often each face occurs when the lexicon's words are split by `spelling.clusters(word, attach)`.

    These are the faces a board draws from: every word splits into them, so every word can be found,
    and a letter of `attach` comes up only on the face of a letter it follows in some word. Counted
    once per stored lexicon (by its trie's sha256) and `attach`.
    """
    sha = lexicon.manifest.get("trie_sha256")  # an in-memory lexicon has none: counted each time
    key = (sha, attach) if isinstance(sha, str) else None
    counts = _CLUSTERS.get(key) if key else None
    if counts is None:
        import re
        from collections import Counter

        # spelling.clusters over every word at once (2.5M Korean words in seconds, not a loop per word):
        # a letter with the attached letters after it, or a word's leading run of attached letters.
        joined = re.escape(attach)
        faces = re.findall(f"[^\\n{joined}][{joined}]*|[{joined}]+", "\n".join(lexicon))
        counts = dict(Counter(faces))
        if key:
            if len(_CLUSTERS) > 16:
                _CLUSTERS.clear()
            _CLUSTERS[key] = counts
    return dict(counts)


def letter_distribution(
    source: DiceSet | None, lexicon: Lexicon | None, letter_counts: Mapping[str, int] | None = None
) -> tuple[list[str], list[int]]:
    """The faces a board without dice draws from, and their weights (`random --letters lexicon`, `compare`).

    The faces are the distinct faces of `source` (a dice set lending its faces),
    else the letters of the lexicon's alphabet; each is weighted by `letter_counts`
    or by `face_counts(lexicon, faces)`, so a multi-letter face counts as itself.
    Dice are never invented: only faces printed on a sourced set, or single letters,
    or, for a language whose record `attach`es letters to the one before them, the
    lexicon's own clusters (`cluster_counts`; `letter_counts` then maps those faces).
    """
    attach = attached_letters(lexicon) if source is None and lexicon is not None else ""
    if source is not None:
        distinct = sorted(source.faces - {""})
    elif attach and lexicon is not None:  # Thai: a tone mark is drawn on its consonant's face, never alone
        letter_counts = dict(letter_counts) if letter_counts else cluster_counts(lexicon, attach)
        distinct = sorted(letter_counts)
    elif lexicon is not None:
        from .solver.scorer import lexicon_letters  # the batch layer: not on the solve path

        distinct = lexicon_letters(lexicon)  # Welsh: ll is one of the letters
    else:
        distinct = []
    if letter_counts is None and lexicon is not None:
        letter_counts = face_counts(lexicon, distinct)
    if not letter_counts:
        raise BoardError("--letters lexicon needs a built lexicon's letter counts")
    weights = [letter_counts.get(face, 0) for face in distinct]
    if not any(weights):
        raise BoardError("--letters lexicon: no face of the dice occurs in the lexicon")
    return distinct, weights


def roll(
    dice: str | None = None,
    lang: str | None = None,
    size: tuple[int, int] | None = None,
    letters: str | None = None,
    seed: int | None = None,
    letter_counts: Mapping[str, int] | None = None,
    lexicon: Lexicon | None = None,
) -> RolledBoard:
    """Roll a board and say how (see `RolledBoard`).

    Without `letters`: the dice set (named, or the language's of `size`) is shaken
    into the grid, one face of each die up. With `letters`, every cell is drawn on
    its own, from the faces of the dice set of the board's size (else the
    language's first set), so any size works:
    - "uniform": uniform over the printed faces of that set, so a letter printed on
      many faces (e) comes up more often than one printed once (q): the dice's own
      letter mix, without the one-die-per-cell limit;
    - "lexicon": each distinct face weighted by `letter_counts` (face -> count) or,
      given a `lexicon`, by `face_counts(lexicon, faces)`. A language without dice
      draws the letters of the lexicon's alphabet, or its clusters if its record `attach`es letters.
    The board's size is `size`, else the dice set's, else the language's first set's.
    """
    import random  # only rolls need it: not on the solve path

    mode = letters.strip().lower() if letters is not None else None
    if mode is not None and mode not in LETTER_MODES:
        raise BoardError(f"--letters must be 'uniform' or 'lexicon', not {clip(str(letters), 40)!r}")
    if seed is not None:
        check("seed", seed)
    if mode is None:
        sel = select(lang=lang, dice=dice, size=size)
        if sel.dice is None and not sel.language.dice:
            raise BoardError(
                f"language {sel.language.code!r} has no sourced dice set: pass --letters lexicon "
                "(cells drawn by its lexicon's letter frequencies)",
                code="roll.no_dice",
                params={"lang": sel.language.code},
            )
        if sel.dice is None:
            shape = f"{size[0]}x{size[1]}" if size else "of any size"
            raise BoardError(
                f"no {sel.language.code} dice set is {shape}: pass --letters uniform or --letters lexicon",
                code="roll.no_dice",
                params={"lang": sel.language.code},
            )
        seed = new_seed() if seed is None else seed
        return RolledBoard(sel.dice.roll(random.Random(seed)), seed, sel.language.code, sel.dice.id)
    # Drawing letters: a named dice set only lends its faces, so it fits a board of any size.
    named = get_dice(dice) if dice else None
    if size is None and named is not None:
        size = (named.rows, named.cols)
    if lang is not None and named is not None:
        select(lang=lang, dice=dice)  # a dice set of another language is refused, as everywhere
    sel = select(lang=lang or (named.language if named else None), size=size)
    code = sel.language.code
    rows, cols = sel.size or (4, 4)
    source = named or sel.dice or (get_dice(sel.language.dice[0]) if sel.language.dice else None)
    seed = new_seed() if seed is None else seed
    rng = random.Random(seed)
    lexicon_name = lexicon.name if lexicon is not None and mode == "lexicon" else None
    if mode == "uniform":
        if source is None:
            raise BoardError(
                f"language {code!r} has no dice set to draw faces from: use --letters lexicon",
                code="roll.no_dice",
                params={"lang": code},
            )
        printed = [face.lower() for die in source.dice for face in die if face]
        faces = tuple(rng.choice(printed) for _ in range(rows * cols))
    else:
        distinct, weights = letter_distribution(source, lexicon, letter_counts)
        faces = tuple(rng.choices(distinct, weights, k=rows * cols))
    return RolledBoard(Board(rows, cols, faces), seed, code, source.id if source else None, mode, lexicon_name)


def roll_board(
    dice: str | None = None,
    lang: str | None = None,
    size: tuple[int, int] | None = None,
    letters: str | None = None,
    seed: int | None = None,
    letter_counts: Mapping[str, int] | None = None,
    lexicon: Lexicon | None = None,
) -> tuple[Board, int]:
    """Roll a board and return it with its seed (`roll` says which dice and language too)."""
    rolled = roll(dice, lang, size, letters, seed, letter_counts, lexicon)
    return rolled.board, rolled.seed
