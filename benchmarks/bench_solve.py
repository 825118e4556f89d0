"""Solver speed, measured: cold CLI, lexicon load, solve, boards/s, and a text-trie baseline.

    python benchmarks/bench_solve.py [--source PATH] [--repeat N]

Builds en-enable2k into a temporary store (from ../shared by default), then prints
medians over N runs and ratios measured in this one run. The baseline is what
typical Python solvers do on every start: read the word list as text and build a
dict-of-dicts trie before solving. No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from boggle_i18n import Lexicon, build_lexicon, get_dice, parse_board, rules_for
from boggle_i18n.board.board import neighbours
from boggle_i18n.solver import ReferenceSolver

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "lexicons" / "en-enable2k.txt"
BOARD = "perslatgsineters"


def median_seconds(fn, repeat: int) -> float:
    """Median wall time of `fn()` over `repeat` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def text_trie_baseline(source: Path, board: str) -> int:
    """Read the list, build a dict trie, solve: the usual pure-Python solver start-up."""
    root: dict = {}
    for line in source.read_text().split():
        word = line.strip().lower()
        if len(word) >= 3 and word.isalpha():
            node = root
            for ch in word:
                node = node.setdefault(ch, {})
            node["$"] = True
    faces = ["qu" if c == "q" else c for c in board]
    adjacent = neighbours(4, 4, True)
    found = set()

    def walk(cell: int, node: dict, word: str, used: int) -> None:
        for ch in faces[cell]:
            node = node.get(ch)
            if node is None:
                return
        word += faces[cell]
        if "$" in node:
            found.add(word)
        for nxt in adjacent[cell]:
            if not used >> nxt & 1:
                walk(nxt, node, word, used | 1 << nxt)

    for cell in range(16):
        walk(cell, root, "", 1 << cell)
    scores = [0, 0, 0, 1, 1, 2, 3, 5] + [11] * 40
    return sum(scores[len(w)] for w in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--boards", type=int, default=2000, help="random boards for the boards/s figure")
    parser.add_argument("--baseline-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_only:  # one cold baseline process, timed by the parent
        print(text_trie_baseline(args.source, BOARD))
        return

    store = Path(tempfile.mkdtemp(prefix="boggle-bench-"))
    build_lexicon("en-enable2k", source=args.source, store=store, download=False)
    lexicon = Lexicon.load("en-enable2k", store)
    board = parse_board(BOARD, lang="en")
    rules = rules_for(board, lang="en")
    solver = ReferenceSolver()
    assert solver.solve(board, lexicon, rules).score == 3625

    env = dict(os.environ, BOGGLE_I18N_HOME=str(store))
    exe = [sys.executable, "-m", "boggle_i18n", "solve", BOARD, "--lexicon", "en-enable2k"]
    cold = median_seconds(lambda: subprocess.run(exe, env=env, check=True, capture_output=True), args.repeat)
    load = median_seconds(lambda: Lexicon.load("en-enable2k", store), args.repeat)
    solve = median_seconds(lambda: solver.solve(board, lexicon, rules), args.repeat)
    base_cmd = [sys.executable, __file__, "--baseline-only", "--source", str(args.source)]
    assert subprocess.run(base_cmd, check=True, capture_output=True, text=True).stdout.strip() == "3625"
    baseline = median_seconds(lambda: subprocess.run(base_cmd, check=True, capture_output=True), args.repeat)

    rng = random.Random(2026)
    dice = get_dice("en-new-4x4")
    boards = [dice.roll(rng) for _ in range(args.boards)]
    t = time.perf_counter()
    for b in boards:
        solver.solve(b, lexicon, rules)
    per_board = (time.perf_counter() - t) / len(boards)

    print(f"lexicon: en-enable2k, {len(lexicon):,} words; board {BOARD}; medians of {args.repeat} runs")
    print(f"cold CLI `boggle-i18n solve` (process start to exit)  {cold * 1000:8.1f} ms")
    print(f"Lexicon.load (read + sha256 check + MARISA)           {load * 1000:8.1f} ms")
    print(f"ReferenceSolver.solve (perslatgsineters, 3625 pts)    {solve * 1000:8.1f} ms")
    print(f"baseline process: text -> dict trie -> solve          {baseline * 1000:8.1f} ms")
    print(
        f"random en-new-4x4 boards ({args.boards}, seed 2026)        {per_board * 1000:8.2f} ms/board = "
        f"{1 / per_board:,.0f} boards/s"
    )
    print(f"ratio cold baseline process / cold CLI: {baseline / cold:.1f}x")


if __name__ == "__main__":
    main()
