"""The board of the day: one board per language and day, the same for everyone, from the date alone.

The seed is a sha256 of the language and the date (UTC), so every page, `serve` or a static site anywhere,
rolls the same board on the same day with no server to agree with: the language's 4x4 dice where it has
them, else letters drawn by the word list's frequencies (then the word list named is part of the rule).
The static site (`export-web`) ships the boards of the coming days made here (web/export.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib

from .api import RolledBoard, roll
from .errors import BoggleI18nError
from .language.selection import select

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def today() -> dt.date:
    """The day the boards follow: the date in UTC, so a day's board is one board worldwide."""
    return dt.datetime.now(dt.UTC).date()


def parse_day(text: str) -> dt.date:
    """A day written YYYY-MM-DD, or one clear error."""
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise BoggleI18nError(f"a day is written YYYY-MM-DD, not {text[:40]!r}") from None


def daily_seed(lang: str, day: dt.date) -> int:
    """The day's seed for `lang`: 63 bits of sha256 over the language and the date."""
    digest = hashlib.sha256(f"boggle-i18n board of the day {lang} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def board_of_the_day(lang: str, day: dt.date, lexicon: Any = None) -> RolledBoard:
    """The 4x4 board of `day` in `lang`: its dice, else letters by `lexicon`'s frequencies (required then)."""
    language = select(lang=lang).language
    seed = daily_seed(language.code, day)
    if select(lang=language.code, size=(4, 4)).dice is not None:
        return roll(lang=language.code, size=(4, 4), seed=seed)
    return roll(lang=language.code, size=(4, 4), seed=seed, letters="lexicon", lexicon=lexicon)
