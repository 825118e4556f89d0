"""Every engine against an independent brute force, published scores and path properties.

The module is parametrised over every registered engine (`solvers()`): each test
runs once per engine, through the module-level `SOLVER` the autouse fixture sets.
"""

from __future__ import annotations

import random
import sys
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boggle_i18n import api
from boggle_i18n.board import Board, parse_board
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.scoring import Scoring, get_scoring
from boggle_i18n.solver import ReferenceSolver, Rules, SolveResult, get_solver, solvers
from boggle_i18n.solver.base import Solver

SOLVER: Solver = ReferenceSolver()


@pytest.fixture(autouse=True, params=solvers())
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run every test of this module with each engine."""
    monkeypatch.setattr(sys.modules[__name__], "SOLVER", get_solver(request.param))
    return str(request.param)


CLASSIC = get_scoring("classic-4x4")

# Faces for random boards: common letters weighted up, two-letter faces and blanks now and then.
FACES = [*"aaeeeiioorrsssttnnlldcpmbghuyk", "qu", "th", "in", "er", ""]

# A hand-made lexicon with short words, two-letter-face words and words needing repeated letters.
SMALL_WORDS = [
    "a",
    "at",
    "as",
    "it",
    "is",
    "in",
    "an",
    "qu",
    "th",
    "cat",
    "cats",
    "act",
    "acts",
    "scat",
    "cast",
    "casts",
    "sat",
    "tas",
    "tact",
    "eat",
    "tea",
    "ate",
    "tee",
    "teen",
    "tree",
    "rat",
    "tar",
    "star",
    "rats",
    "arts",
    "art",
    "tsar",
    "quit",
    "quits",
    "quite",
    "suit",
    "quest",
    "the",
    "then",
    "thin",
    "this",
    "tin",
    "inert",
    "era",
    "ere",
    "here",
    "her",
    "hers",
    "rest",
    "sister",
    "stets",
    "tinier",
    "ain",
    "nae",
]
SMALL = Lexicon.from_words(SMALL_WORDS, name="small")
# Faces for random boards read with SMALL: its letters weighted up, so boards hold words.
SMALL_FACES = [*"aaacceeettttsssrrihnu", "qu", "th", "in", "er", ""]


# --------------------------------------------------------------------------- the brute force


def adjacent(a: tuple[int, int], b: tuple[int, int], diagonals: bool) -> bool:
    """Are two (row, col) cells neighbours? Written here, independent of boggle_i18n.board.neighbours."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    if diagonals:
        return max(dr, dc) == 1
    return dr + dc == 1


def brute_force(
    board: Board, words: set[str], min_length: int, diagonals: bool, max_cells: int | None = None
) -> set[str]:
    """Every word spelled by a simple path of usable cells: all paths, no prefix pruning.

    With `max_cells`, paths stop at that many cells; every word of up to `max_cells`
    letters is still found, because each usable face has at least one letter.
    """
    cells = [(r, c) for r in range(board.rows) for c in range(board.cols)]
    face = {(r, c): board.faces[r * board.cols + c] for r, c in cells}
    limit = max_cells or len(cells)
    found: set[str] = set()

    def extend(path: list[tuple[int, int]], text: str) -> None:
        if len(text) >= min_length and text in words:
            found.add(text)
        if len(path) == limit:
            return
        for cell in cells:
            if face[cell] and cell not in path and adjacent(path[-1], cell, diagonals):
                path.append(cell)
                extend(path, text + face[cell])
                path.pop()

    for cell in cells:
        if face[cell]:
            extend([cell], face[cell])
    return found


def random_board(rng: random.Random, rows: int, cols: int, faces: list[str] = FACES) -> Board:
    return Board(rows, cols, tuple(rng.choice(faces) for _ in range(rows * cols)))


def solve(
    board: Board, lexicon: Lexicon, min_length: int = 3, diagonals: bool = True, scoring: Scoring = CLASSIC
) -> SolveResult:
    return SOLVER.solve(board, lexicon, Rules(min_length=min_length, scoring=scoring, diagonals=diagonals))


def word_set(result: SolveResult) -> set[str]:
    return {w.word for w in result.words}


