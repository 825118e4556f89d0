"""Faces that play (issue 35): a record's `attach` letters are drawn only on the face of the letter before them.

The mechanism is one rule (`spelling.clusters`) read in one place (`api.letter_distribution`), so
`random`, `random --count`, `compare` and the web page's roll draw the same faces; the engines spell a
drawn face as its letters, so every engine finds what the brute force finds. Korean takes it (a
vowel key is drawn with the consonant before it: `ㄱㅏ`, shown `가`); Thai and Lao keep one face per
letter, because clusters measured fewer words a board (docs/languages.md, tools/face_policy.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boggle_i18n import api
from boggle_i18n.board import Board
from boggle_i18n.cli.random_cmd import describe
from boggle_i18n.comparison.compare import board_source, roll_codes
from boggle_i18n.comparison.rolls import board_source as rolls_source
from boggle_i18n.comparison.rolls import draw_codes, notation_lines
from boggle_i18n.errors import LanguageError
from boggle_i18n.language.records import _load, get_language
from boggle_i18n.language.selection import select
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.scoring import get_scoring
from boggle_i18n.solver import Rules, solvers
from boggle_i18n.solver.scorer import prepare_scorer
from boggle_i18n.spelling import clusters
from tests.conftest import require_file
from tests.test_solver import brute_force

KO = get_language("ko")
VOWELS = KO.attach
# Korean words as the lexicon stores them: their keys (사람, 바다, 가다, 나라, 과자, 다리, 사다리, 라디오, 감자 ...).
KO_WORDS = [
    "ㅅㅏㄹㅏㅁ",
    "ㅂㅏㄷㅏ",
    "ㄱㅏㄷㅏ",
    "ㄴㅏㄹㅏ",
    "ㄱㅗㅏㅈㅏ",
    "ㄷㅏㄹㅣ",
    "ㅅㅏㄷㅏㄹㅣ",
    "ㄹㅏㄷㅣㅇㅗ",
    "ㄱㅏㅁㅈㅏ",
    "ㅈㅏㄷㅏ",
    "ㄱㅏㄴㅏ",
    "ㄱㅏㅁ",
    "ㄴㅏㅁ",
    "ㄷㅏㄹ",
]


def korean(words: list[str] = KO_WORDS) -> Lexicon:
    lexicon = Lexicon.from_words(words, "ko-test")
    lexicon.manifest["language"] = "ko"
    return lexicon


def test_clusters_split_a_word_one_way_and_spell_it_back() -> None:
    thai_marks = "ัิีึืุู็่้๊๋์"
    assert clusters("ไก่", thai_marks) == ["ไ", "ก่"]
    assert clusters("กี่", thai_marks) == ["กี่"]
    assert clusters("ㅅㅏㄹㅏㅁ", VOWELS) == ["ㅅㅏ", "ㄹㅏ", "ㅁ"]
    assert clusters("ㄱㅗㅏㅈㅏ", VOWELS) == ["ㄱㅗㅏ", "ㅈㅏ"]
    assert clusters("ㅏㄴ", VOWELS) == ["ㅏ", "ㄴ"]  # an attached letter with none before it stands alone
    assert clusters("kaas", "") == ["k", "a", "a", "s"]
    for word in KO_WORDS:
        assert "".join(clusters(word, VOWELS)) == word


def test_cluster_counts_are_the_per_word_split() -> None:
    lexicon = korean()
    expected: dict[str, int] = {}
    for word in KO_WORDS:
        for face in clusters(word, VOWELS):
            expected[face] = expected.get(face, 0) + 1
    assert api.cluster_counts(lexicon, VOWELS) == expected
    assert api.cluster_counts(korean(["ㅏㅏㄴ"]), VOWELS) == {"ㅏㅏ": 1, "ㄴ": 1}  # a leading run stays one face


def test_korean_draws_a_vowel_only_with_its_consonant() -> None:
    """Every way a board is drawn (one roll, `random --count`, `compare`) takes the lexicon's clusters."""
    lexicon = korean()
    assert api.attached_letters(lexicon) == VOWELS
    faces, weights = api.letter_distribution(None, lexicon)
    assert "ㄱㅏ" in faces and "ㅁ" in faces and all(w > 0 for w in weights)
    assert not any(face[0] in VOWELS for face in faces)  # no vowel stands alone: 42.8% of cells started nothing
    for word in KO_WORDS:  # every word can be spelled by the drawn faces
        assert set(clusters(word, VOWELS)) <= set(faces)
    rolled = api.roll(lang="ko", letters="lexicon", lexicon=lexicon, seed=1)
    assert set(rolled.board.faces) <= set(faces) and len(rolled.board.faces) == 16
    assert "clusters" in describe(rolled)
    many = rolls_source(rolled, lexicon)
    assert set(many.faces) == set(faces)
    lines = notation_lines(many, draw_codes(many, np.random.default_rng(1), 3)).decode().split()
    assert all("[" in line for line in lines)  # a two-key face is written bracketed, so it reads back whole
    source = board_source(select(lang="ko", size=(4, 4)), lexicon, roll="letters")
    assert source.label == "distribution (clusters)" and set(source.faces) == set(faces)
    rules = Rules(min_length=3, scoring=get_scoring("classic-4x4"))
    scorer = prepare_scorer(lexicon, rules, (4, 4))
    codes = roll_codes(source, scorer.codec, (4, 4), 50, seed=3)
    drawn = {scorer.codec.faces[int(c)] for c in codes.ravel()}
    assert drawn <= set(faces)


