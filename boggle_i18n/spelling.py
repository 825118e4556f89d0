"""How a word splits into letters: the one rule, for languages with multi-letter letters.

Hungarian `cs`, `dzs`, Croatian `lj`, Welsh `ll` are one letter each: one face on a
board, one letter when a word's length is counted. A language lists them as `units`
in its record; a lexicon built for it records them in its manifest, so the solver,
the letter counts and the board faces all split words the same way:

    greedy longest match, left to right, over the units; a match never spans a
    break that the language's `apart` list marks.

`apart` holds spellings with a `|` where two letters meet that would otherwise read
as one (Welsh `dan|gos`: n and g, not the letter ng; `par|hau`: r and h). A face is
split by the same rule (`[ll]` is one letter, `[qu]` two). Lexicons keep plain text:
the split is applied where letters are counted or walked, never stored.

A unit may hold an apostrophe between its letters: Breton `c'h` is one letter (`c'hoari`
is c'h-o-a-r-i, 5 letters), written with one, and `ch` another. Anywhere else an
apostrophe is no letter (elisions such as `d'ar` are dropped by the alphabet stage).
"""

from __future__ import annotations

from .errors import BoggleI18nError, LexiconError
from .memo import cache
from .record import dataclass, field

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable
    from typing import Any

BREAK = "\x00"  # marks a forced break while splitting; never part of a word
APOSTROPHE = "'"  # may stand between the letters of a unit (Breton c'h), never at its ends


def is_unit(text: str) -> bool:
    """Two or more letters, an apostrophe allowed between them (`ll`, `dzs`, Breton `c'h`)."""
    return (
        len(text) >= 2
        and text[0].isalpha()
        and text[-1].isalpha()
        and all(ch.isalpha() or ch == APOSTROPHE for ch in text)
    )


@dataclass(frozen=True)
class Spelling:
    """The units (multi-letter letters) of a language and the breaks its `apart` list forces."""

    units: tuple[str, ...] = ()
    apart: tuple[str, ...] = ()
    _pattern: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _breaks: tuple[tuple[str, str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for unit in self.units:
            if not is_unit(unit):
                raise BoggleI18nError(
                    f"unit {unit!r}: a unit is two or more letters, an apostrophe allowed between them (c'h)"
                )
        breaks = []
        for entry in self.apart:
            if entry.count("|") < 1 or not entry.replace("|", "").isalpha():
                raise BoggleI18nError(f"apart {entry!r}: write the letters with '|' where they split, e.g. dan|gos")
            breaks.append((entry.replace("|", ""), entry.replace("|", BREAK)))
        object.__setattr__(self, "_breaks", tuple(breaks))
        if self.units:
            import re  # only a language with units needs a pattern: `re` stays off a plain language's cold path

            longest_first = sorted(set(self.units), key=lambda u: (-len(u), u))
            alternatives = "|".join(re.escape(u) for u in longest_first)
            object.__setattr__(self, "_pattern", re.compile(f"{alternatives}|[^{BREAK}]"))

    def __bool__(self) -> bool:
        return bool(self.units)

    def split(self, word: str) -> list[str]:
        """The letters of `word` (`llan` -> ll, a, n; `dangos` -> d, a, n, g, o, s)."""
        if self._pattern is None:
            return list(word)
        for plain, marked in self._breaks:
            if plain in word:
                word = word.replace(plain, marked)
        return self._pattern.findall(word)

    def length(self, word: str) -> int:
        """Length in letters: a unit counts one."""
        return len(self.split(word)) if self._pattern is not None else len(word)

    def to_dict(self) -> dict[str, list[str]]:
        """What a manifest records (empty lists for a language without units)."""
        return {"units": list(self.units), "apart": list(self.apart)}


PLAIN = Spelling()


@cache
def _spelling(units: tuple[str, ...], apart: tuple[str, ...]) -> Spelling:
    return Spelling(units, apart)


def spelling(units: Iterable[str] = (), apart: Iterable[str] = ()) -> Spelling:
    """A shared `Spelling` for these units (built once per distinct set)."""
    return _spelling(tuple(units), tuple(apart))


def spelling_of(lexicon: Any) -> Spelling:
    """The spelling a lexicon was built with (its manifest's `spelling`), else one letter per character."""
    manifest = getattr(lexicon, "manifest", None)
    raw = manifest.get("spelling") if isinstance(manifest, dict) else None
    if raw is None:
        return PLAIN
    units = raw.get("units", []) if isinstance(raw, dict) else None
    apart = raw.get("apart", []) if isinstance(raw, dict) else None
    if not (isinstance(units, list) and isinstance(apart, list) and all(isinstance(u, str) for u in units + apart)):
        raise LexiconError("the lexicon's manifest has a malformed `spelling` (lists of strings `units`, `apart`)")
    return spelling(units, apart)


def order_marks(word: str, order: str) -> str:
    """`word` with each run of combining marks in the language's written order (`order`, its `mark_order`).

    Two marks on one consonant look the same in either order (Thai `กี่` and `ก่ี`), and a player
    cannot see which was typed: the lexicon keeps the written order (vowel sign, then tone mark),
    and a typed word is put in it. A mark `order` does not list keeps its place before the listed
    ones of its run; characters that are no marks are never moved.
    """
    if not order:
        return word
    import unicodedata

    rank = {mark: i for i, mark in enumerate(order)}
    out: list[str] = []
    run: list[str] = []
    for ch in word + "\x00":
        if ch != "\x00" and unicodedata.category(ch).startswith("M"):
            run.append(ch)
            continue
        if run:
            out.extend(sorted(run, key=lambda m: rank.get(m, -1)))  # stable: equal ranks keep their order
            run = []
        out.append(ch)
    return "".join(out[:-1])
