"""Every user number has one range, checked where it enters; none reaches a kernel outside it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boggle_i18n import Lexicon, parse_board, roll, rules_for
from boggle_i18n.errors import BoggleI18nError, LimitError
from boggle_i18n.language.selection import select
from boggle_i18n.limits import INT64_MAX, LIMITS, MAX_POINTS, MAX_TOTAL, check, clip, markdown
from boggle_i18n.optimize.optimizer import check_request
from boggle_i18n.scoring import parse_table
from boggle_i18n.solver import fast
from boggle_i18n.solver.scorer import prepare_scorer

REPO = Path(__file__).resolve().parent.parent
WORDS = ["cat", "cats", "act", "scat", "tacs", "at", "sat", "casts", "catsup"]
LEXICON = Lexicon.from_words(WORDS)
BOARD = parse_board("cats/upxa/tsca/scat")
HUGE = st.integers(min_value=-(2**80), max_value=2**80)


def test_docs_table_is_the_code() -> None:
    """docs/limits.md is written from `limits.LIMITS` (python -m boggle_i18n.limits > docs/limits.md)."""
    assert (REPO / "docs" / "limits.md").read_text(encoding="utf-8") == markdown()


def test_totals_fit_int64() -> None:
    assert MAX_TOTAL < INT64_MAX


@given(name=st.sampled_from(sorted(LIMITS)), value=HUGE)
def test_check_accepts_exactly_the_range(name: str, value: int) -> None:
    limit = LIMITS[name]
    if limit.lo <= value <= limit.hi:
        assert check(name, value) == value
    else:
        with pytest.raises(LimitError, match="must be in"):
            check(name, value)


@pytest.mark.parametrize("value", [True, "3", 1.5, float("nan"), float("inf")])
def test_check_refuses_other_types(value: object) -> None:
    with pytest.raises(LimitError):
        check("seconds" if isinstance(value, float) and value != 1.5 else "workers", value)


@contextmanager
def kernel_points() -> Iterator[list[np.ndarray]]:
    """Every points table handed to a kernel while the block runs."""
    seen: list[np.ndarray] = []
    real = fast.points_table

    def spy(*args: object, **kwargs: object) -> np.ndarray:
        table = real(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(table)
        return table

    fast.points_table = spy  # type: ignore[assignment]
    try:
        yield seen
    finally:
        fast.points_table = real  # type: ignore[assignment]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.lists(st.tuples(st.integers(-5, 5000), HUGE), min_size=1, max_size=4),
    min_length=st.one_of(st.none(), st.integers(-3, 5000)),
)
def test_no_user_number_reaches_a_kernel_out_of_range(table: list[tuple[int, int]], min_length: int | None) -> None:
    """A scoring table and minimum length from the user: refused with one library error, or every
    number the kernel sees is inside its range and the kernel's totals equal exact Python sums."""
    text = ",".join(f"{n}:{p}" for n, p in table)
    try:
        rules = rules_for(BOARD, lang="en", min_length=min_length, scoring=text)
    except BoggleI18nError:
        return
    with kernel_points() as seen:
        try:
            scorer = prepare_scorer(LEXICON, rules, BOARD.size, engine="fast")
        except BoggleI18nError as exc:  # only the engine's own overflow guard may refuse here
            assert isinstance(exc, LimitError)
            return
    assert seen, "the fast engine prepared a points table"
    for points in seen:
        assert int(points.min()) >= 0 and int(points.max()) <= MAX_POINTS
    scores, _ = scorer.score_boards([BOARD])
    exact = sum(w.points for w in scorer.solve(BOARD).words)  # Python ints: no wrap-around
    assert int(scores[0]) == exact >= 0


@given(seed=HUGE)
def test_seeds_are_one_range_everywhere(seed: int) -> None:
    """random, optimize and compare read a seed the same way: 0..2**63-1, never folded (-1 is not 1)."""
    ok = 0 <= seed <= INT64_MAX
    for call in (
        lambda: roll(dice="en-new-4x4", seed=seed),
        lambda: check_request(seed=seed),
        lambda: check("seed", seed),
    ):
        if ok:
            call()
        else:
            with pytest.raises(LimitError, match="--seed must be in"):
                call()


def test_workers_zero_means_one_per_core_everywhere() -> None:
    from boggle_i18n.limits import workers_for

    assert workers_for(0) >= 1
    assert check_request(workers=0) == workers_for(0)
    with pytest.raises(LimitError):
        check_request(workers=-1)


def test_scoring_points_and_lengths_are_bounded() -> None:
    assert parse_table(f"3:{MAX_POINTS}").points(3) == MAX_POINTS
    for text in (f"3:{MAX_POINTS + 1}", "3:10000000000000000", "3:99999999999999999999999", "5000:1"):
        with pytest.raises(LimitError):
            parse_table(text)
    with pytest.raises(LimitError):
        select(min_length=10**20)


def test_clip_cuts_long_text_and_names_its_length() -> None:
    assert clip("abc") == "abc"
    cut = clip("x" * 10_000, 20)
    assert cut.startswith("x" * 19 + "…") and "10,000 characters" in cut