def test_a_language_without_attach_draws_letters(enable2k: Lexicon) -> None:
    assert api.attached_letters(enable2k) == ""
    assert api.attached_letters(Lexicon.from_words(["abc"])) == ""  # no language in the manifest
    faces, _ = api.letter_distribution(None, enable2k)
    assert all(len(face) == 1 for face in faces)


@pytest.mark.parametrize("engine", solvers())
def test_engines_find_what_the_brute_force_finds_on_cluster_faces(engine: str) -> None:
    """A drawn face is spelled by its keys, so a path through `ㅅㅏ` `ㄹㅏ` `ㅁ` is 사람, on every engine."""
    lexicon = korean()
    faces, weights = api.letter_distribution(None, lexicon)
    words = set(KO_WORDS)
    rng = random.Random(f"faces {engine}")
    found_any = 0
    for shape in ((2, 2), (2, 3), (3, 3)):
        rules = Rules(min_length=3, scoring=get_scoring("classic-4x4"))
        scorer = prepare_scorer(lexicon, rules, shape, engine=engine)
        for _ in range(30):
            board = Board(*shape, tuple(rng.choices(faces, weights, k=shape[0] * shape[1])))
            expected = brute_force(board, words, 3, True)
            result = scorer.solve(board)
            assert {w.word for w in result.words} == expected, board.notation()
            scores, counts = scorer.score_boards([board])
            assert int(counts[0]) == len(expected)
            assert int(scores[0]) == sum(rules.scoring.points(len(w)) for w in expected)
            found_any += len(expected)
    assert found_any > 30  # the boards hold words: agreeing means something


def test_korean_faces_are_shown_as_syllables() -> None:
    assert KO.display_face("ㄱㅏ") == "가"
    assert KO.display_face("ㄱㅗㅏ") == "과"
    assert KO.display_face("ㄴ") == "ㄴ"
    board = Board(1, 3, ("ㅅㅏ", "ㄹㅏ", "ㅁ"))
    assert board.grid(KO.display_face).split() == ["사", "라", "ㅁ"]


