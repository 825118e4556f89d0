"""One exception family, so the CLI can turn any library error into one clean line.

A refusal the web page can meet also carries a stable `code` and its `params` (the registry `CODES` below):
the CLI prints the English message, the web API sends message, code and params, and the page words the code
in the player's language (boggle_i18n/web/static/i18n/*.json, key `errors.<code>`). The library decides the
code where it raises, so the two faces never word a refusal differently.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping


Param = str | int | float

# code -> the names of its parameters. A small set on purpose: only refusals a player can cause from the page.
# Adding one here without a translation in every catalogue fails tests/test_web_catalogues.py.
CODES: dict[str, tuple[str, ...]] = {
    "board.empty": (),  # no board given, or only separators
    "board.bad_face": ("face",),  # a token that is not letters: `1`, `[q1]`
    "board.bracket": ("row",),  # an unclosed `[` or an unmatched `]`
    "board.not_rectangle": ("board",),  # rows of different lengths, or an unseparated non-square count
    "board.wrong_size": ("board", "size"),  # the faces do not make the size asked for
    "board.too_large": ("size", "max"),  # more rows or columns than allowed (RxC strings)
    "board.dice_size": ("size", "dice", "dice_size"),  # a board of one size, a dice set of another
    "board.outside_alphabet": ("face", "letters", "count", "lang", "alphabet"),  # Language.check_faces
    "size.bad": ("size",),  # not RxC, or a side under 1
    "limit.range": ("option", "low", "high", "value"),  # limits.check, and the web's tighter caps
    "limit.not_number": ("option", "value"),  # a number that is not one (or not whole, or not finite)
    "request.invalid": ("name",),  # a request the page would never send: wrong type, too long, not JSON
    "language.unknown": ("lang",),
    "language.no_lexicon": ("lang",),  # a language with no default word list yet
    "dice.unknown": ("dice",),
    "dice.other_language": ("dice", "dice_lang", "lang"),
    "scoring.unknown": ("scoring",),
    "scoring.bad_table": ("table",),
    "lexicon.bad_name": ("name",),
    "lexicon.unknown": ("name",),
    "lexicon.not_built": ("name",),
    "lexicon.no_recipe": ("name",),  # a word list that cannot explain its words (lookup)
    "lookup.empty_word": (),
    "roll.no_dice": ("lang",),  # a roll that needs a dice set the language does not have
    "compare.no_langs": (),
    "compare.too_many_langs": ("max",),
    "server.busy": (),
    # rooms (web/rooms.py): what a player's page can meet
    "room.bad_name": ("max",),
    "room.too_many": ("max",),  # rooms open on one server
    "room.wrong_codes": (),  # too many wrong codes in a minute: joins wait
    "room.unknown": (),
    "room.full": ("max",),
    "room.name_taken": ("name",),
    "room.token": (),  # no player of this room holds the token sent
    "room.not_host": (),
    "room.playing": (),
    "room.not_yours": (),  # a word sent for another player
    "room.bad_word": (),
    "room.not_playing": (),
    "room.too_many_words": ("max",),
}


class BoggleI18nError(Exception):
    """Base class of every error a user can cause (bad input, missing data).

    `code` and `params` (keyword-only, optional) name the refusal for a translated interface: `code` is a key
    of `CODES` and `params` has exactly its parameter names. Without them the message is the only form.
    """

    def __init__(self, *args: object, code: str | None = None, params: Mapping[str, Param] | None = None) -> None:
        super().__init__(*args)
        if code is not None:
            assert code in CODES, f"unregistered error code {code!r}"
            assert set(params or {}) == set(CODES[code]), (code, sorted(params or {}))
        self.code = code
        self.params: dict[str, Param] = dict(params or {})

    def to_dict(self) -> dict[str, object]:
        """The web API's error body: the English line the CLI prints, and the code and params when there are."""
        out: dict[str, object] = {"error": str(self)}
        if self.code is not None:
            out["code"] = self.code
            out["params"] = dict(self.params)
        return out


class RecipeError(BoggleI18nError):
    """A pipeline recipe is missing, malformed or names an unknown stage."""


class SourceError(BoggleI18nError):
    """A raw word list cannot be found, fetched, verified or decoded."""


class NoSourceError(SourceError):
    """No copy of a recipe's raw list is at hand: none given, cached or installed, and no download now.

    Told apart from a list that is there but bad, so the layer that builds on first use can offer what is
    installed instead (`lexicon.ensure`). `tried` says what was looked for and why each failed.
    """

    tried: tuple[str, ...] = ()


class LexiconError(BoggleI18nError):
    """A built lexicon is missing, corrupt or of an unknown format."""


class BoardError(BoggleI18nError):
    """A board string or file cannot be parsed, or does not fit the rules."""


class DiceError(BoggleI18nError):
    """A dice set is unknown or its data is malformed."""


class LanguageError(BoggleI18nError):
    """A language code is unknown."""


class ScoringError(BoggleI18nError):
    """A scoring preset is unknown or a custom table is malformed."""


class OutputError(BoggleI18nError):
    """An output file, or the lexicon store, cannot be written."""


class EngineError(BoggleI18nError):
    """An engine cannot run at all here (a kernel not built or not installed): fatal, never one board's error."""


class LimitError(BoggleI18nError):
    """A number outside its documented range (`limits.py`): a usage error, exit 2 on the command line."""
