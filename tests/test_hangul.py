"""Korean keystroke jamo composed back into syllable blocks for display (boggle_i18n/hangul.py)."""

from __future__ import annotations

import unicodedata

import pytest

from boggle_i18n.hangul import compose
from boggle_i18n.language.records import get_language


def keys(text: str) -> str:
    """A word as the ko lexicon stores it: NFD jamo through the record's fold table."""
    fold = dict(get_language("ko").fold)
    return "".join(fold.get(c, c) for c in unicodedata.normalize("NFD", text))


@pytest.mark.parametrize(
    "word",
    ["사람", "학교", "한국어", "과일", "닭이", "없다", "읽었다", "의사", "앉아", "뭐", "왜", "괜찮아", "값", "빠르다"],
)
def test_compose_undoes_the_keystroke_spelling(word: str) -> None:
    """Compound vowels (ㅘ ㅙ ㅢ), compound finals (ㄺ ㅄ ㄵ) and a final before a vowel all come back."""
    assert compose(keys(word)) == word


def test_keys_that_spell_no_syllable_are_shown_as_keys() -> None:
    """A bare vowel first, a lone consonant, a final that Korean has not: shown unchanged, never guessed."""
    for raw in ("ㅏㄴ", "ㄱ", "ㄱㅏㄸ", "ㅅㅏㄱㄱㄱㅏ"):
        assert compose(raw) == raw


def test_korean_words_display_as_syllables() -> None:
    """The record asks for it (compose = "hangul"); other languages' words are untouched."""
    assert get_language("ko").display("ㅅㅏㄹㅏㅁ") == "사람"
    assert get_language("en").display("ㅅㅏ") == "ㅅㅏ"
