"""Shipped dice sets against their sources in ../shared/data/dice, and rolling boards."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import REPO, shared_file

from boggle_i18n import api
from boggle_i18n.board import Board, DiceSet, dice_sets, get_dice
from boggle_i18n.errors import BoardError, DiceError
from boggle_i18n.language.records import languages
from boggle_i18n.lexicon import Lexicon
from boggle_i18n.scoring import get_scoring

SHIPPED = sorted(p.name for p in (REPO / "lexicons" / "dice").glob("*.json"))
REQUIRED = [
    "en-classic-4x4",
    "en-new-4x4",
    "en-big-5x5-original",
    "en-big-5x5-deluxe",
    "en-big-5x5-2012",
    "en-superbig-6x6",
    "nl-4x4",
    "de-4x4",
    "fr-4x4",
    "it-4x4",
]


def source(name: str) -> dict:
    return json.loads(shared_file("dice", name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- shipped data == sources


def test_shipped_dice_files_exist() -> None:
    assert len(SHIPPED) >= len(REQUIRED)
    assert set(REQUIRED) <= set(dice_sets())


def test_every_source_set_is_shipped() -> None:
    folder = shared_file("dice", "README.md").parent
    sources = sorted(p.name for p in folder.glob("*.json"))
    assert sources, "no source dice files"
    assert sources == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_set_equals_source(name: str) -> None:
    """Dice, size and minimum length are transcribed exactly; the scoring preset equals the source table."""
    src = source(name)
    raw = json.loads((REPO / "lexicons" / "dice" / name).read_text(encoding="utf-8"))
    ds = get_dice(src["id"])
    assert raw["id"] == src["id"] == Path(name).stem
    assert ds.language == src["language"]
    assert ds.name == src["name"]
    assert ds.status == src["status"]
    assert [ds.rows, ds.cols] == src["size"]
    assert ds.min_word_length == src["min_word_length"]
    assert [list(die) for die in ds.dice] == src["dice"]
    assert raw["dice"] == src["dice"]
    table = tuple(sorted((int(n), int(p)) for n, p in src["scoring"].items()))
    assert get_scoring(ds.scoring).table == table


def test_superbig_beyond_rule_matches_a_source_reading() -> None:
    """The source gives two readings of 9+ letters; each has a preset that scores them as written."""
    src = source("en-superbig-6x6.json")
    readings = " ".join(r["reading"] for r in src["scoring_beyond"]["readings"])
    assert "9 letters = 13, 10 letters = 15" in readings and "9 letters = 18" in readings
    assert get_dice("en-superbig-6x6").scoring == "superbig-6x6"
    assert (get_scoring("superbig-6x6").points(9), get_scoring("superbig-6x6").points(10)) == (13, 15)
    assert get_scoring("superbig-6x6-per-letter").points(9) == 18


def test_unknown_dice_set() -> None:
    with pytest.raises(DiceError, match=r"unknown dice set 'en-4x4'.*en-classic-4x4"):
        get_dice("en-4x4")


def test_a_dice_set_is_found_by_its_file_name(tmp_path: Path) -> None:
    """`get_dice` reads only the asked set's file, so a set whose id is not its file's name is refused."""
    from boggle_i18n.board import dice

    raw = json.loads((REPO / "lexicons" / "dice" / "en-new-4x4.json").read_text(encoding="utf-8"))
    path = tmp_path / "en-other.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DiceError, match="id 'en-new-4x4' is not its file's name"):
        dice._dice_set(path)
    assert get_dice("EN-new-4x4") is dice_sets()["en-new-4x4"]


# --------------------------------------------------------------------------- shorthands


@pytest.mark.parametrize("dice_id", [i for i in REQUIRED if i.startswith("en-")])
def test_english_sets_type_q_for_qu(dice_id: str) -> None:
    assert get_dice(dice_id).shorthands == {"q": "qu"}


@pytest.mark.parametrize("dice_id", ["nl-4x4", "de-4x4", "fr-4x4", "fr-big-5x5"])
def test_plain_q_sets_have_no_shorthands(dice_id: str) -> None:
    ds = get_dice(dice_id)
    assert "q" in ds.faces
    assert ds.shorthands == {}


def test_superbig_two_letter_faces_are_not_shorthands() -> None:
    """Th, In, Er, He, An start with letters that also show alone, so only q -> qu is a shorthand."""
    ds = get_dice("en-superbig-6x6")
    assert {"th", "in", "er", "he", "an", "qu", ""} <= ds.faces
    assert ds.shorthands == {"q": "qu"}


# --------------------------------------------------------------------------- rolling


@pytest.mark.parametrize("dice_id", sorted(dice_sets()))
def test_roll_is_reproducible_and_uses_every_die_once(dice_id: str) -> None:
    ds = get_dice(dice_id)
    boards = [ds.roll(random.Random(seed)) for seed in range(40)]
    for seed, board in enumerate(boards):
        assert board == ds.roll(random.Random(seed)), "same seed, same board"
        assert board.size == (ds.rows, ds.cols)
        assert all(face == face.lower() for face in board.faces)
        assert ds.can_show(board), f"{board.notation()} cannot come from one throw of {dice_id}"
    assert len(set(boards)) > 30, "different seeds should give different boards"


def test_matching_check_catches_a_die_used_twice() -> None:
    """The matching check itself must be able to fail: two Qu cells on classic dice (one Qu die) fail."""
    ds = get_dice("en-classic-4x4")
    faces = [die[0].lower() for die in ds.dice]
    assert ds.can_show(Board(4, 4, tuple(faces)))
    qu_index = next(i for i, die in enumerate(ds.dice) if "Qu" in die)
    faces[(qu_index + 1) % 16] = "qu"
    faces[qu_index] = "qu"
    assert not ds.can_show(Board(4, 4, tuple(faces)))


def test_rolled_faces_follow_the_dice_over_many_rolls() -> None:
    """On classic dice exactly one die has Qu: a roll never shows two Qu faces, and Qu shows about 1/6 of rolls."""
    ds = get_dice("en-classic-4x4")
    rng = random.Random(2024)
    counts = Counter(Counter(ds.roll(rng).faces)["qu"] for _ in range(600))
    assert set(counts) <= {0, 1}
    assert 50 <= counts[1] <= 150


def test_every_language_has_existing_dice() -> None:
    """A language whose boards come from dice lists sourced sets of its own; one without dice says so."""
    for code, language in languages().items():
        if language.boards == "distribution":
            assert not language.dice, f"{code} has dice but rolls from a distribution"
            continue
        assert language.dice, f"{code} lists no dice"
        for dice_id in language.dice:
            ds = get_dice(dice_id)
            assert ds.language == code


@pytest.mark.parametrize(
    "lang,size,dice_id",
    [
        ("en", (4, 4), "en-new-4x4"),
        ("en", (5, 5), "en-big-5x5-deluxe"),
        ("en", (6, 6), "en-superbig-6x6"),
        ("nl", (4, 4), "nl-4x4"),
        ("fr", (5, 5), "fr-big-5x5"),
    ],
)
def test_language_picks_first_dice_of_size(lang: str, size: tuple[int, int], dice_id: str) -> None:
    assert languages()[lang].dice_for(*size) == get_dice(dice_id)


# --------------------------------------------------------------------------- api.roll_board


def test_roll_board_with_dice_is_reproducible() -> None:
    board, seed = api.roll_board(dice="nl-4x4", seed=123)
    assert seed == 123
    assert board == api.roll_board(dice="nl-4x4", seed=123)[0]
    assert get_dice("nl-4x4").can_show(board)


def test_roll_board_uses_language_dice_of_size() -> None:
    board, _ = api.roll_board(lang="en", size=(5, 5), seed=5)
    assert board.size == (5, 5)
    assert get_dice("en-big-5x5-deluxe").can_show(board)


def test_roll_board_without_seed_reports_the_seed_it_used() -> None:
    board, seed = api.roll_board(lang="en")
    assert api.roll_board(lang="en", seed=seed)[0] == board


def test_roll_board_uniform_letters() -> None:
    """Uniform letters: any size, faces drawn from the language's dice, reproducible."""
    board, seed = api.roll_board(lang="nl", size=(3, 7), letters="uniform", seed=9)
    assert seed == 9 and board.size == (3, 7)
    assert set(board.faces) <= get_dice("nl-4x4").faces - {""}
    assert board == api.roll_board(lang="nl", size=(3, 7), letters="uniform", seed=9)[0]
    many, _ = api.roll_board(lang="en", size=(20, 20), letters="uniform", seed=1)
    assert len(set(many.faces)) > 15


