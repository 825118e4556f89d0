"""Prover speed, measured in one run: CPU seconds per class, split into building the bound and branching.

    python benchmarks/bench_prove.py [--size 3x3] [--classes N] [--repeat R] [--threshold S] [--store DIR]

The workload of the published figures: ENABLE2K, 3+ letters, the classic table,
faces a-z with qu, the default classes (4 buckets, open corners). N canonical
classes are drawn with a fixed seed; each is searched R times at the threshold
(the published best score of the size, or --threshold) and R times at an
unreachable threshold, which stops right after the tree is built. Figures are
medians of the R runs per class, summed over the sample; the projection
multiplies the mean by the number of canonical classes. The lexicon is built
from ../shared/data/lexicons/en-enable2k.txt into --store (a temporary folder
by default). Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "lexicons"
PUBLISHED = {"3x3": (545, 70.0), "3x4": (1651, 5 * 3600 + 54 * 60)}  # best score, single-core CPU s (the paper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="3x3", choices=sorted(PUBLISHED))
    parser.add_argument("--classes", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threshold", type=int)
    parser.add_argument("--store")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from boggle_i18n.api import load_lexicon
    from boggle_i18n.lexicon.build import build_lexicon
    from boggle_i18n.optimize.problem import free_faces
    from boggle_i18n.prove.prover import proof_spec
    from boggle_i18n.prove.tasks import prover_for
    from boggle_i18n.selection import select

    store = args.store or tempfile.mkdtemp(prefix="bench-prove-")
    if not (Path(store) / "en-enable2k.marisa").exists():
        build_lexicon("en-enable2k", source=SHARED / "en-enable2k.txt", store=store, download=False)
    shape = tuple(int(x) for x in args.size.split("x"))
    best, published_seconds = PUBLISHED[args.size]
    threshold = args.threshold if args.threshold is not None else best
    chosen = select(lexicon="en-enable2k", size=shape, store=store).for_size(shape)
    lexicon = load_lexicon("en-enable2k", store=store, build=False)
    faces = free_faces(chosen.language.code, shape, lexicon)
    spec = proof_spec(lexicon, chosen.rules, shape, faces, chosen.language.vowels, threshold)
    prover = prover_for(spec)
    canonical = sum(len(spec.space.task_classes(t)) for t in range(spec.space.tasks))

    rng = np.random.default_rng(args.seed)
    numbers: list[int] = []
    while len(numbers) < args.classes:
        drawn = rng.integers(0, spec.space.total, size=256, dtype=np.int64)
        numbers += [int(n) for n in drawn[spec.space.canonical_mask(drawn)]]
    numbers = numbers[: args.classes]

    def timed(sets: np.ndarray, at: int) -> tuple[float, tuple[int, int, int, int]]:
        runs, stats = [], (0, 0, 0, 0)
        for _ in range(args.repeat):
            started = time.process_time()
            _, stats = prover.search_sets(sets, at)
            runs.append(time.process_time() - started)
        return statistics.median(runs), stats

    total = build = 0.0
    nodes = branches = 0
    for number in numbers:
        sets = prover.sets_of(number)
        built, _ = timed(sets, 2**40)
        whole, (_root, tree, _paths, branch) = timed(sets, threshold)
        build, total, nodes, branches = build + built, total + whole, nodes + tree, branches + branch
    mean = total / len(numbers)
    print(
        f"en-enable2k {args.size}, threshold {threshold}, {len(numbers)} of {canonical:,} canonical classes, "
        f"median of {args.repeat} runs each"
    )
    print(f"  CPU per class: {mean:.3f} s (building the bound {build / len(numbers):.3f} s, {build / total:.0%} of it)")
    print(
        f"  tree nodes per class: {nodes / len(numbers):,.0f}; branch steps per class: {branches / len(numbers):,.0f}"
    )
    projected = mean * canonical
    print(
        f"  projected whole proof: {projected:,.0f} CPU s ({projected / 3600:.2f} h); "
        f"published single core {published_seconds:,.0f} s: ratio {projected / published_seconds:.2f}"
    )


if __name__ == "__main__":
    sys.exit(main())
