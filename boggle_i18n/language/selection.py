"""Choosing the language, dice set, lexicon and rules from what a caller gave: one function for all.

`select()` is what `solve`, `random`, `compare` and a web page call, so that the
same options mean the same thing everywhere. Precedence:

- language: `lang`, else the dice set's language, else the lexicon's (its manifest
  if built, else its recipe), else English;
- lexicon: `lexicon` (a store name, a recipe `.toml` path or a `.marisa` path),
  else the language's default recipe (None if it has none yet);
- dice set: `dice`, else the language's dice set of the board's size (None if it
  has none of that size);
- rules: `min_length` / `scoring` as given, else the dice set's, else the language's;
- shorthands (what a bare `q` means): `bare_q`, else the dice set's, else the language's.

Names are case-insensitive (`--lang NL`, `--dice NL-4x4`); lexicon names are checked
against the one safe pattern before they come near a path.
"""

from __future__ import annotations

import os

from .. import jsontext
from ..board.dice import DiceSet, get_dice
from ..errors import BoardError, DiceError, LexiconError
from ..folders import read_regular, with_suffix
from ..lexicon.store import lexicon_files, lexicon_name
from ..limits import check, clip
from ..record import dataclass, field, replace
from ..scoring import Scoring, get_scoring
from ..solver.base import Rules
from .records import Language, get_language

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

BARE_Q: dict[str, dict[str, str]] = {"qu": {"q": "qu"}, "q": {}}
Size = tuple[int, int]