def check_paths(result: SolveResult, diagonals: bool) -> None:
    """Each path is a chain of neighbours, visits a cell once, avoids blanks and spells its word."""
    board = result.board
    for found in result.words:
        path = found.path
        assert path, found
        assert len(set(path)) == len(path), f"{found.word}: a cell is used twice in {path}"
        for r, c in path:
            assert 0 <= r < board.rows and 0 <= c < board.cols
            assert board.faces[r * board.cols + c] != "", f"{found.word}: path uses a blank cell"
        for a, b in pairwise(path):
            assert adjacent(a, b, diagonals), f"{found.word}: {a} and {b} are not neighbours"
        assert "".join(board.faces[r * board.cols + c] for r, c in path) == found.word


def check_against_brute_force(
    board: Board,
    lexicon: Lexicon,
    words: set[str],
    min_length: int,
    diagonals: bool,
    max_cells: int | None = None,
    scoring: Scoring = CLASSIC,
) -> None:
    result = solve(board, lexicon, min_length, diagonals, scoring)
    got = [w.word for w in result.words]
    assert len(got) == len(set(got)), "a word is reported twice"
    expected = brute_force(board, words, min_length, diagonals, max_cells)
    if max_cells is not None:
        got_set = {w for w in got if len(w) <= max_cells}
        expected = {w for w in expected if len(w) <= max_cells}
    else:
        got_set = set(got)
    where = f"board {board.notation()} diagonals={diagonals} min={min_length}"
    assert got_set == expected, f"{where}: missing {sorted(expected - got_set)}, extra {sorted(got_set - expected)}"
    if max_cells is None:
        assert result.score == sum(scoring.points(len(w)) for w in expected), where
    for found in result.words:
        assert found.points == scoring.points(len(found.word))
        assert found.word in words and len(found.word) >= min_length
    check_paths(result, diagonals)


@pytest.fixture(scope="session")
def enable2k_words(enable2k: Lexicon) -> set[str]:
    """ENABLE2K as a plain Python set, for the brute force."""
    words = set(enable2k)
    assert len(words) > 170_000
    return words


def test_brute_force_finds_what_it_should() -> None:
    """The brute force is the yardstick, so check it on a board worked out by hand."""
    board = parse_board("ca/ts")
    words = {"cat", "act", "cast", "casts", "dog", "at"}
    assert brute_force(board, words, 3, True) == {"cat", "act", "cast"}
    assert brute_force(board, words, 3, False) == {"act", "cast"}
    assert brute_force(board, words, 2, True) == {"cat", "act", "cast", "at"}


# --------------------------------------------------------------------------- hand-made lexicon, known answers


def test_known_answers_with_diagonals() -> None:
    """c a / t s: with diagonals every cell touches every other, so every anagram of distinct cells counts."""
    board = parse_board("ca/ts")
    result = solve(board, SMALL)
    assert word_set(result) == {"cat", "cats", "act", "acts", "scat", "cast", "sat", "tas"}
    assert result.score == 8  # eight words of 3-4 letters, 1 point each
    check_paths(result, True)


def test_known_answers_without_diagonals() -> None:
    """Without diagonals c-s and a-t are not neighbours: only act, acts, cast remain."""
    result = solve(parse_board("ca/ts"), SMALL, diagonals=False)
    assert word_set(result) == {"act", "acts", "cast"}
    check_paths(result, False)


def test_min_length_counts_letters() -> None:
    result = solve(parse_board("ca/ts"), SMALL, min_length=2)
    assert {"at", "as"} <= word_set(result)
    assert "a" not in word_set(result)
    assert "a" in word_set(solve(parse_board("ca/ts"), SMALL, min_length=1))
    result = solve(parse_board("ca/ts"), SMALL, min_length=4)
    assert word_set(result) == {"cats", "acts", "scat", "cast"}


def test_a_letter_is_not_reused() -> None:
    """`casts` and `tact` need two s or two t cells; this board has one of each."""
    assert not {"casts", "tact"} & word_set(solve(parse_board("ca/ts"), SMALL))
    assert "tact" in word_set(solve(parse_board("ta/ct"), SMALL))


def test_blank_cells_block() -> None:
    """A blank cell is no letter and no bridge: c a . t in one row spells nothing past the blank."""
    board = parse_board("ca.t/")
    assert board.size == (1, 4)
    assert word_set(solve(board, SMALL, min_length=2)) == set()
    assert "cat" in word_set(solve(parse_board("cat/"), SMALL))
    assert word_set(solve(parse_board("..../...."), SMALL, min_length=1)) == set()