def test_roll_board_lexicon_letters_follow_the_counts() -> None:
    """Letters weighted by lexicon counts: a letter with count 0 never appears."""
    board, _ = api.roll_board(lang="en", size=(6, 6), letters="lexicon", seed=3, letter_counts={"e": 10, "t": 1})
    assert set(board.faces) <= {"e", "t"}
    assert Counter(board.faces)["e"] > Counter(board.faces)["t"]


def test_roll_board_lexicon_letters_need_counts() -> None:
    with pytest.raises(BoardError, match="letter counts"):
        api.roll_board(lang="en", letters="lexicon", seed=1)


def test_roll_board_bad_letters_mode() -> None:
    with pytest.raises(BoardError, match="'uniform' or 'lexicon'"):
        api.roll_board(lang="en", letters="zipf", seed=1)


def test_roll_board_unknown_size_for_dice() -> None:
    """No English dice set is 7x7: the error says so and how to get a board anyway."""
    with pytest.raises(BoardError, match=r"no en dice set is 7x7.*--letters uniform"):
        api.roll_board(lang="en", size=(7, 7), seed=1)


def test_roll_board_dice_and_size_disagree() -> None:
    with pytest.raises(BoardError, match="board is 5x5 but dice set 'en-classic-4x4' is 4x4"):
        api.roll_board(dice="en-classic-4x4", size=(5, 5), seed=1)


