"""The batch contract (`prepare_scorer` -> `score_codes`) of every engine: brute force, agreement, edge cases.

test_solver.py runs each engine's one-board `solve` against the brute force;
here the batch kernels get the same treatment, and the engines are compared
board for board on many random boards in every mode.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boggle_i18n import api
from boggle_i18n.board import Board, parse_board
from boggle_i18n.board.dice import get_dice
from boggle_i18n.errors import BoardError
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.scoring import get_scoring, presets
from boggle_i18n.solver import Rules, solvers
from boggle_i18n.solver.codec import DEAD, FaceCodec
from boggle_i18n.solver.compiled import cache_path, compile_lexicon, compile_words, from_file
from boggle_i18n.solver.scorer import prepare_scorer
from tests.test_solver import FACES, SMALL, SMALL_FACES, SMALL_WORDS, brute_force, random_board

ENGINES = solvers()
CLASSIC = get_scoring("classic-4x4")


def brute_score(board: Board, words: set[str], rules: Rules) -> tuple[int, int]:
    found = brute_force(board, words, rules.min_length, rules.diagonals)
    return sum(rules.scoring.points(len(w)) for w in found), len(found)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (2, 2), (2, 3), (3, 3), (3, 2), (4, 1)])
@pytest.mark.parametrize("diagonals", [True, False])
def test_score_codes_matches_brute_force(engine: str, shape: tuple[int, int], diagonals: bool) -> None:
    """Batch scores and word counts of random small boards (long faces, blanks) equal the brute force's."""
    rng = random.Random(f"{engine}{shape}{diagonals}")
    words = set(SMALL_WORDS)
    for min_length in (1, 2, 3, 4):
        rules = Rules(min_length=min_length, scoring=CLASSIC, diagonals=diagonals)
        scorer = prepare_scorer(SMALL, rules, shape, engine=engine)
        boards = [random_board(rng, *shape, SMALL_FACES) for _ in range(25)]
        scores, counts = scorer.score_boards(boards)
        for board, score, count in zip(boards, scores, counts, strict=True):
            assert (int(score), int(count)) == brute_score(board, words, rules), board.notation()


def test_brute_force_comparison_is_not_vacuous() -> None:
    """The random boards above hold words, so agreeing with the brute force means something."""
    rng = random.Random(0)
    rules = Rules(min_length=3, scoring=CLASSIC)
    totals = [brute_score(random_board(rng, 3, 3, SMALL_FACES), set(SMALL_WORDS), rules)[1] for _ in range(25)]
    assert sum(totals) > 25


@pytest.mark.parametrize("engine", ENGINES)
def test_published_scores_in_a_batch(engine: str, enable2k: Lexicon) -> None:
    """3625, 545 and 10406 through `score_codes`, each with a scrambled twin in the same batch."""
    for text, score in [("perslatgsineters", 3625), ("streaedlp", 545), ("ligdrmanesietildsracsepes", 10406)]:
        board = parse_board(text)
        scorer = prepare_scorer(enable2k, Rules(3, CLASSIC, True), board.size, engine=engine)
        twin = Board(board.rows, board.cols, tuple(reversed(board.faces)))  # a 180-degree turn
        scrambled = Board(board.rows, board.cols, tuple(sorted(board.faces)))
        scores, counts = scorer.score_boards([board, twin, scrambled, board])
        assert list(scores[:2]) == [score, score] and scores[3] == score
        assert scores[2] < score
        assert counts[0] == scorer.solve(board).n_words


# Random boards in every mode for the agreement test: (shape, faces, rules).
MODES = [
    ((4, 4), FACES, Rules(3, CLASSIC, True)),
    ((4, 4), FACES, Rules(3, CLASSIC, False)),
    ((5, 5), FACES, Rules(4, get_scoring("big-5x5"), True)),
    ((3, 6), FACES, Rules(2, get_scoring("letters"), True)),
    ((6, 6), FACES, Rules(4, get_scoring("superbig-6x6-per-letter"), True)),
    ((2, 7), [*"etaoinshrdlu", "qu", ""], Rules(3, get_scoring("word-count"), False)),
]


@pytest.mark.parametrize("mode", range(len(MODES)))
def test_engines_agree_board_for_board(mode: int, enable2k: Lexicon) -> None:
    """Every engine gives the same score and word count on each of many random ENABLE2K boards."""
    shape, faces, rules = MODES[mode]
    rng = random.Random(mode)
    boards = [random_board(rng, *shape, faces) for _ in range(60)]
    results = {}
    for engine in ENGINES:
        scores, counts = prepare_scorer(enable2k, rules, shape, engine=engine).score_boards(boards)
        results[engine] = (list(scores), list(counts))
    first = results[ENGINES[0]]
    assert sum(first[1]) > 0
    for engine, got in results.items():
        assert got == first, engine


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 5),
    cols=st.integers(1, 5),
    min_length=st.integers(1, 5),
    diagonals=st.booleans(),
    scoring=st.sampled_from(sorted(presets())),
)
def test_engines_agree_property(
    seed: int, rows: int, cols: int, min_length: int, diagonals: bool, scoring: str
) -> None:
    """Hypothesis: engines agree on boards of any shape, rules and scoring (small lexicon, with words)."""
    rng = random.Random(seed)
    rules = Rules(min_length, get_scoring(scoring), diagonals)
    boards = [random_board(rng, rows, cols, SMALL_FACES) for _ in range(8)]
    got = {
        engine: [list(a) for a in prepare_scorer(SMALL, rules, (rows, cols), engine=engine).score_boards(boards)]
        for engine in ENGINES
    }
    assert all(v == got[ENGINES[0]] for v in got.values())