def test_empty_lexicon_finds_nothing() -> None:
    result = solve(parse_board("abcd"), Lexicon.from_words([]))
    assert result.words == () and result.score == 0


def test_one_by_one_board() -> None:
    assert word_set(solve(parse_board("a"), SMALL, min_length=1)) == {"a"}
    assert word_set(solve(parse_board("[qu]"), SMALL, min_length=1)) == {"qu"}
    assert word_set(solve(parse_board("[qu]"), SMALL, min_length=3)) == set()


def test_min_length_must_be_positive() -> None:
    with pytest.raises(BoggleI18nError):
        Rules(min_length=0)


def test_reference_engine_is_registered() -> None:
    assert isinstance(get_solver("reference"), ReferenceSolver)
    with pytest.raises(BoggleI18nError, match="unknown engine"):
        get_solver("nope")


def test_score_many_matches_solve() -> None:
    boards = [parse_board("ca/ts"), parse_board("ta/ct"), parse_board("[qu]i/ts")]
    rules = Rules()
    assert SOLVER.score_many(boards, SMALL, rules) == [SOLVER.solve(b, SMALL, rules).score for b in boards]
    assert SOLVER.score_many(boards, SMALL, rules)[0] == 8


# --------------------------------------------------------------------------- brute force on random boards

SHAPES = [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3)]


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("diagonals", [True, False], ids=["diag", "nodiag"])
def test_matches_brute_force_enable2k(
    rows: int, cols: int, diagonals: bool, enable2k: Lexicon, enable2k_words: set[str]
) -> None:
    """On many random small boards the solver finds exactly the words every path spells, and their score."""
    rng = random.Random(rows * 10 + cols + (100 if diagonals else 0))
    for _ in range(12):
        board = random_board(rng, rows, cols)
        min_length = rng.choice([3, 3, 4, 5])
        check_against_brute_force(board, enable2k, enable2k_words, min_length, diagonals)


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 3)])
@pytest.mark.parametrize("diagonals", [True, False], ids=["diag", "nodiag"])
def test_matches_brute_force_enable2k_capped(
    rows: int, cols: int, diagonals: bool, enable2k: Lexicon, enable2k_words: set[str]
) -> None:
    """3x4 boards, paths capped at 7 cells: compare every word of up to 7 letters."""
    rng = random.Random(rows * 31 + cols + (7 if diagonals else 0))
    for _ in range(4):
        board = random_board(rng, rows, cols)
        check_against_brute_force(board, enable2k, enable2k_words, 3, diagonals, max_cells=7)


@pytest.mark.parametrize("rows,cols", [*SHAPES, (2, 4)])
@pytest.mark.parametrize("diagonals", [True, False], ids=["diag", "nodiag"])
def test_matches_brute_force_small_lexicon(rows: int, cols: int, diagonals: bool) -> None:
    """A small lexicon with 1- and 2-letter words, qu/th/in words and min lengths 1 to 4."""
    rng = random.Random(rows * 17 + cols + (3 if diagonals else 0))
    for _ in range(25):
        board = random_board(rng, rows, cols, SMALL_FACES)
        min_length = rng.choice([1, 2, 3, 4])
        check_against_brute_force(board, SMALL, set(SMALL_WORDS), min_length, diagonals)


def test_small_lexicon_brute_force_is_not_vacuous() -> None:
    """The random small-lexicon boards must actually contain words, or the comparison proves little."""
    rng = random.Random(5)
    hits = [len(brute_force(random_board(rng, 3, 3, SMALL_FACES), set(SMALL_WORDS), 3, True)) for _ in range(25)]
    assert sum(hits) > 40 and sum(1 for h in hits if h) > 12


def transpose(board: Board) -> Board:
    return Board(
        board.cols,
        board.rows,
        tuple(board.faces[r * board.cols + c] for c in range(board.cols) for r in range(board.rows)),
    )


def mirror(board: Board) -> Board:
    """Each row reversed (left-right mirror)."""
    return Board(
        board.rows,
        board.cols,
        tuple(board.faces[r * board.cols + c] for r in range(board.rows) for c in reversed(range(board.cols))),
    )


