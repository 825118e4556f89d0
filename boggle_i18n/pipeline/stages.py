"""Pipeline stages: small pure functions over a list of entries, registered by name.

Each factory takes the recipe's parameters (keyword-only, so a typo is an error)
plus a `StageContext`, and returns a function from entries to entries. The order
of stages is the recipe's, never this module's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import RecipeError

Entries = list[str]
StageFn = Callable[[Entries], Entries]


@dataclass(frozen=True)
class StageContext:
    """What a stage may need besides its parameters."""

    vowels: str
    language_dice: tuple[str, ...]
    base_dir: Path


STAGES: dict[str, Callable[..., StageFn]] = {}


def stage(name: str) -> Callable[[Callable[..., StageFn]], Callable[..., StageFn]]:
    """Register a stage factory under the name recipes use."""

    def register(factory: Callable[..., StageFn]) -> Callable[..., StageFn]:
        STAGES[name] = factory
        return factory

    return register


def letters(word: str) -> int:
    """Length in letters: marks, apostrophes and hyphens do not count."""
    return sum(1 for ch in word if ch.isalpha())


@stage("strip")
def _strip(ctx: StageContext) -> StageFn:
    """Remove a BOM, CR and surrounding white space (lists made on Windows)."""
    return lambda entries: [e.replace("\ufeff", "").replace("\r", "").strip() for e in entries]


@stage("skip-blank")
def _skip_blank(ctx: StageContext) -> StageFn:
    return lambda entries: [e for e in entries if e]


@stage("normalize")
def _normalize(ctx: StageContext, *, form: str = "NFC") -> StageFn:
    """Unicode normalisation, so `ë` is one code point whatever the source wrote."""
    forms: dict[str, Literal["NFC", "NFD", "NFKC", "NFKD"]] = {
        "NFC": "NFC",
        "NFD": "NFD",
        "NFKC": "NFKC",
        "NFKD": "NFKD",
    }
    if form not in forms:
        raise RecipeError(f"normalize: unknown form {form!r}")
    chosen = forms[form]
    return lambda entries: [unicodedata.normalize(chosen, e) for e in entries]


@stage("lowercase")
def _lowercase(ctx: StageContext) -> StageFn:
    return lambda entries: [e.lower() for e in entries]


@stage("drop-capitalised")
def _drop_capitalised(ctx: StageContext, *, anywhere: bool = False) -> StageFn:
    """Drop proper nouns (`Jansen`); with `anywhere`, also `pH`, `mkB`-style entries."""
    if anywhere:
        return lambda entries: [e for e in entries if not any(ch.isupper() for ch in e)]
    return lambda entries: [e for e in entries if not (e[:1].isupper())]


@stage("fold-accents")
def _fold_accents(ctx: StageContext, *, overrides: dict[str, str] | None = None, keep: str = "") -> StageFn:
    """Fold accents with unidecode (`ideeën` -> `ideeen`); `overrides` and `keep` are per language."""
    from unidecode import unidecode

    table = dict(overrides or {})
    for ch in keep:
        table[ch] = ch
    cache: dict[str, str] = {}

    def fold_char(ch: str) -> str:
        if ch not in cache:
            cache[ch] = table[ch] if ch in table else unidecode(ch)
        return cache[ch]

    def fold(word: str) -> str:
        if word.isascii():
            return word
        return "".join(ch if ch.isascii() else fold_char(ch) for ch in word)

    return lambda entries: [fold(e) for e in entries]


def _compile(pattern: str, name: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise RecipeError(f"{name}: bad pattern {pattern!r}: {exc}") from None


@stage("regex-keep")
def _regex_keep(ctx: StageContext, *, pattern: str) -> StageFn:
    """Keep entries in which the pattern is found (grep semantics: anchor it yourself)."""
    rx = _compile(pattern, "regex-keep")
    return lambda entries: [e for e in entries if rx.search(e)]


@stage("regex-drop")
def _regex_drop(ctx: StageContext, *, pattern: str) -> StageFn:
    """Drop entries in which the pattern is found (grep -v)."""
    rx = _compile(pattern, "regex-drop")
    return lambda entries: [e for e in entries if not rx.search(e)]


@stage("length")
def _length(ctx: StageContext, *, min: int = 1, max: int | None = None) -> StageFn:
    """Keep entries of `min`..`max` letters."""
    hi = max if max is not None else 10**9
    return lambda entries: [e for e in entries if min <= letters(e) <= hi]


@stage("require-vowel")
def _require_vowel(ctx: StageContext, *, vowels: str | None = None) -> StageFn:
    vs = set(vowels if vowels is not None else ctx.vowels)
    return lambda entries: [e for e in entries if any(ch in vs for ch in e)]


@stage("require-consonant")
def _require_consonant(ctx: StageContext, *, vowels: str | None = None) -> StageFn:
    """A consonant is any letter that is not one of the language's vowels."""
    vs = set(vowels if vowels is not None else ctx.vowels)
    return lambda entries: [e for e in entries if any(ch.isalpha() and ch not in vs for ch in e)]


def _read_list(ctx: StageContext, file: str) -> list[str]:
    path = Path(file) if Path(file).is_absolute() else ctx.base_dir / file
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecipeError(f"blocklist file {path}: {exc.strerror}") from None
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


@stage("blocklist")
def _blocklist(
    ctx: StageContext, *, words: Iterable[str] = (), file: str | None = None, match: str = "substring"
) -> StageFn:
    """Drop entries containing (or equal to, with `match = "word"`) any listed string.

    Substring matching runs one Aho-Corasick pass per entry, whatever the list size.
    """
    banned = [w for w in words if w] + (_read_list(ctx, file) if file else [])
    if not banned:
        raise RecipeError("blocklist: give `words` or `file`")
    if match == "word":
        exact = set(banned)
        return lambda entries: [e for e in entries if e not in exact]
    if match != "substring":
        raise RecipeError(f"blocklist: match must be 'substring' or 'word', not {match!r}")
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for w in banned:
        automaton.add_word(w, w)
    automaton.make_automaton()

    def clean(word: str) -> bool:
        return next(automaton.iter(word), None) is None

    return lambda entries: [e for e in entries if clean(e)]


@stage("dedupe")
def _dedupe(ctx: StageContext) -> StageFn:
    """Keep the first of equal entries (run it after folding: `ideeën` and `ideeen` are one word)."""
    return lambda entries: list(dict.fromkeys(entries))


@stage("dice-alphabet")
def _dice_alphabet(ctx: StageContext, *, dice: Iterable[str] | None = None) -> StageFn:
    """Keep words that can be spelled with the faces of the dice (`qi` fails on Qu dice)."""
    from ..board.dice import get_dice

    ids = list(dice) if dice is not None else list(ctx.language_dice)
    if not ids:
        raise RecipeError("dice-alphabet: the language has no dice sets; name them with `dice`")
    faces = set().union(*(get_dice(i).faces for i in ids)) - {""}
    longest = max(len(f) for f in faces)

    def spellable(word: str) -> bool:
        ok = [True] + [False] * len(word)
        for i in range(len(word)):
            if ok[i]:
                for n in range(1, min(longest, len(word) - i) + 1):
                    if word[i : i + n] in faces:
                        ok[i + n] = True
        return ok[-1]

    return lambda entries: [e for e in entries if spellable(e)]
