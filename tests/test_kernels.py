"""The fast engine's two kernels: the C one is built and chosen, it refuses bad buffers, and numba stands in for it.

The walk itself is checked board for board in test_solver.py and
test_engines.py, which run every engine (`fast` on the C kernel, `numba`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.scoring import get_scoring
from boggle_i18n.solver import Rules, fast
from boggle_i18n.solver.compiled import compile_lexicon, from_file, links_inside, to_bytes
from boggle_i18n.solver.scorer import prepare_scorer
from tests.test_solver import SMALL

CLASSIC = get_scoring("classic-4x4")
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def test_the_c_kernel_is_built_and_fast_runs_it() -> None:
    """An install with a C compiler (CI's, this machine's) builds the kernel; `fast` then needs no numba."""
    if not fast.c_kernel_built():
        assert not CI, "CI installs with gcc: the C kernel must have been built"
        pytest.skip("the C kernel was not built here (no C compiler at install time)")
    scorer = prepare_scorer(SMALL, Rules(3, CLASSIC, True), (4, 4), engine="fast")
    assert getattr(scorer, "kernel", None) == "c" and getattr(scorer, "note", None) is None


def test_numba_engine_runs_the_numba_kernel() -> None:
    scorer = prepare_scorer(SMALL, Rules(3, CLASSIC, True), (4, 4), engine="numba")
    assert scorer.engine == "numba" and getattr(scorer, "kernel", None) == "numba"


def test_fast_falls_back_to_numba_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "c_kernel_built", lambda: False)
    scorer = prepare_scorer(SMALL, Rules(3, CLASSIC, True), (2, 2), engine="fast")
    assert getattr(scorer, "kernel", None) == "numba"
    assert "not built" in (getattr(scorer, "note", "") or "")
    scores, _ = scorer.score_boards([__import__("boggle_i18n").board.parse_board("ca/ts")])
    assert int(scores[0]) > 0


def test_a_missing_kernel_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "boggle_i18n.solver._kernel", None)  # import now raises ImportError
    assert not fast.c_kernel_built()
    with pytest.raises(BoggleI18nError, match=r"not built.*boggle-i18n\[numba\]"):
        fast.load_kernel("c")
    monkeypatch.setitem(sys.modules, "boggle_i18n.solver.kernels", None)
    with pytest.raises(BoggleI18nError, match=r"no kernel: the C kernel was not built .* and numba is not installed"):
        prepare_scorer(SMALL, Rules(3, CLASSIC, True), (2, 2), engine="fast")


@pytest.fixture
def tables() -> dict[str, object]:
    """A real scorer's tables for one 2x2 board, to break one at a time."""
    if not fast.c_kernel_built():
        pytest.skip("the C kernel was not built here")
    scorer = prepare_scorer(SMALL, Rules(3, CLASSIC, True), (2, 2), engine="fast")
    codes = np.array([[scorer.codec.index(f) for f in "cats"]], dtype=np.int32)  # grows the codec: first
    letters, lengths, nbr, nbr_n, records = scorer._board_tables()  # type: ignore[attr-defined]
    return {
        "codes": codes,
        "letters": letters,
        "lengths": lengths,
        "nbr": nbr,
        "nbr_n": nbr_n,
        "records": records,
        "stamp": np.zeros(len(records), np.int32),
        "serial": 1,
        "points": scorer._points,  # type: ignore[attr-defined]
        "min_len": 3,
        "scores": np.zeros(1, np.int64),
        "words": np.zeros(1, np.int32),
    }


def call(t: dict[str, object]) -> None:
    fast.load_kernel("c").score_batch(*t.values())


def test_c_kernel_scores_the_good_tables(tables: dict[str, object]) -> None:
    call(tables)
    scores = tables["scores"]
    assert isinstance(scores, np.ndarray) and scores[0] > 0


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("codes", np.array([[0, 1, 2, 99]], np.int32)),
        ("codes", np.array([[0, 1, 2, -1]], np.int32)),
        ("codes", np.array([0, 1, 2], np.int32)),
        ("nbr", np.full((4, 8), 7, np.int64)),
        ("nbr_n", np.full(4, 9, np.int64)),
        ("nbr_n", np.zeros(65, np.int64)),
        ("letters", np.full((40, 1), 64, np.uint8)),
        ("lengths", np.full(40, 9, np.uint8)),
        ("stamp", np.zeros(3, np.int32)),
        ("scores", np.zeros(2, np.int64)),
        ("words", np.zeros(0, np.int32)),
        ("serial", 0),
        ("serial", 2**31 - 1),
    ],
)
def test_c_kernel_refuses_tables_that_would_read_out_of_bounds(
    tables: dict[str, object], name: str, bad: object
) -> None:
    """Every shape and index is checked before the walk: a ValueError, never a crash."""
    if name in ("letters", "lengths"):
        n_faces = len(tables["lengths"])  # type: ignore[arg-type]
        bad = np.resize(bad, (n_faces, 1) if name == "letters" else n_faces)
    tables[name] = bad
    with pytest.raises(ValueError):
        call(tables)