def flip(board: Board) -> Board:
    """Rows in reverse order (top-bottom mirror)."""
    return Board(
        board.rows,
        board.cols,
        tuple(board.faces[r * board.cols + c] for r in reversed(range(board.rows)) for c in range(board.cols)),
    )


@pytest.mark.parametrize("diagonals", [True, False], ids=["diag", "nodiag"])
def test_symmetric_boards_have_the_same_words(diagonals: bool, enable2k: Lexicon) -> None:
    """Transposing or mirroring a board keeps adjacency, so the words and score stay the same."""
    rng = random.Random(77 if diagonals else 78)
    for rows, cols in [(4, 4), (3, 5), (5, 5), (2, 6)]:
        board = random_board(rng, rows, cols)
        result = solve(board, enable2k, diagonals=diagonals)
        for other in (transpose(board), mirror(board), flip(board)):
            assert word_set(solve(other, enable2k, diagonals=diagonals)) == word_set(result), board.notation()


# --------------------------------------------------------------------------- hypothesis: path properties


@st.composite
def boards(draw: st.DrawFn, max_side: int = 4) -> Board:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    faces = draw(st.lists(st.sampled_from(FACES), min_size=rows * cols, max_size=rows * cols))
    return Board(rows, cols, tuple(faces))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=boards(), min_length=st.integers(1, 5))
def test_paths_are_valid_enable2k(board: Board, min_length: int, enable2k: Lexicon) -> None:
    """Every path is adjacent, blank-free and non-repeating, each word once; no-diagonal words are a subset."""
    with_diag = solve(board, enable2k, min_length, True)
    without = solve(board, enable2k, min_length, False)
    for result, diagonals in ((with_diag, True), (without, False)):
        check_paths(result, diagonals)
        words = [w.word for w in result.words]
        assert len(words) == len(set(words))
        for found in result.words:
            assert found.word in enable2k and len(found.word) >= min_length
            assert found.points == CLASSIC.points(len(found.word))
            assert found.length == len(found.word)
        assert result.score == sum(w.points for w in result.words)
    assert word_set(without) <= word_set(with_diag)


@settings(max_examples=80, deadline=None)
@given(board=boards(max_side=3), min_length=st.integers(1, 4), diagonals=st.booleans())
def test_matches_brute_force_hypothesis(board: Board, min_length: int, diagonals: bool) -> None:
    """Hypothesis-chosen boards up to 3x3 against the brute force, small lexicon."""
    check_against_brute_force(board, SMALL, set(SMALL_WORDS), min_length, diagonals)


# --------------------------------------------------------------------------- published ENABLE2K scores


@pytest.mark.parametrize(
    "text,size,score",
    [
        ("perslatgsineters", (4, 4), 3625),
        ("streaedlp", (3, 3), 545),
        ("ligdrmanesietildsracsepes", (5, 5), 10406),
    ],
)
def test_published_enable2k_scores(text: str, size: tuple[int, int], score: int, enable2k: Lexicon) -> None:
    """hybrid-boggle's best boards (ENABLE2K, min 3 letters, classic 4x4 scoring), and their mirror images."""
    board = parse_board(text)
    assert board.size == size
    result = solve(board, enable2k)
    assert result.score == score
    check_paths(result, True)
    for other in (transpose(board), mirror(board), flip(board)):
        assert other != board
        assert solve(other, enable2k).score == score, other.notation()


def test_published_score_through_the_api(enable2k: Lexicon) -> None:
    """api.solve with English defaults for 4x4 (classic scoring, min 3) gives the same record."""
    board = api.parse_board("perslatgsineters", lang="en")
    result = api.solve(board, enable2k, lang="en", engine=SOLVER.name)
    assert result.score == 3625
    assert result.lexicon_info["word_count"] == len(enable2k)


def test_streaedlp_matches_brute_force(enable2k: Lexicon, enable2k_words: set[str]) -> None:
    """The 3x3 record board, checked path by path against the brute force too."""
    check_against_brute_force(parse_board("streaedlp"), enable2k, enable2k_words, 3, True)
    assert sum(CLASSIC.points(len(w)) for w in brute_force(parse_board("streaedlp"), enable2k_words, 3, True)) == 545


# --------------------------------------------------------------------------- multi-letter faces count letters


