"""Scoring presets and custom tables: word length in letters -> points."""

from __future__ import annotations

import pytest

from boggle_i18n.errors import BoggleI18nError, ScoringError
from boggle_i18n.scoring import Scoring, get_scoring, parse_table, presets


def points_table(scoring: Scoring, up_to: int = 20) -> dict[int, int]:
    return {n: scoring.points(n) for n in range(1, up_to + 1)}


def test_classic_4x4() -> None:
    """Boggle's printed table: 3-4 letters 1, 5 2, 6 3, 7 5, 8 or more 11."""
    expected = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 3, 7: 5} | {n: 11 for n in range(8, 21)}
    assert points_table(get_scoring("classic-4x4")) == expected


def test_big_5x5_has_a_four_letter_minimum() -> None:
    expected = {1: 0, 2: 0, 3: 0, 4: 1, 5: 2, 6: 3, 7: 5} | {n: 11 for n in range(8, 21)}
    assert points_table(get_scoring("big-5x5")) == expected


def test_superbig_6x6_two_points_per_letter_beyond_eight() -> None:
    """TV Tropes' reading: 9 letters = 13, 10 letters ('absolutely') = 15."""
    scoring = get_scoring("superbig-6x6")
    assert [scoring.points(n) for n in range(1, 9)] == [0, 0, 0, 1, 2, 3, 5, 11]
    assert scoring.points(9) == 13
    assert scoring.points(10) == 15
    assert scoring.points(11) == 17
    assert scoring.points(16) == 27


def test_superbig_6x6_per_letter() -> None:
    """The other reading: 9+ letters score 2 per letter (9 letters = 18)."""
    scoring = get_scoring("superbig-6x6-per-letter")
    assert [scoring.points(n) for n in range(1, 9)] == [0, 0, 0, 1, 2, 3, 5, 11]
    assert scoring.points(9) == 18
    assert scoring.points(10) == 20
    assert scoring.points(12) == 24


def test_word_count_and_letters_presets() -> None:
    assert [get_scoring("word-count").points(n) for n in range(1, 12)] == [1] * 11
    assert [get_scoring("letters").points(n) for n in range(1, 12)] == list(range(1, 12))


def test_expected_presets_ship() -> None:
    assert {"classic-4x4", "big-5x5", "superbig-6x6", "superbig-6x6-per-letter"} <= set(presets())


def test_describe_classic() -> None:
    assert get_scoring("classic-4x4").describe() == "3:1 4:1 5:2 6:3 7:5 8+:11"


def test_custom_table() -> None:
    """A table with ':' is a custom table; longer words score like the largest length."""
    scoring = get_scoring("3:1,4:1,5:2")
    assert points_table(scoring, 9) == {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2}
    assert scoring.table == ((3, 1), (4, 1), (5, 2))


@pytest.mark.parametrize("text", ["3:1 4:1 5:2", "5:2,3:1,4:1", "3:1,,4:1,5:2,", "3:1, 4:1, 5+:2"])
def test_custom_table_forms(text: str) -> None:
    """Spaces, any order, stray commas and a trailing `+` on the last length all read the same."""
    assert parse_table(text).table == ((3, 1), (4, 1), (5, 2))


def test_custom_table_matching_classic_scores_like_classic() -> None:
    custom = get_scoring("3:1,4:1,5:2,6:3,7:5,8:11")
    classic = get_scoring("classic-4x4")
    assert points_table(custom, 30) == points_table(classic, 30)


@pytest.mark.parametrize("text", ["3:a", "3:1,4", "x:1", "3:1:2", ":", "3-1,4:1", "3.5:1"])
def test_bad_tables_raise(text: str) -> None:
    with pytest.raises(ScoringError, match="bad scoring table"):
        get_scoring(text)


@pytest.mark.parametrize("text", ["3:1,3:2", "0:1,3:1", "-1:1"])
def test_bad_lengths_raise(text: str) -> None:
    """Lengths must be distinct and positive."""
    with pytest.raises(ScoringError):
        get_scoring(text)


def test_empty_table_raises() -> None:
    with pytest.raises(ScoringError, match="empty table"):
        parse_table(",")


@pytest.mark.parametrize("name", ["classic", "", "big5x5"])
def test_unknown_preset_raises_and_lists_known(name: str) -> None:
    with pytest.raises(ScoringError, match="unknown scoring preset") as info:
        get_scoring(name)
    assert "classic-4x4" in str(info.value)


@pytest.mark.parametrize("name", ["Classic-4x4", "CLASSIC-4X4", " big-5x5 "])
def test_preset_names_are_case_insensitive(name: str) -> None:
    """`--scoring Classic-4x4` is the same preset as `classic-4x4`, like language and dice names."""
    assert get_scoring(name) == get_scoring(name.strip().lower())


@pytest.mark.parametrize("text", ["3:-1", "3:1,4:-2", "3:1,8:-11"])
def test_negative_points_refused(text: str) -> None:
    """A table may not take points away: `--scoring 3:-1` is an error naming the bad pair."""
    with pytest.raises(ScoringError, match="cannot be negative"):
        get_scoring(text)


def test_zero_lengths_lists_lengths_worth_nothing() -> None:
    """Lengths a minimum admits but the table scores 0 (for the warning `solve` prints)."""
    big = get_scoring("big-5x5")
    assert big.zero_lengths(3, 25) == [3]
    assert big.zero_lengths(4, 25) == []
    assert get_scoring("3:0,4:1").zero_lengths(3, 16) == [3]
    assert get_scoring("5:1").zero_lengths(2, 16) == [2, 3, 4]


def test_scoring_error_is_a_library_error() -> None:
    assert issubclass(ScoringError, BoggleI18nError)