@dataclass(frozen=True)
class Selection:
    """What a board is played with: language, dice set, lexicon, rules, and warnings about them.

    `size` is the board's (rows, cols): the one asked for, else the dice set's, else
    None (a language without dice). `lexicon` is what `load_lexicon` takes, or None
    when the language has no lexicon recipe yet (`require_lexicon()` says so).
    """

    language: Language
    dice: DiceSet | None
    lexicon: str | None
    rules: Rules
    size: Size | None
    shorthands: Mapping[str, str]
    warnings: tuple[str, ...] = ()
    # What the caller fixed, so `for_size` can re-derive the rest for another board size.
    _given: tuple[DiceSet | None, int | None, Scoring | None] = field(default=(None, None, None), repr=False)

    def require_lexicon(self) -> str:
        """The lexicon to load, or one clear error if the language has none."""
        if self.lexicon is None:
            raise LexiconError(
                f"language {self.language.code!r} has no default lexicon yet: pass --lexicon NAME or a recipe .toml",
                code="language.no_lexicon",
                params={"lang": self.language.code},
            )
        return self.lexicon

    @property
    def rolls(self) -> str:
        """How a board of this selection is made when nobody said: "dice" (its dice set of the size), else
        "letters" (each cell drawn from the faces, weighted by the lexicon's letter frequencies).

        The one rule for `compare`, `random` and the web page's default, so a language without dice (40 of 45)
        plays everywhere the same way without being asked twice.
        """
        return "dice" if self.dice is not None else "letters"

    def fold_faces(self, faces: tuple[str, ...], store: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
        """The faces as this selection's lexicon spells them: `ς` is `σ` as `lookup` folds it
        (`Language.fold_faces` with the stages the lexicon was, or will be, built with).

        A plain board is checked and returned without reading any recipe.
        """
        try:
            return self.language.fold_faces(faces, None)
        except BoardError:
            if self.lexicon is None:
                raise
        from ..pipeline.typed import lexicon_stages  # only a face outside the alphabet needs a recipe

        name = self.lexicon
        if name.endswith(".toml"):
            from ..pipeline.recipe import load_recipe

            return self.language.fold_faces(faces, load_recipe(name).stages)
        manifest = with_suffix(name, ".json") if name.endswith(".marisa") else lexicon_files(name, store)[1]
        return self.language.fold_faces(faces, lexicon_stages(name, manifest))

    def for_size(self, size: Size) -> Selection:
        """The same choices for a board of `size` (the dice set and rules may change with it)."""
        dice, min_length, scoring = self._given
        ds, rules, warnings = _rules(self.language, dice, size, min_length, scoring, self.rules.diagonals)
        return replace(self, dice=ds, rules=rules, size=size, warnings=warnings)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: enough to make the same choice again."""
        return {
            "lang": self.language.code,
            "dice": self.dice.id if self.dice else None,
            "lexicon": self.lexicon,
            "size": list(self.size) if self.size else None,
            "rules": self.rules.to_dict(),
        }


def select(
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    dice: str | None = None,
    size: Size | None = None,
    min_length: int | None = None,
    scoring: str | Scoring | None = None,
    diagonals: bool = True,
    bare_q: str | None = None,
    store: str | os.PathLike[str] | None = None,
) -> Selection:
    """Resolve a caller's options into one `Selection` (see the module docstring for precedence).

    Raises a `BoggleI18nError` subclass with a one-line message for an unknown
    language, dice set or scoring preset, a bad lexicon name, a dice set of another
    size than `size`, or a bare-q value other than `qu`/`q`.
    """
    ds = get_dice(dice) if dice is not None else None
    table = scoring if isinstance(scoring, Scoring) or scoring is None else get_scoring(scoring)
    if min_length is not None:
        check("min_length", min_length)
    name = _lexicon_arg(lexicon) if lexicon is not None else None
    if lang is not None and ds is not None and get_language(lang).code != ds.language:
        raise DiceError(
            f"dice set {ds.id!r} is for language {ds.language!r}, not {clip(lang, 20)!r}: "
            "give one of the two, or dice of that language (boggle-i18n dice)",
            code="dice.other_language",
            params={"dice": ds.id, "dice_lang": ds.language, "lang": clip(lang, 20)},
        )
    code = (
        lang
        if lang is not None
        else (ds.language if ds else None) or (_lexicon_language(name, store) if name else None) or "en"
    )
    language = get_language(code)
    if name is None:
        name = language.lexicon
    if size is None and ds is not None:
        size = (ds.rows, ds.cols)
    if size is None and language.dice:
        first = get_dice(language.dice[0])
        size = (first.rows, first.cols)
    chosen, rules, warnings = _rules(language, ds, size, min_length, table, diagonals)
    return Selection(
        language=language,
        dice=chosen,
        lexicon=name,
        rules=rules,
        size=size,
        shorthands=_shorthands(language, ds, bare_q),
        warnings=warnings,
        _given=(ds, min_length, table),
    )


def _lexicon_arg(text: str) -> str:
    """A `--lexicon` value: a recipe or trie path as given, else a checked store name."""
    if text.endswith((".toml", ".marisa")):
        return text
    return lexicon_name(text)


def _lexicon_language(name: str, store: str | os.PathLike[str] | None) -> str | None:
    """The language a lexicon is for: its built manifest if readable, else its recipe's."""
    if name.endswith(".toml"):
        return _recipe_language(name)
    is_trie = name.endswith(".marisa")
    manifest_path = with_suffix(name, ".json") if is_trie else lexicon_files(name, store)[1]
    language = _manifest_language(manifest_path)
    if isinstance(language, str):
        return language
    if is_trie or os.path.exists(manifest_path):
        return None  # built but unreadable: loading it will say what is wrong, and how to rebuild it
    return _recipe_language(name)  # not built yet: the recipe it will be built from


def _recipe_language(name: str) -> str:
    from ..pipeline.recipe import load_recipe  # the recipe parser: only when no manifest says it

    return load_recipe(name).language


_MANIFEST_LANGUAGES: dict[tuple[str, int, int], object] = {}


def _manifest_language(path: str) -> object:
    """The `language` a built manifest names (None if unreadable), read again only when the file changes.

    A web server selects a lexicon for every request; reading and parsing its manifest each time cost
    about a tenth of a warm 4x4 solve. The key is the file's path, size and modification time.
    """
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _MANIFEST_LANGUAGES:
        try:
            language = jsontext.loads(read_regular(path)).get("language")
        except (OSError, ValueError, AttributeError):
            language = None
        if len(_MANIFEST_LANGUAGES) > 256:
            _MANIFEST_LANGUAGES.clear()
        _MANIFEST_LANGUAGES[key] = language
    return _MANIFEST_LANGUAGES[key]


def _rules(
    language: Language,
    dice: DiceSet | None,
    size: Size | None,
    min_length: int | None,
    scoring: Scoring | None,
    diagonals: bool,
) -> tuple[DiceSet | None, Rules, tuple[str, ...]]:
    """The dice set and rules for a board of `size`, and warnings about the rules."""
    if dice is not None and size is not None and size != (dice.rows, dice.cols):
        raise BoardError(
            f"board is {size[0]}x{size[1]} but dice set {dice.id!r} is {dice.rows}x{dice.cols}",
            code="board.dice_size",
            params={"size": f"{size[0]}x{size[1]}", "dice": dice.id, "dice_size": f"{dice.rows}x{dice.cols}"},
        )
    ds = dice if dice is not None else (language.dice_for(*size) if size else None)
    table = scoring or get_scoring(ds.scoring if ds else language.scoring)
    least = min_length if min_length is not None else (ds.min_word_length if ds else language.min_length)
    rules = Rules(min_length=least, scoring=table, diagonals=diagonals)
    longest = size[0] * size[1] if size else 16
    zero = table.zero_lengths(least, longest)
    warnings: tuple[str, ...] = ()
    if zero:
        warnings = (f"scoring {table.name} gives 0 points to {_lengths(zero)} words, which min length {least} admits",)
    return ds, rules, warnings


def _lengths(lengths: list[int]) -> str:
    """`[3]` -> `3-letter`, `[3, 4, 5]` -> `3- to 5-letter` (runs collapse)."""
    if len(lengths) == 1:
        return f"{lengths[0]}-letter"
    if lengths == list(range(lengths[0], lengths[-1] + 1)):
        return f"{lengths[0]}- to {lengths[-1]}-letter"
    return ", ".join(str(n) for n in lengths) + "-letter"


def _shorthands(language: Language, dice: DiceSet | None, bare_q: str | None) -> dict[str, str]:
    """Which single letters stand for longer faces: `bare_q` wins, then the dice set, then the language."""
    if bare_q is not None:
        key = bare_q.strip().lower()
        if key not in BARE_Q:
            raise BoardError(f"bare q must mean 'qu' or 'q', not {clip(bare_q, 20)!r}")
        return dict(BARE_Q[key])
    if dice is not None:
        return dice.shorthands
    return language.shorthands