@pytest.mark.parametrize("engine", ENGINES)
def test_dutch_dice_boards_plain_q(engine: str, dutch: Lexicon) -> None:
    """Boards rolled from the Dutch dice, scored by each engine, equal the reference solve's scores."""
    q_board = api.parse_board("quiz/aatl/snee/rtop", lang="nl")  # Dutch q is a plain q
    assert q_board.faces[0] == "q"
    rules = api.rules_for(q_board, lang="nl")
    rng = random.Random(7)
    boards = [q_board, *(get_dice("nl-4x4").roll(rng) for _ in range(40))]
    scores, _ = prepare_scorer(dutch, rules, (4, 4), engine=engine).score_boards(boards)
    expected = [api.solve(b, dutch, rules).score for b in boards]
    assert list(scores) == expected and min(expected[1:]) < max(expected[1:])


# --------------------------------------------------------------------------- fast engine internals


def test_compiled_trie_holds_exactly_the_words() -> None:
    words = ["a", "ab", "abc", "b", "ba", "zz", "été", "ét"]
    compiled = compile_words(words)
    assert compiled.word_count == len(words) and compiled.max_length == 3
    assert all(compiled.contains(w) for w in words)
    assert not any(compiled.contains(w) for w in ["", "é", "abcd", "z", "bb", "x"])
    # Popcount layout: root's children are the first letters, in letter order, right after it.
    assert [compiled.letters[i] for i in range(len(compiled.letters)) if int(compiled.masks[0]) >> i & 1] == [
        "a",
        "b",
        "z",
        "é",
    ]


def test_compiled_trie_of_enable2k(enable2k: Lexicon) -> None:
    compiled = compile_lexicon(enable2k)
    assert compiled.word_count == len(enable2k)
    sample = random.Random(1).sample(enable2k.keys(), 3000)
    assert all(compiled.contains(w) for w in sample)
    assert not compiled.contains("perslatgsineters")
    assert compiled.nbytes == 16 * compiled.nodes  # one 16-byte record a node


def test_compiled_cache_is_reused_and_checked(built_store: Path, tmp_path: Path) -> None:
    """Cached beside the trie, keyed by its sha256; a damaged or foreign cache is rebuilt, not trusted."""
    store = tmp_path / "store"
    store.mkdir()
    for suffix in (".marisa", ".json"):
        (store / f"en-enable2k{suffix}").write_bytes((built_store / f"en-enable2k{suffix}").read_bytes())
    lexicon = Lexicon.load("en-enable2k", store)
    path = cache_path(lexicon)
    assert path is not None and path.parent == store / "compiled"
    compile_lexicon(lexicon)
    assert path.is_file()
    key = lexicon.manifest["trie_sha256"]
    assert from_file(path, key) is not None
    assert from_file(path, "another trie") is None
    data = path.read_bytes()
    path.write_bytes(data[:100])
    assert from_file(path, key) is None
    path.write_bytes(b"XXXXXXXX" + data[8:])
    assert from_file(path, key) is None


def test_codec_round_trip_and_dead_letters() -> None:
    codec = FaceCodec("abcqu")
    board = parse_board("[qu]a/b[]")
    codes = codec.encode(board)
    assert codes.dtype == np.int32 and codes[3] == 0  # blank is 0
    assert codec.decode(codes, 2, 2) == board
    assert codec.spell("qu") == (3, 4) and codec.spell("xa") == (DEAD, 0)
    _letters, lengths = codec.face_arrays()
    assert list(lengths[: len(codec.faces)]) == [len(f) for f in codec.faces]
    with pytest.raises(BoardError):
        codec.decode([99], 1, 1)
    with pytest.raises(BoardError):
        FaceCodec([chr(0x400 + i) for i in range(65)])


def test_letters_outside_the_alphabet_find_nothing() -> None:
    lexicon = Lexicon.from_words(["cat", "act"])
    scorer = prepare_scorer(lexicon, Rules(3, CLASSIC, True), (2, 2), engine="fast")
    scores, _ = scorer.score_boards([parse_board("ca/tx"), parse_board("cx/xx"), parse_board("çá/tt")])
    assert list(scores) == [2, 0, 0]


def test_bad_codes_are_refused() -> None:
    scorer = prepare_scorer(SMALL, Rules(), (2, 2), engine="fast")
    with pytest.raises(BoardError):
        scorer.score_codes(np.array([[0, 1, 2, 999]], dtype=np.int32))
    with pytest.raises(BoardError):
        scorer.solve(parse_board("abc/def/ghi"))


def test_serials_wrap_without_losing_words() -> None:
    """Stamps are wiped when board serials would overflow; scores stay right across the wrap."""
    scorer = prepare_scorer(SMALL, Rules(3, CLASSIC, True), (2, 2), engine="fast")
    board = parse_board("ca/ts")
    before, _ = scorer.score_boards([board])
    scorer._serial = 2**31 - 3  # type: ignore[attr-defined]
    after, _ = scorer.score_boards([board, board, board])
    assert list(after) == [before[0]] * 3


def test_boards_over_64_cells_use_the_reference_engine() -> None:
    scorer = prepare_scorer(SMALL, Rules(), (5, 13), engine="fast")
    assert scorer.engine == "reference" and "64" in (getattr(scorer, "note", "") or "")
    board = Board(5, 13, tuple("cats" + "x" * 61))
    assert scorer.solve(board).score == prepare_scorer(SMALL, Rules(), (5, 13), engine="reference").solve(board).score
    fits = prepare_scorer(SMALL, Rules(), (8, 8), engine="fast")
    assert fits.engine == "fast"
