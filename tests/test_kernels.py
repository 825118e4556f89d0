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


def test_plain_lines_parse_and_format_in_c() -> None:
    """plain_codes accepts only whole plain lines of one length; format_rows writes what the Python path wrote."""
    if not fast.c_kernel_built():
        pytest.skip("the C kernel was not built here")
    kernel = fast.load_kernel("c")
    table = np.full(256, -1, np.int32)
    table[ord("a") : ord("z") + 1] = np.arange(26)
    codes = np.empty((2, 4), np.int32)
    assert kernel.plain_codes(b"abcd\nwxyz\n", table, 4, codes)
    assert codes.tolist() == [[0, 1, 2, 3], [22, 23, 24, 25]]
    for block in (b"abcd\nwx z\n", b"abc\nwxyzz\n", b"abcd\r\nwxy\n", b"abc\xc3\nwxyz\n"):
        assert not kernel.plain_codes(block, table, 4, np.empty((2, 4), np.int32)), block
    with pytest.raises(ValueError):
        kernel.plain_codes(b"abcd\n", table, 4, np.empty((2, 4), np.int32))
    with pytest.raises(ValueError):
        kernel.plain_codes(b"abcd\n", table[:10], 4, np.empty((1, 4), np.int32))
    scores = np.array([0, -3, 2**40], np.int64)
    words = np.array([0, 7, 2**31 - 1], np.int32)
    text, total = kernel.format_rows(b"ab\ncd\nef\n", 2, scores, words)
    assert text == "".join(
        f"{b}\t{s}\t{w}\n" for b, s, w in zip(["ab", "cd", "ef"], scores.tolist(), words.tolist(), strict=True)
    )
    assert total == sum(scores.tolist())
    with pytest.raises(ValueError):
        kernel.format_rows(b"ab\ncd\n", 2, scores, words)
    with pytest.raises(ValueError):
        kernel.format_rows(b"\xe9b\ncd\nef\n", 2, scores, words)
