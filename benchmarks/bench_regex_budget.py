"""What the regex stages' CPU budget costs a real build: the Dutch recipe (three regex stages) with and without it.

    python benchmarks/bench_regex_budget.py [--source PATH] [--repeat N]

Builds `nl` from OpenTaal (../shared by default) into temporary stores, alternating
a build with the budget (the default: a CPU timer armed around each chunk of each
regex stage) and one with it switched off, and prints the median CPU seconds of
each and their ratio. No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from boggle_i18n import build_lexicon
from boggle_i18n.pipeline import runner

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO.parent / "shared" / "data" / "lexicons" / "nl-opentaal-2.20.18-wordlist.txt"


def one_build(source: Path, budget: bool) -> tuple[float, int]:
    stages = runner.REGEX_STAGES
    runner.REGEX_STAGES = stages if budget else frozenset()  # type: ignore[misc]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.process_time()
            lexicon = build_lexicon("nl", source=source, store=tmp, download=False)
            return time.process_time() - started, len(lexicon)
    finally:
        runner.REGEX_STAGES = stages  # type: ignore[misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    timed: dict[bool, list[float]] = {True: [], False: []}
    words = set()
    for _ in range(args.repeat):
        for budget in (True, False):
            seconds, n = one_build(args.source, budget)
            timed[budget].append(seconds)
            words.add(n)
    assert len(words) == 1, f"the budget changed the words: {words}"
    with_budget, without = statistics.median(timed[True]), statistics.median(timed[False])
    print(f"nl from {args.source.name}: {words.pop():,} words either way, {args.repeat} builds each (CPU seconds)")
    print(f"  with the regex budget:    median {with_budget:.3f} s")
    print(f"  without it:               median {without:.3f} s")
    print(f"  ratio:                    {with_budget / without:.3f}")


if __name__ == "__main__":
    main()
