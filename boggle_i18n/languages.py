"""Languages as data records (`lexicons/languages/*.toml`): no code branches on a language."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from .board.dice import DiceSet, get_dice
from .errors import LanguageError
from .resources import data_dir


@dataclass(frozen=True)
class Language:
    """What the toolkit knows of one language.

    `lexicon` names the recipe built for it by default (None if none ships yet);
    `dice` lists dice-set ids by preference, and a board takes the first one of
    its size; `min_length` and `scoring` apply to sizes that no dice set has.
    """

    code: str
    name: str
    vowels: str
    dice: tuple[str, ...]
    min_length: int
    scoring: str
    lexicon: str | None = None

    def dice_for(self, rows: int, cols: int) -> DiceSet | None:
        """The preferred dice set of this size, if the language has one."""
        for dice_id in self.dice:
            ds = get_dice(dice_id)
            if (ds.rows, ds.cols) == (rows, cols):
                return ds
        return None

    @property
    def shorthands(self) -> dict[str, str]:
        """Letters typed for a longer face (English `q` = `qu`), from the main dice set."""
        return get_dice(self.dice[0]).shorthands if self.dice else {}


@cache
def languages() -> dict[str, Language]:
    """All shipped languages by code."""
    out = {}
    for path in sorted((data_dir("lexicons") / "languages").glob("*.toml")):
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
        lang = Language(
            code=raw["code"],
            name=raw["name"],
            vowels=raw["vowels"],
            dice=tuple(raw.get("dice", ())),
            min_length=int(raw["min_length"]),
            scoring=raw["scoring"],
            lexicon=raw.get("lexicon"),
        )
        out[lang.code] = lang
    return out


def get_language(code: str) -> Language:
    """A language by code, with a clear error listing the known codes."""
    try:
        return languages()[code.strip().lower()]  # names are case-insensitive: --lang NL
    except KeyError:
        known = ", ".join(sorted(languages()))
        raise LanguageError(f"unknown language {code!r} (known: {known})") from None