def test_qu_face_counts_two_letters(enable2k: Lexicon) -> None:
    """`quit` on three cells ([qu] i t) is a 4-letter word and scores as one."""
    board = parse_board("[qu]i/ts")
    letters = get_scoring("letters")
    result = solve(board, enable2k, scoring=letters)
    found = {w.word: w for w in result.words}
    assert "quit" in found and "quits" in found
    assert len(found["quit"].path) == 3
    assert found["quit"].length == 4
    assert found["quit"].points == 4
    assert found["quits"].points == 5
    classic = {w.word: w.points for w in solve(board, enable2k).words}
    assert classic["quits"] == 2  # 5 letters, though only 4 cells


def test_qu_face_and_min_length() -> None:
    """min_length counts letters: `quit` (3 cells, 4 letters) passes min_length 4."""
    table = get_scoring("3:1,4:10,5:100")
    result = solve(parse_board("[qu]i/ts"), SMALL, min_length=4, scoring=table)
    points = {w.word: w.points for w in result.words}
    assert points["quit"] == 10
    assert points["quits"] == 100
    assert "its" not in points


def test_two_letter_faces_in_words() -> None:
    """[th] [in] [er] faces spell their letters in order: th+in = thin, in+er+t = inert."""
    board = Board(2, 2, ("th", "in", "er", "t"))
    assert word_set(solve(board, SMALL)) == {"thin", "inert", "tin"}
    # without diagonals in and er are not neighbours: no inert
    assert word_set(solve(board, SMALL, diagonals=False)) == {"thin", "tin"}


# --------------------------------------------------------------------------- Dutch


def test_dutch_board_finds_known_words(dutch: Lexicon) -> None:
    """The API's own example board: kaas, trap, oven and blij are Dutch words and lie in its rows."""
    for word in ("kaas", "trap", "oven", "blij"):
        assert word in dutch
    board = api.parse_board("trap/kaas/oven/blij", lang="nl")
    result = api.solve(board, dutch, lang="nl", engine=SOLVER.name)
    words = word_set(result)
    assert {"kaas", "trap", "oven", "blij"} <= words
    check_paths(result, True)
    assert all(len(w) >= 3 for w in words)


def test_dutch_plain_q_is_not_qu(dutch: Lexicon) -> None:
    """Dutch dice have a plain Q: on q a / t . the Dutch word qat is found, and qu- words need a u cell."""
    assert "qat" in dutch and "quiz" in dutch
    board = api.parse_board("qa/t.", lang="nl")
    assert board.faces[0] == "q"
    words = word_set(api.solve(board, dutch, lang="nl", engine=SOLVER.name))
    assert "qat" in words
    # read the same letters as English dice would (q = qu): no qat any more
    as_qu = api.parse_board("qa/t.", lang="nl", bare_q="qu")
    assert as_qu.faces[0] == "qu"
    assert "qat" not in word_set(api.solve(as_qu, dutch, lang="nl", engine=SOLVER.name))
    # quiz needs its own u cell on Dutch dice
    assert "quiz" not in word_set(api.solve(api.parse_board("qi/z.", lang="nl"), dutch, lang="nl", engine=SOLVER.name))
    found = {
        w.word: w for w in api.solve(api.parse_board("qu/iz", lang="nl"), dutch, lang="nl", engine=SOLVER.name).words
    }
    assert len(found["quiz"].path) == 4


class _PlainLexicon:
    """A lexicon with only `in` and `has_prefix` (no `probes`): the reference solver's other path."""

    def __init__(self, words: list[str]) -> None:
        self.words = set(words)
        self.prefixes = {word[:end] for word in words for end in range(1, len(word) + 1)}
        self.name = "plain"
        self.manifest: dict[str, object] = {}

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def has_prefix(self, prefix: str) -> bool:
        return prefix in self.prefixes


def test_a_lexicon_without_probes_finds_the_same_words(enable2k: Lexicon) -> None:
    board = parse_board("pers/latg/sine/ters", {})
    rules = Rules(min_length=3, scoring=get_scoring("classic-4x4"))
    marisa = ReferenceSolver().solve(board, enable2k, rules)
    plain = ReferenceSolver().solve(board, _PlainLexicon(enable2k.words_with_prefix("")), rules)
    assert marisa.score == plain.score == 3625 and marisa.words == plain.words
