"""Word frequencies from `wordfreq` (optional extra `[frequency]`): everyday-word coverage and common words.

A language record names its frequency source (`wordfreq = "pt"` for pt-br); a
language without one is reported as not covered, never given a made-up list.
wordfreq ships its data in its wheel, so this works offline. Nothing on the
`solve` path imports this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BoggleI18nError
from ..language.records import Language
from ..lexicon.store import Lexicon
from ..pipeline.stages import letters

TOP_N = 2000  # everyday words: the frequency source's top 2,000 words of MIN_LETTERS or more
MIN_LETTERS = 3


def _wordfreq() -> Any:
    try:
        import wordfreq
    except ImportError:
        raise BoggleI18nError("word frequencies need wordfreq: pip install 'boggle-i18n[frequency]'") from None
    return wordfreq


def source_code(language: Language) -> str | None:
    """The wordfreq language code of `language`, or None when no frequency source covers it."""
    return language.wordfreq


def top_words(language: Language, n: int = TOP_N, min_letters: int = MIN_LETTERS) -> list[str]:
    """The `n` most frequent words of `min_letters`+ letters (letters only: no digits, no apostrophes)."""
    code = source_code(language)
    if code is None:
        raise BoggleI18nError(f"no frequency source covers {language.code!r} ({language.name})")
    out: list[str] = []
    for word in _wordfreq().iter_wordlist(code):
        if word.isalpha() and letters(word) >= min_letters:
            out.append(word)
            if len(out) == n:
                break
    return out


@dataclass(frozen=True)
class Coverage:
    """How many of a frequency list's words a lexicon holds, in the lexicon's own normalisation."""

    lexicon: str
    source: str
    checked: int
    found: int
    missing: tuple[str, ...]

    @property
    def share(self) -> float:
        return self.found / self.checked if self.checked else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "lexicon": self.lexicon,
            "source": self.source,
            "checked": self.checked,
            "found": self.found,
            "share": round(self.share, 4),
            "missing": list(self.missing),
        }


def coverage(lexicon: Lexicon, language: Language, words: Sequence[str] | None = None) -> Coverage:
    """Everyday-word coverage: each word goes through `lookup` (the recipe's own stages), as a player's would."""
    from ..lookup import WordChecker

    checked = list(words) if words is not None else top_words(language)
    checker = WordChecker(lexicon)
    missing = tuple(w for w in checked if not checker.check(w).found)
    wf = _wordfreq()
    source = f"wordfreq {getattr(wf, '__version__', '')} {source_code(language)} top {len(checked):,}".replace(
        "  ", " "
    )
    return Coverage(str(lexicon.manifest["name"]), source, len(checked), len(checked) - len(missing), missing)


def zipf(words: Iterable[str], language: Language) -> dict[str, float]:
    """wordfreq's Zipf frequency of each word (0 for a word it does not know)."""
    wf, code = _wordfreq(), source_code(language)
    if code is None:
        raise BoggleI18nError(f"no frequency source covers {language.code!r} ({language.name})")
    return {w: wf.zipf_frequency(w, code) for w in words}
