"""Pipeline stages: small functions over one entry at a time, registered by name.

Each factory takes the recipe's parameters (keyword-only, so a typo is an error)
plus a `StageContext`, and returns a function from one entry to the entry it
becomes, or None to drop it. Working entry by entry lets a 4-million-line list
stream through without ever being held in memory. The order of stages is the
recipe's, never this module's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..errors import RecipeError
from ..limits import clip
from ..spelling import PLAIN, Spelling, order_marks
from .compactset import CompactSet
from .policies import CASE_POLICIES

StageFn = Callable[[str], str | None]


@dataclass(frozen=True)
class StageContext:
    """What a stage may need besides its parameters: the language record's letter policy.

    Stages take their defaults from here, so a recipe only states what differs
    from its language (see `lexicons/languages/*.toml`).
    """

    vowels: str
    language_dice: tuple[str, ...]
    base_dir: Path
    alphabet: str = ""
    fold: Mapping[str, str] = field(default_factory=dict)
    case: str = "lower"
    min_length: int = 1
    max_length: int | None = None
    wordfreq: str | None = None  # the language's code in wordfreq (the `frequent` stage's default)
    spelling: Spelling = PLAIN  # multi-letter letters (Welsh ll): a word's length counts them once
    lower: Mapping[str, str] = field(default_factory=dict)  # lower case unlike Unicode's (Turkish I -> ı)
    mark_order: str = ""  # the written order of a run of combining marks (Thai: vowel sign, then tone mark)


STAGES: dict[str, Callable[..., StageFn]] = {}
# Stages whose answer for an entry depends on the entries before it (dedupe drops repeats):
# a word traced on its own (`lookup`) passes over them.
STATEFUL = frozenset({"dedupe"})


def stage(name: str) -> Callable[[Callable[..., StageFn]], Callable[..., StageFn]]:
    """Register a stage factory under the name recipes use."""

    def register(factory: Callable[..., StageFn]) -> Callable[..., StageFn]:
        STAGES[name] = factory
        return factory

    return register


def letters(word: str, faces: frozenset[str] = frozenset()) -> int:
    """Length in letters: marks, apostrophes and hyphens do not count, unless they are `faces` of the
    language's alphabet (a Thai vowel sign or tone mark is a combining mark and a face of its own)."""
    if word.isalpha():
        return len(word)
    return sum(1 for ch in word if ch.isalpha() or ch in faces)


def _no_capital(word: str) -> bool:
    return word.islower() or not any(ch.isupper() for ch in word)


def keep_if(test: Callable[[str], object]) -> StageFn:
    """A filter stage: the entry itself when `test` holds, else None."""
    return lambda e: e if test(e) else None


@stage("strip")
def _strip(ctx: StageContext) -> StageFn:
    """Remove a BOM, CR and surrounding white space (lists made on Windows)."""
    return lambda e: e.replace("\ufeff", "").replace("\r", "").strip()


@stage("skip-blank")
def _skip_blank(ctx: StageContext) -> StageFn:
    return keep_if(bool)


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
    return lambda e: unicodedata.normalize(chosen, e)


@stage("order-marks")
def _order_marks(ctx: StageContext, *, order: str | None = None) -> StageFn:
    """Put each run of combining marks in the language's written order (its record's `mark_order`):
    `ก่ี` (tone mark typed first) is `กี่`, the order the dictionary and a board's path agree on."""
    chosen = ctx.mark_order if order is None else order
    if not chosen:
        raise RecipeError("order-marks: the language record has no mark_order; give `order`")
    return lambda e: order_marks(e, chosen)


def lowercase(lower: Mapping[str, str]) -> Callable[[str], str]:
    """Lower case with the language's exceptions first (Turkish `I` -> `ı`, `İ` -> `i`), then Unicode's."""
    if not lower:
        return str.lower
    table = str.maketrans(dict(lower))
    return lambda e: e.translate(table).lower()


@stage("lowercase")
def _lowercase(ctx: StageContext) -> StageFn:
    return lowercase(ctx.lower)


@stage("drop-capitalised")
def _drop_capitalised(ctx: StageContext, *, anywhere: bool = False) -> StageFn:
    """Drop proper nouns (`Jansen`); with `anywhere`, also `pH`, `mkB`-style entries."""
    if anywhere:
        return keep_if(_no_capital)
    return keep_if(lambda e: not e[:1].isupper())


