"""`select()`: the one function that chooses language, dice set, lexicon and rules for every caller."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import build_lexicon
from boggle_i18n.errors import BoardError, DiceError, LanguageError, LexiconError, LimitError, ScoringError
from boggle_i18n.language.selection import Selection, select
from boggle_i18n.record import replace  # Selection is a record (boggle_i18n/record.py)
from boggle_i18n.scoring import get_scoring

MINI_EN = FIXTURES / "mini-en.txt"


def test_defaults_are_english_4x4() -> None:
    """Nothing given: English, its first dice set, the `en` lexicon and that set's rules."""
    s = select()
    assert isinstance(s, Selection)
    assert (s.language.code, s.dice.id if s.dice else None, s.lexicon, s.size) == ("en", "en-new-4x4", "en", (4, 4))
    assert (s.rules.min_length, s.rules.scoring.name, s.rules.diagonals) == (3, "classic-4x4", True)
    assert s.shorthands == {"q": "qu"} and s.warnings == ()


def test_dice_decides_language_size_and_rules() -> None:
    """A dice set brings its language, size, minimum length and scoring."""
    s = select(dice="en-big-5x5-deluxe")
    assert (s.language.code, s.size, s.rules.min_length, s.rules.scoring.name) == ("en", (5, 5), 4, "big-5x5")
    dutch = select(dice="nl-4x4")
    assert (dutch.language.code, dutch.lexicon, dutch.shorthands) == ("nl", "nl", {})


def test_size_picks_the_languages_dice_set() -> None:
    """English 6x6 is Super Big Boggle; 3x3 has no dice set and takes the language's defaults."""
    six = select(lang="en", size=(6, 6))
    assert six.dice is not None and six.dice.id == "en-superbig-6x6" and six.rules.min_length == 4
    three = select(lang="en", size=(3, 3))
    assert three.dice is None and (three.rules.min_length, three.rules.scoring.name) == (3, "classic-4x4")


def test_explicit_values_win() -> None:
    """min_length, scoring, diagonals and bare_q override the dice set's."""
    s = select(dice="en-new-4x4", min_length=4, scoring="word-count", diagonals=False, bare_q="q")
    assert (s.rules.min_length, s.rules.scoring.name, s.rules.diagonals, s.shorthands) == (4, "word-count", False, {})
    table = get_scoring("3:1,4:2")
    assert select(scoring=table).rules.scoring is table


def test_names_are_case_insensitive() -> None:
    """--lang NL, --dice NL-4x4, --scoring Classic-4x4, --bare-q QU, --lexicon EN all work."""
    s = select(lang="NL", dice="NL-4x4", scoring="Classic-4x4", bare_q="QU", lexicon="NL")
    assert (s.language.code, s.dice.id if s.dice else None, s.lexicon) == ("nl", "nl-4x4", "nl")
    assert s.rules.scoring.name == "classic-4x4" and s.shorthands == {"q": "qu"}


def test_lexicon_language_from_its_manifest_or_recipe(tmp_path: Path) -> None:
    """Without --lang, a lexicon brings its language: from a built manifest, else from its recipe."""
    assert select(lexicon="nl-teuncm").language.code == "nl"  # not built: its recipe says nl
    build_lexicon("en", source=MINI_EN, store=tmp_path, save_as="mijn")
    assert select(lexicon="mijn", store=tmp_path).language.code == "en"
    assert select(lexicon="mijn", lang="nl", store=tmp_path).language.code == "nl"  # --lang wins


def test_for_size_keeps_what_was_given() -> None:
    """Re-deriving for the parsed board's size keeps explicit choices and updates the rest."""
    s = select(lang="en", min_length=5)
    big = s.for_size((5, 5))
    assert big.dice is not None and big.dice.id == "en-big-5x5-deluxe"
    assert (big.rules.min_length, big.rules.scoring.name, big.size) == (5, "big-5x5", (5, 5))


def test_zero_point_warning() -> None:
    """A table that scores admitted lengths 0 is allowed, with a warning naming the lengths."""
    assert select(size=(5, 5), min_length=3).warnings == (
        "scoring big-5x5 gives 0 points to 3-letter words, which min length 3 admits",
    )
    assert select(scoring="5:1", min_length=2).warnings == (
        "scoring custom(5:1) gives 0 points to 2- to 4-letter words, which min length 2 admits",
    )
    assert select(size=(5, 5)).warnings == ()


def test_language_without_lexicon() -> None:
    """A language with no lexicon recipe: the selection says so only when a lexicon is needed.

    Every shipped language has a recipe now, so the selection is made to lack one.
    """
    s = replace(select(lang="fr"), lexicon=None)
    assert s.dice is not None and s.dice.id == "fr-4x4"
    with pytest.raises(LexiconError, match="'fr' has no default lexicon yet"):
        s.require_lexicon()


@pytest.mark.parametrize("name", ["../escape", "", "sub/dir", ".hidden", "-x", "my list", "a" * 65, "é"])
def test_bad_lexicon_names(name: str) -> None:
    with pytest.raises(LexiconError, match="bad lexicon name"):
        select(lexicon=name)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"lang": "xx"}, LanguageError),
        ({"dice": "nope"}, DiceError),
        ({"scoring": "nope"}, ScoringError),
        ({"scoring": "3:-1"}, ScoringError),
        ({"min_length": 0}, LimitError),
        ({"bare_q": "x"}, BoardError),
        ({"min_length": 5000}, LimitError),
        ({"lang": "nl", "dice": "en-new-4x4"}, DiceError),
        ({"lang": ""}, LanguageError),
        ({"dice": ""}, DiceError),
        ({"dice": "en-new-4x4", "size": (5, 5)}, BoardError),
    ],
)
def test_bad_choices_raise_library_errors(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        select(**kwargs)


def test_to_dict_reproduces_the_choice() -> None:
    d = select(lang="nl").to_dict()
    assert {k: d[k] for k in ("lang", "dice", "lexicon", "size")} == {
        "lang": "nl",
        "dice": "nl-4x4",
        "lexicon": "nl",
        "size": [4, 4],
    }
    assert d["rules"]["scoring"]["name"] == "classic-4x4"