def test_c_kernel_refuses_read_only_outputs(tables: dict[str, object]) -> None:
    scores = np.zeros(1, np.int64)
    scores.setflags(write=False)
    tables["scores"] = scores
    with pytest.raises((TypeError, BufferError, ValueError)):
        call(tables)


def test_a_cache_file_with_links_outside_the_trie_is_not_trusted(tmp_path: Path) -> None:
    """The kernels walk without bounds checks: a cache file whose child links leave the trie is compiled again."""
    compiled = compile_lexicon(SMALL)
    assert links_inside(compiled.records) and links_inside(compiled.records, chunk=3)
    bad = compiled.records.copy()
    bad[-1] = (1, len(bad))  # the last node gets a child past the end
    assert not links_inside(bad) and not links_inside(bad, chunk=3)
    assert not links_inside(np.zeros((0, 2), np.uint64))
    path = tmp_path / "trie.bgc"
    path.write_bytes(to_bytes(compiled, "key"))
    assert from_file(path, "key") is not None
    path.write_bytes(to_bytes(replace(compiled, records=bad), "key"))
    assert from_file(path, "key") is None


def test_board_lines_parse_and_format_in_c() -> None:
    """parse_lines reads every notation it is sure of, hands the rest to Python; format_lines writes the rows."""
    if not fast.c_kernel_built():
        pytest.skip("the C kernel was not built here")
    kernel = fast.load_kernel("c")
    table = np.full(256, -1, np.int32)
    table[ord("a") : ord("z") + 1] = np.arange(1, 27)
    table[ord("A") : ord("Z") + 1] = np.arange(1, 27)
    brackets = bytes([2]) + b"qu" + np.int32(27).tobytes()
    data = b"abcd\n a/b\tc d/ \n# x\n\n[QU]./ab\n[]a/bc\nab[cd\nabc\n\xef\xbb\xbfab/cd\na\xc3\xa9\nab/c\n"
    codes = np.empty(len(data), np.int32)
    meta = np.empty((data.count(b"\n"), 6), np.int64)
    lines, used = kernel.parse_lines(data, table, b"", brackets, (0, 0), (0, 0), codes, meta)
    assert lines == 11
    status = meta[:, 0].tolist()
    assert status == [0, 0, 1, 1, 0, 0, 2, 2, 0, 2, 2]
    assert [tuple(r) for r in meta[[0, 1, 4, 5, 8], 3:5].tolist()] == [(2, 2), (4, 1), (2, 2), (2, 2), (2, 2)]
    assert codes[:used].tolist() == [1, 2, 3, 4, 1, 2, 3, 4, 27, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4]
    assert data[meta[1, 1] : meta[1, 2]] == b"a/b\tc d/"
    assert data[meta[8, 1] : meta[8, 2]] == b"ab/cd"  # a BOM starting a line is not part of it
    # --size 2x2 refuses a 1x2 board; a plain line takes the fixed shape first
    lines, used = kernel.parse_lines(b"ab\nabcdefgh\n", table, b"", b"", (2, 4), (0, 0), codes, meta)
    assert meta[:2, 0].tolist() == [2, 0] and meta[1, 3:5].tolist() == [2, 4]
    lines, used = kernel.parse_lines(b"[qu]b\n", table, b"", brackets, (0, 0), (2, 2), codes, meta)
    assert meta[0, 0] == 2
    with pytest.raises(ValueError):
        kernel.parse_lines(b"abcd", table, b"", b"", (0, 0), (0, 0), codes, meta)  # not whole lines
    with pytest.raises(ValueError):
        kernel.parse_lines(b"abcd\n", table[:10], b"", b"", (0, 0), (0, 0), codes, meta)
    data = b"ab/cd\n\n a\tb \n"
    lines, used = kernel.parse_lines(data, table, b"", b"", (0, 0), (0, 0), codes, meta)
    scores = np.array([-3, 2**40], np.int64)
    words = np.array([7, 2**31 - 1], np.int32)
    text, total = kernel.format_lines(data, meta, lines, scores, words)
    assert text == f"ab/cd\t-3\t7\na b\t{2**40}\t{2**31 - 1}\n"
    assert total == 2**40 - 3
    with pytest.raises(ValueError):
        kernel.format_lines(data, meta, lines, scores[:1], words)