def test_roll_board_unknown_dice() -> None:
    with pytest.raises(DiceError):
        api.roll_board(dice="xx-4x4", seed=1)


# --------------------------------------------------------------------------- letters modes (issue 8)


def printed_share(ds: DiceSet) -> Counter:
    """How many printed faces of the set show each face."""
    return Counter(face.lower() for die in ds.dice for face in die if face)


def test_letters_follow_the_dice_sets_size() -> None:
    """--dice en-superbig-6x6 --letters uniform draws a 6x6 board from that set's faces."""
    rolled = api.roll(dice="en-superbig-6x6", letters="uniform", seed=4)
    assert rolled.board.size == (6, 6) and rolled.dice == "en-superbig-6x6" and rolled.letters == "uniform"
    assert set(rolled.board.faces) <= get_dice("en-superbig-6x6").faces
    assert api.roll(lang="en", size=(5, 5), letters="uniform", seed=4).dice == "en-big-5x5-deluxe"


def test_uniform_is_uniform_over_printed_faces() -> None:
    """`uniform` draws like picking any printed face: e (on many faces) far more often than qu (on one)."""
    ds = get_dice("en-new-4x4")
    printed = printed_share(ds)
    board = api.roll(dice=ds.id, size=(64, 64), letters="uniform", seed=11).board
    drawn = Counter(board.faces)
    n = len(board.faces)
    total = sum(printed.values())
    for face in ("e", "t", "qu"):
        expected = printed[face] / total
        assert abs(drawn[face] / n - expected) < 0.012, (face, drawn[face] / n, expected)
    assert drawn["e"] > 5 * drawn["qu"]


def test_face_counts_count_multi_letter_faces_as_themselves() -> None:
    """`th` counts occurrences of "th", not of "t"."""
    lexicon = Lexicon.from_words(["the", "other", "tent", "in"])
    assert api.face_counts(lexicon, ["t", "th", "in", "e", "er", "qu"]) == {
        "t": 4,
        "th": 2,
        "in": 1,
        "e": 3,
        "er": 1,
        "qu": 0,
    }


def test_lexicon_letters_weigh_two_letter_faces_by_their_own_frequency(enable1: Lexicon) -> None:
    """On Super Big Boggle faces, er/in/an/th/he/qu come up as often as the lexicon has them: a few percent."""
    ds = get_dice("en-superbig-6x6")
    faces = sorted(ds.faces - {""})
    counts = api.face_counts(enable1, faces)
    board = api.roll(dice=ds.id, size=(64, 64), letters="lexicon", seed=5, lexicon=enable1).board
    drawn = Counter(board.faces)
    n = len(board.faces)
    total = sum(counts.values())
    multi = [f for f in faces if len(f) > 1]
    assert multi and sum(drawn[f] for f in multi) / n < 0.12  # first-letter weighting gave 0.27 (ENABLE2K)
    for face in ("e", "er", "th", "qu"):
        assert abs(drawn[face] / n - counts[face] / total) < 0.012, face