def _record(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "xx.toml"
    path.write_text(
        'code = "xx"\nname = "X"\nvowels = "a"\nmin_length = 3\nscoring = "classic-4x4"\nalphabet = "abc"\n' + extra,
        encoding="utf-8",
    )
    return path


def test_attach_is_checked_where_the_record_is_read(tmp_path: Path) -> None:
    assert _load(_record(tmp_path, 'boards = "distribution"\nattach = "a"\n')).attach == "a"
    with pytest.raises(LanguageError, match="attach must list letters of its alphabet"):
        _load(_record(tmp_path, 'boards = "distribution"\nattach = "z"\n'))
    with pytest.raises(LanguageError, match="attach must list letters of its alphabet"):
        _load(_record(tmp_path, 'boards = "distribution"\nattach = "aa"\n'))
    with pytest.raises(LanguageError, match="needs boards = 'distribution'"):
        _load(_record(tmp_path, 'dice = ["en-new-4x4"]\nattach = "a"\n'))


@pytest.fixture(scope="module")
def thai(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    require_file(Path("/usr/share/hunspell/th_TH.dic"), "Debian's hunspell-th")
    from boggle_i18n.lexicon.build import build_lexicon

    root = tmp_path_factory.mktemp("thai-store")
    build_lexicon("th", store=root, download=False)
    return Lexicon.load("th", root)


def test_thai_keeps_one_face_per_letter_because_clusters_play_fewer_words(thai: Lexicon) -> None:
    """The measured decision (docs/languages.md): Thai marks drawn on their consonant find fewer words a board."""
    assert get_language("th").attach == "" and get_language("lo").attach == ""
    marks = "ัิีึืุู็่้๊๋์"
    counted = api.cluster_counts(thai, marks)
    assert sum(len(face) * n for face, n in counted.items()) == sum(len(w) for w in thai)  # every letter, once
    rules = Rules(min_length=3, scoring=get_scoring("classic-4x4"))
    scorer = prepare_scorer(thai, rules, (4, 4))

    def words_a_board(counts: dict[str, int]) -> float:
        faces = sorted(counts)
        p = np.asarray([counts[f] for f in faces], dtype=np.float64)
        codes = np.asarray([scorer.codec.index(f) for f in faces], dtype=np.int32)
        drawn = codes[np.random.default_rng(7).choice(len(faces), size=(300, 16), p=p / p.sum())]
        return float(scorer.score_codes(drawn)[1].mean())

    letters = api.face_counts(thai, sorted(set("".join(counted))))
    assert words_a_board(letters) > 1.2 * words_a_board(counted)


@pytest.fixture(scope="module")
def korean_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a `ko` lexicon built by the real recipe from a five-word Hunspell pair (stored as jamo keys)."""
    from boggle_i18n.lexicon.build import build_lexicon

    folder = tmp_path_factory.mktemp("ko-source")
    (folder / "ko.aff").write_text("SET UTF-8\n", encoding="utf-8")
    (folder / "ko.dic").write_text("5\n사람\n바다\n가다\n나라\n다리\n", encoding="utf-8")
    root = tmp_path_factory.mktemp("ko-store")
    build_lexicon("ko", source=folder / "ko.dic", store=root, download=False)
    return root


def test_the_web_page_rolls_and_shows_what_the_cli_rolls(korean_store: Path, tmp_path: Path) -> None:
    """GET /api/roll draws the same clusters as `random` (one distribution), and /api/solve shows them as syllables."""
    pytest.importorskip("starlette", reason="the [web] extra is not installed")
    from starlette.testclient import TestClient

    from boggle_i18n.board import parse_board
    from boggle_i18n.web import create_app

    lexicon = Lexicon.load("ko", korean_store)
    faces = set(api.cluster_counts(lexicon, VOWELS))
    assert faces == {"ㅅㅏ", "ㄹㅏ", "ㅁ", "ㅂㅏ", "ㄷㅏ", "ㄱㅏ", "ㄴㅏ", "ㄹㅣ"}
    rolled = api.roll(lang="ko", letters="lexicon", lexicon=lexicon, seed=5)
    with TestClient(create_app(korean_store, tmp_path), base_url="http://127.0.0.1") as client:
        r = client.get("/api/roll", params={"lang": "ko", "letters": "lexicon", "seed": "5"})
        assert r.status_code == 200, r.text
        board = r.json()["board"]
        assert parse_board(board).faces == rolled.board.faces and set(rolled.board.faces) <= faces
        r = client.get("/api/solve", params={"board": "사라/ㅁ바", "lang": "ko"})  # typed as syllables
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["shown_grid"] == [["사", "라"], ["ㅁ", "바"]]
        assert "ㅅㅏㄹㅏㅁ" in {w["word"] for w in data["words"]}
