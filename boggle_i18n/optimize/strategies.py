"""Search strategies. Each runs one restart from its own random generator until it
converges, uses up its iterations, or the search's budget raises `Stop`.

- `hill`: steepest ascent over the whole neighbourhood (every single-cell change
  and swap, scored in one batch); when no single move improves, a batch of random
  2- and 3-cell moves is tried; when those fail too, the restart ends at a local
  optimum.
- `anneal`: simulated annealing with single random moves (two- and three-cell
  moves one time in five). Temperature falls geometrically from `t0` to `t1`
  over `iterations` proposals: T(k) = t0 * (t1/t0)^(k/iterations). By default
  t0 is the standard deviation of the scores of the start board's
  neighbourhood (a move that costs that much is taken about one time in three
  at the start) and t1 is 0.5 points, where only ties and gains pass. Proposals
  are scored in batches of 32; the first accepted one is taken and the rest of
  the batch dropped. The run ends with a hill climb from where it stopped.
- `pool`: a beam search. Keep the best `pool` distinct boards (up to symmetry);
  each round, score every neighbour of every board in the pool and keep the best
  `pool` of old and new; stop when a round brings no better board for
  `patience` rounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .canonical import symmetries
from .search import Search

STRATEGIES = ("hill", "anneal", "pool")


@dataclass(frozen=True)
class Params:
    """Strategy knobs (all have defaults that suit 4x4 and 5x5 boards)."""

    iterations: int | None = None  # hill: climbing steps; anneal: proposals; pool: rounds (None: strategy default)
    pool: int = 200
    patience: int = 3
    kicks: int = 100  # hill: kicks in a row without a new best before a restart
    t0: float | None = None
    t1: float = 0.5


def climb(
    search: Search,
    state: np.ndarray,
    score: int,
    rng: np.random.Generator,
    steps: int,
    chunk: int = 128,
    optima: set[bytes] | None = None,
) -> tuple[np.ndarray, int]:
    """Hill climb from `state` to a local optimum: neighbours scored in shuffled chunks, the best of the
    first chunk that improves is taken (so far from an optimum few neighbours are scored per step).

    `optima` remembers states already proven to be local optima: a climb that reaches one stops there
    without scoring its whole neighbourhood again (kicks often fall back into the same optimum)."""
    space = search.space
    for _ in range(steps):
        if optima is not None and state.tobytes() in optima:
            break
        nb = space.neighbours(state)
        nb = nb[rng.permutation(len(nb))]
        moved = False
        for lo in range(0, len(nb), chunk):
            part = nb[lo : lo + chunk]
            scores, _ = search.score(part)
            best = int(np.argmax(scores))
            if scores[best] > score:
                state, score, moved = part[best], int(scores[best]), True
                break
        if not moved:
            if optima is not None:
                optima.add(state.tobytes())
            break
    return state, score


def hill(search: Search, rng: np.random.Generator, params: Params) -> None:
    """One restart: climb from a random board, then kick and climb again (iterated local search).

    A kick is 2 to 4 random moves from the current optimum; the climb that follows
    is kept if it scores at least as much (so plateaus are walked). The restart
    ends after `kicks` kicks in a row bring no new best, or `iterations` climbs.
    """
    space = search.space
    state = space.random(rng)
    scores, _ = search.score(state[None, :])
    optima: set[bytes] = set()
    state, score = climb(search, state, int(scores[0]), rng, 10_000, optima=optima)
    best, stale = score, 0
    for _ in range(params.iterations or 1_000_000):
        if stale >= params.kicks:
            break
        kicked = space.perturb(state, rng, 1, int(rng.integers(2, 5)))[0]
        k_scores, _ = search.score(kicked[None, :])
        new, new_score = climb(search, kicked, int(k_scores[0]), rng, 10_000, optima=optima)
        if new_score >= score:
            state, score = new, new_score
        if score > best:
            best, stale = score, 0
        else:
            stale += 1


def anneal(search: Search, rng: np.random.Generator, params: Params) -> None:
    """One simulated-annealing run, then a hill climb."""
    space = search.space
    state = space.random(rng)
    scores, _ = search.score(state[None, :])
    score = int(scores[0])
    iterations = params.iterations or 200_000
    t0 = params.t0
    if t0 is None:
        nb_scores, _ = search.score(space.neighbours(state))
        t0 = max(1.0, float(np.std(nb_scores)))
    t1 = min(params.t1, t0)
    batch = 32
    k = 0
    while k < iterations:
        n = min(batch, iterations - k)
        moves = np.where(rng.random(n) < 0.8, 1, 2)
        props = np.concatenate([space.perturb(state, rng, 1, int(m)) for m in moves])
        p_scores, _ = search.score(props)
        draws = rng.random(n)
        for j in range(n):
            temp = t0 * (t1 / t0) ** ((k + j) / iterations)
            delta = int(p_scores[j]) - score
            if delta >= 0 or draws[j] < math.exp(delta / temp):
                state, score = props[j], int(p_scores[j])
                k += j + 1
                break
        else:
            k += n
    climb(search, state, score, rng, 10_000)


def pool(search: Search, rng: np.random.Generator, params: Params) -> None:
    """One beam search from `pool` random boards."""
    space = search.space
    size = max(1, params.pool)
    perms = np.array(symmetries(space.rows, space.cols), dtype=np.int64)
    states = np.stack([space.random(rng) for _ in range(size)])
    scores, _ = search.score(states)
    best = int(scores.max())
    stale = 0
    rounds = params.iterations or 1_000_000
    for _ in range(rounds):
        nb = np.concatenate([states, *(space.neighbours(s) for s in states)])
        nb_scores, _ = search.score(nb)
        states, scores = _keep_best(space, nb, nb_scores, perms, size)
        if int(scores[0]) > best:
            best, stale = int(scores[0]), 0
        else:
            stale += 1
            if stale >= params.patience:
                break


def _keep_best(
    space: object, states: np.ndarray, scores: np.ndarray, perms: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """The best `size` states whose boards differ up to symmetry (ties: first in batch order)."""
    order = np.argsort(-scores, kind="stable")
    codes = space.codes(states)  # type: ignore[attr-defined]
    seen: set[bytes] = set()
    keep: list[int] = []
    for i in order:
        images = codes[i][perms]
        key = min(row.tobytes() for row in images)
        if key in seen:
            continue
        seen.add(key)
        keep.append(int(i))
        if len(keep) == size:
            break
    idx = np.array(keep, dtype=np.int64)
    return states[idx], scores[idx]


STRATEGY_FUNCTIONS: dict[str, Callable[[Search, np.random.Generator, Params], None]] = {
    "hill": hill,
    "anneal": anneal,
    "pool": pool,
}