def _is_abbreviation(word: str) -> bool:
    """Two or more capitals (BMW, CDU, GmbH, pH's capital after a small letter): not a plain noun."""
    if word.islower() or word[1:].islower():
        return False
    caps = [i for i, ch in enumerate(word) if ch.isupper()]
    return len(caps) >= 2 or (len(caps) == 1 and caps[0] > 0)


@stage("case")
def _case(ctx: StageContext, *, policy: str | None = None) -> StageFn:
    """The language's capitalisation policy, then lower-case.

    `lower`: lower-case everything (lists with no proper nouns); `drop-capitalised`:
    drop every entry with a capital (names and abbreviations, where common words
    are written small); `nouns`: keep `Haus` (German capitalises every noun) but
    drop `BMW`, `GmbH`, `pH` (abbreviations), then lower-case.
    """
    chosen = policy if policy is not None else ctx.case
    lower = lowercase(ctx.lower)
    if chosen == "lower":
        return lower
    if chosen == "drop-capitalised":
        return keep_if(_no_capital)
    if chosen == "nouns":
        return lambda e: None if _is_abbreviation(e) else lower(e)
    raise RecipeError(f"case: policy must be one of {', '.join(CASE_POLICIES)}, not {chosen!r}")


@stage("fold-accents")
def _fold_accents(ctx: StageContext, *, overrides: dict[str, str] | None = None, keep: str | None = None) -> StageFn:
    """Fold accents with unidecode (`ideeën` -> `ideeen`).

    Defaults come from the language: its `fold` table overrides unidecode
    (German `ß` -> `ss`), and the non-ASCII letters of its alphabet are letters
    of their own (Spanish `ñ`, Polish `ł`) that are kept, not folded; so are the
    characters of its units (Upper Sorbian `ź`, written only inside the letter `dź`).
    """
    from unidecode import unidecode

    table = dict(ctx.fold if overrides is None else overrides)
    for ch in ctx.alphabet + "".join(ctx.spelling.units) if keep is None else keep:
        table[ch] = ch
    for key, value in table.items():
        if not isinstance(value, str):
            raise TypeError(f"overrides: {key!r} = {value!r} is not a string")
    cache: dict[str, str] = {}

    def fold_char(ch: str) -> str:
        if ch not in cache:
            cache[ch] = table[ch] if ch in table else unidecode(ch)
        return cache[ch]

    # ASCII characters fold only if the table says so (the Ukrainian apostrophe: м'ясо -> мясо).
    ascii_map = {k: v for k, v in table.items() if k.isascii() and k != v}
    if any(len(k) != 1 for k in ascii_map):
        raise RecipeError(f"fold-accents: keys must be single characters, not {sorted(ascii_map)!r}")
    translation = str.maketrans(ascii_map) if ascii_map else None

    def fold(word: str) -> str:
        if translation is not None:
            word = word.translate(translation)
        if word.isascii():
            return word
        return "".join(ch if ch.isascii() else fold_char(ch) for ch in word)

    return fold


@stage("fold-marks")
def _fold_marks(ctx: StageContext, *, overrides: dict[str, str] | None = None) -> StageFn:
    """Fold marks for any script: the letters of the alphabet stay; the `fold` table maps the rest
    (Greek `ς` -> `σ`, Hebrew `ך` -> `כ`, Persian ZWNJ -> ""); any other character loses its
    combining marks (Greek `ά` -> `α`, Hebrew niqqud, Arabic harakat).

    Unlike `fold-accents` (unidecode), nothing is transliterated to Latin, so it suits Greek,
    Hebrew, Arabic, Armenian and Cyrillic alike; what a mark means is each record's house rule.
    """
    table = dict(ctx.fold if overrides is None else overrides)
    keep = set(ctx.alphabet) | set("".join(ctx.spelling.units))  # a unit's characters too (Armenian ու)
    cache: dict[str, str] = {}

    def fold_char(ch: str) -> str:
        out = cache.get(ch)
        if out is None:
            if ch in keep:
                out = ch
            elif ch in table:
                out = table[ch]
            else:
                bare = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
                out = unicodedata.normalize("NFC", bare)
                out = "".join(table.get(c, c) for c in out)
            cache[ch] = out
        return out

    def fold(word: str) -> str:
        if keep.issuperset(word):
            return word
        return "".join(fold_char(ch) for ch in word)

    return fold


