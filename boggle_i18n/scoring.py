"""Scoring tables as data: a preset maps word length (in letters) to points.

Presets live in `lexicons/scoring.toml`; a custom table is written `3:1,4:1,5:2,...`.
A word longer than the largest listed length scores like that length, unless the
preset has a linear rule beyond it (Super Big Boggle's 9+ letters).
"""

from __future__ import annotations

import os

from .errors import LimitError, ScoringError
from .folders import data_folder
from .limits import LIMITS, MAX_POINTS, MAX_WORD_LENGTH, clip
from .memo import cache
from .record import dataclass, field
from .toml_cache import read_toml

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

MAX_LENGTH = MAX_WORD_LENGTH  # the longest word any board (64x64 at most) can hold


@dataclass(frozen=True)
class Beyond:
    """Points for words of `from_length` letters or more: `intercept + per_letter * length`."""

    from_length: int
    intercept: int
    per_letter: int


@dataclass(frozen=True)
class Scoring:
    """A length -> points table; `points(n)` is what the solver calls."""

    name: str
    table: tuple[tuple[int, int], ...]
    beyond: Beyond | None = None
    description: str = ""
    sources: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not self.table:
            raise ScoringError(f"scoring {self.name!r} has an empty table")
        lengths = [n for n, _ in self.table]
        if lengths != sorted(set(lengths)) or lengths[0] < 1:
            raise ScoringError(f"scoring {self.name!r}: lengths must be distinct and positive", **self._bad())
        negative = [f"{n}:{p}" for n, p in self.table if p < 0]
        if negative:
            raise ScoringError(
                f"scoring {self.name!r}: points cannot be negative ({', '.join(negative)})", **self._bad()
            )
        name = clip(self.name, 60)
        if lengths[-1] > MAX_LENGTH:
            raise LimitError(
                f"scoring {name!r}: a word length must be in {LIMITS['word_length'].describe()}", **self._bad()
            )
        too_many = [f"{n}:{p}" for n, p in self.table if p > MAX_POINTS]
        if too_many:
            raise LimitError(
                f"scoring {name!r}: points for a word must be in {LIMITS['points'].describe()} "
                f"(not {clip(too_many[0], 40)})",
                **self._bad(),
            )
        if self.beyond is not None:
            # The rule is linear in the length, so its least and greatest points are at the two ends.
            ends = range(self.beyond.from_length, MAX_LENGTH + 1)
            beyond = [self.points(ends[0]), self.points(ends[-1])] if ends else []
            if beyond and min(beyond) < 0:
                raise ScoringError(f"scoring {name!r}: its rule beyond the table gives negative points")
            if beyond and max(beyond) > MAX_POINTS:
                raise LimitError(
                    f"scoring {name!r}: its rule beyond the table gives more than {MAX_POINTS:,} points a word"
                )

    def _bad(self) -> dict[str, Any]:
        """The code and params of a table a player typed that cannot score (the page words it)."""
        return {"code": "scoring.bad_table", "params": {"table": clip(self.name, 60)}}

    def zero_lengths(self, min_length: int, max_length: int = MAX_LENGTH) -> list[int]:
        """Word lengths from `min_length` up that this table scores 0: worth a warning, as they count for nothing."""
        return [n for n in range(min_length, max_length + 1) if self.points(n) == 0]

    def points(self, length: int) -> int:
        """Points for a word of `length` letters (0 below the smallest listed length)."""
        if self.beyond is not None and length >= self.beyond.from_length:
            return self.beyond.intercept + self.beyond.per_letter * length
        best = 0
        for n, pts in self.table:
            if n > length:
                break
            best = pts
        return best

    def describe(self) -> str:
        """Compact human form, e.g. `3:1 4:1 5:2 6:3 7:5 8+:11`."""
        parts = [f"{n}:{p}" for n, p in self.table]
        last_n, last_p = self.table[-1]
        if self.beyond is None:
            parts[-1] = f"{last_n}+:{last_p}"
        else:
            b = self.beyond
            sign = "+" if b.intercept >= 0 else "-"
            rule = f"{b.per_letter}n" + (f" {sign} {abs(b.intercept)}" if b.intercept else "")
            parts.append(f"{b.from_length}+:{rule}")
        return " ".join(parts)

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form, as written into solve results."""
        out: dict[str, object] = {"name": self.name, "table": {str(n): p for n, p in self.table}}
        if self.beyond is not None:
            out["beyond"] = {
                "from_length": self.beyond.from_length,
                "intercept": self.beyond.intercept,
                "per_letter": self.beyond.per_letter,
            }
        return out


@cache
def presets() -> dict[str, Scoring]:
    """All scoring presets shipped in `lexicons/scoring.toml`, by name."""
    raw = read_toml(os.path.join(data_folder("lexicons"), "scoring.toml"))
    out = {}
    for name, spec in raw.items():
        table = tuple(sorted((int(n), int(p)) for n, p in spec["table"].items()))
        beyond = Beyond(**spec["beyond"]) if "beyond" in spec else None
        out[name] = Scoring(
            name=name,
            table=table,
            beyond=beyond,
            description=spec.get("description", ""),
            sources=tuple(spec.get("sources", ())),
        )
    return out


def parse_table(text: str) -> Scoring:
    """Parse a custom table such as `3:1,4:1,5:2,6:3,7:5,8:11`."""
    pairs = []
    for item in text.replace(" ", ",").split(","):
        if not item:
            continue
        length, sep, pts = item.partition(":")
        try:
            if not sep:
                raise ValueError
            pairs.append((int(length.rstrip("+")), int(pts)))
        except ValueError:
            raise ScoringError(
                f"bad scoring table {clip(text, 60)!r}: write length:points pairs, e.g. 3:1,4:1,5:2,6:3,7:5,8:11",
                code="scoring.bad_table",
                params={"table": clip(text, 60)},
            ) from None
    return Scoring(name=f"custom({text})", table=tuple(sorted(pairs)))


def get_scoring(name_or_table: str) -> Scoring:
    """A preset by name, or a custom table if the text contains `:`."""
    if ":" in name_or_table:
        return parse_table(name_or_table)
    try:
        return presets()[name_or_table.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(presets()))
        raise ScoringError(
            f"unknown scoring preset {clip(name_or_table, 60)!r} (known: {known})",
            code="scoring.unknown",
            params={"scoring": clip(name_or_table, 60)},
        ) from None