def _compile(pattern: str, name: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise RecipeError(f"{name}: bad pattern {pattern!r}: {exc}") from None


@stage("regex-keep")
def _regex_keep(ctx: StageContext, *, pattern: str) -> StageFn:
    """Keep entries in which the pattern is found (grep semantics: anchor it yourself)."""
    return keep_if(_compile(pattern, "regex-keep").search)


@stage("regex-drop")
def _regex_drop(ctx: StageContext, *, pattern: str) -> StageFn:
    """Drop entries in which the pattern is found (grep -v)."""
    rx = _compile(pattern, "regex-drop")
    return keep_if(lambda e: not rx.search(e))


@stage("regex-replace")
def _regex_replace(ctx: StageContext, *, pattern: str, replacement: str = "") -> StageFn:
    """Rewrite every match (`/[A-Z]+$` -> "" strips the ispell affix flags left in Irish `ainm/E`)."""
    rx = _compile(pattern, "regex-replace")
    try:
        rx.sub(replacement, "")  # the replacement is parsed here: a bad group (\\9) is a recipe error, not mid-build
    except (re.error, IndexError, TypeError) as exc:
        raise RecipeError(f"regex-replace: bad replacement {clip(str(replacement), 40)!r}: {exc}") from None
    return lambda e: rx.sub(replacement, e)


@stage("alphabet")
def _alphabet(ctx: StageContext, *, letters: str | None = None) -> StageFn:
    """Keep entries made only of the language's letters (its record's `alphabet`)."""
    chosen = set(letters if letters is not None else ctx.alphabet)
    if not chosen:
        raise RecipeError("alphabet: the language record has no alphabet; give `letters`")
    units = frozenset(ctx.spelling.units if letters is None else ())
    if not {ch for unit in units for ch in unit} - chosen:
        return keep_if(lambda e: bool(e) and chosen.issuperset(e))
    # Some characters stand only inside a unit (Breton c and the apostrophe of ch, c'h): a word is kept
    # when it splits into letters of the alphabet and units (c'hoari), not when such a character is alone
    # (acoli, d'ar).
    split = ctx.spelling.split
    return keep_if(lambda e: bool(e) and (chosen.issuperset(e) or all(p in chosen or p in units for p in split(e))))


@stage("length")
def _length(ctx: StageContext, *, min: int | None = None, max: int | None = None) -> StageFn:
    """Keep entries of `min`..`max` letters (defaults: the language's min and max length).

    A multi-letter letter of the language (Welsh `ll`) counts one (boggle_i18n/spelling.py); a character of
    the alphabet counts one even when Unicode calls it a mark (Thai `ไก่` is three faces: ไ ก ่).
    """
    lo = min if min is not None else ctx.min_length
    hi = max if max is not None else (ctx.max_length if ctx.max_length is not None else 10**9)
    faces = frozenset(ctx.alphabet)
    if ctx.spelling:
        split, units = ctx.spelling.split, frozenset(ctx.spelling.units) | faces

        def count(e: str) -> int:  # a unit counts one letter, even one with an apostrophe (Breton c'h)
            pieces = split(e)
            return len(pieces) if e.isalpha() else sum(1 for p in pieces if p in units or p.isalpha())

        return keep_if(lambda e: lo <= count(e) <= hi)
    return keep_if(lambda e: lo <= letters(e, faces) <= hi)


@stage("require-vowel")
def _require_vowel(ctx: StageContext, *, vowels: str | None = None) -> StageFn:
    chosen = vowels if vowels is not None else ctx.vowels
    if not chosen:
        return keep_if(lambda e: False)
    return keep_if(re.compile(f"[{re.escape(chosen)}]").search)


@stage("require-consonant")
def _require_consonant(ctx: StageContext, *, vowels: str | None = None) -> StageFn:
    """A consonant is any letter that is not one of the language's vowels."""
    vs = set(vowels if vowels is not None else ctx.vowels)
    # Every letter is a \w character, so no match means no consonant; a match that is not a
    # letter (a rare numeric such as ²) falls back to the exact test.
    candidate = re.compile(f"[^\\W\\d_{re.escape(''.join(sorted(vs)))}]").search

    def has_consonant(e: str) -> bool:
        found = candidate(e)
        if found is None:
            return False
        return found.group().isalpha() or any(ch.isalpha() and ch not in vs for ch in e)

    return keep_if(has_consonant)


def read_list(base_dir: Path, file: str, what: str = "blocklist") -> list[str]:
    """A word-list data file: one entry per line; `#` starts a comment, blank lines are skipped."""
    path = Path(file) if Path(file).is_absolute() else base_dir / file
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecipeError(
            f"{what} file {path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at {exc.start})"
        ) from None
    except OSError as exc:
        raise RecipeError(f"{what} file {path}: {exc.strerror or exc}") from None
    out = []
    for line in text.split("\n"):
        entry = line.split("#", 1)[0].strip()
        if entry:
            out.append(entry)
    return out


@stage("blocklist")
def _blocklist(
    ctx: StageContext, *, words: Iterable[str] = (), file: str | None = None, match: str = "substring"
) -> StageFn:
    """Drop entries containing (or equal to, with `match = "word"`; starting with, with `match = "prefix"`)
    any listed string.

    Substring matching runs one Aho-Corasick pass per entry, whatever the list size. A prefix drops a
    junk stem with every form the affix expander made from it (Turkish `aşla-`, cut from `başla-`).
    """
    banned = [w for w in words if w] + (read_list(ctx.base_dir, file) if file else [])
    if not banned:
        raise RecipeError("blocklist: give `words` or `file`")
    if match == "word":
        exact = set(banned)
        return keep_if(lambda e: e not in exact)
    if match == "prefix":
        stems = set(banned)
        lengths = sorted({len(w) for w in stems})
        return keep_if(lambda e: not any(e[:n] in stems for n in lengths if n <= len(e)))
    if match != "substring":
        raise RecipeError(f"blocklist: match must be 'substring', 'word' or 'prefix', not {match!r}")
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for w in banned:
        automaton.add_word(w, w)
    automaton.make_automaton()
    return keep_if(lambda e: next(automaton.iter(e), None) is None)


@stage("dedupe")
def _dedupe(ctx: StageContext) -> StageFn:
    """Keep the first of equal entries (run it after folding: `ideeën` and `ideeen` are one word).

    The entries seen are kept as UTF-8 in one buffer with an open-addressing
    index (`CompactSet`), about 30 bytes per entry instead of ~120 for a `set`.
    """
    seen = CompactSet()
    return lambda e: e if seen.add(e) else None


@stage("dice-alphabet")
def _dice_alphabet(ctx: StageContext, *, dice: Iterable[str] | None = None) -> StageFn:
    """Keep words that can be spelled with the faces of the dice (`qi` fails on Qu dice)."""
    from ..board.dice import get_dice

    ids = list(dice) if dice is not None else list(ctx.language_dice)
    if not ids:
        raise RecipeError("dice-alphabet: the language has no dice sets; name them with `dice`")
    faces = set().union(*(get_dice(i).faces for i in ids)) - {""}
    longest = max(len(f) for f in faces)
    singles = {f for f in faces if len(f) == 1}

    def spellable(word: str) -> bool:
        if singles.issuperset(word):
            return True
        ok = [True] + [False] * len(word)
        for i in range(len(word)):
            if ok[i]:
                for n in range(1, min(longest, len(word) - i) + 1):
                    if word[i : i + n] in faces:
                        ok[i + n] = True
        return ok[-1]

    return keep_if(spellable)


@stage("frequent")
def _frequent(ctx: StageContext, *, min_zipf: float = 3.0, source: str | None = None) -> StageFn:
    """Keep entries at least `min_zipf` frequent in wordfreq (Zipf 3: once per million words): a common tier.

    Run it before case and folding: the entry is matched as wordfreq stores words,
    case-folded (Haus -> haus, Straße -> strasse). The list is the language record's
    `wordfreq` code unless `source` names another; wordfreq is the optional extra
    `[frequency]`, its data inside its wheel (no download).
    """

    code = source if source is not None else ctx.wordfreq
    if not code:
        raise RecipeError("frequent: the language has no frequency source (`wordfreq` in its record)")
    try:
        import wordfreq
    except ImportError:
        raise RecipeError("frequent: needs wordfreq (pip install 'boggle-i18n[frequency]')") from None
    try:
        table = wordfreq.get_frequency_dict(code)
    except (LookupError, ValueError) as exc:
        raise RecipeError(f"frequent: wordfreq has no list for {code!r}: {exc}") from None
    floor = 10 ** (min_zipf - 9)  # Zipf = log10(frequency per billion words)
    common = {word for word, freq in table.items() if freq >= floor}
    return keep_if(lambda e: e.casefold() in common)
