"""Prover speed, measured in one run: CPU seconds per class, split into building the bound and branching.

    python benchmarks/bench_prove.py [--size 3x3|3x4|4x4] [--buckets K|C/E/I] [--classes N | --all | --numbers A,B,..]
                                     [--repeat R] [--threshold S] [--against REV] [--flags "-DX=1"] [--store DIR]

The workload of the published figures: ENABLE2K, 3+ letters, the classic table,
faces a-z with qu, the size's default classes (`prove`'s: 4 buckets with open corners on 3x3 and 3x4, the
measured scheme on 4x4) or `--buckets`. N canonical
classes are drawn with a fixed seed (`--all`: every canonical class, the whole
proof; `--numbers`: the classes named); each is searched R times at the threshold (the published best score of
the size, or --threshold) and R times at an unreachable threshold, which stops
right after the tree is built. Figures are medians of the R runs per class,
summed over the sample; the projection multiplies the mean by the number of
canonical classes.

`--against REV` compiles the prover's C (`_bound.c` and the header it includes)
as it is in this tree and as it was at git revision REV, with the same gcc
flags, and times both on every class, one after the other, so the ratio is
taken side by side on one machine in one state (figures from separate runs
or days differ by more than many changes gain). The lexicon is built from
../shared/data/lexicons/en-enable2k.txt into --store (a temporary folder by
default). `--flags` adds gcc flags to the build of REV (or, alone, of this tree), to time a compile-time
variant (`-DMERGE_LEVELS=3`) side by side. Nothing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "lexicons"
# best score, single-core CPU s (the paper; 4x4: its later runs, about 10,000 CPU-hours)
PUBLISHED = {"3x3": (545, 70.0), "3x4": (1651, 5 * 3600 + 54 * 60), "4x4": (3625, 10_000 * 3600)}
SOURCES = ("boggle_i18n/prove/_bound.c", "boggle_i18n/_popcount_trie.h")  # the header is absent in early revisions


def compiled(rev: str | None, flags: tuple[str, ...] = ()) -> Any:
    """The prover module built with plain `gcc -O3` (and `flags`) from this tree (rev None) or git revision `rev`."""
    work = Path(tempfile.mkdtemp(prefix="bench-prove-c-"))
    for rel in SOURCES:
        if rev is None:
            text = (REPO / rel).read_bytes() if (REPO / rel).exists() else None
        else:
            shown = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{rel}"], capture_output=True)
            text = shown.stdout if shown.returncode == 0 else None
        if text is not None:
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            (work / rel).write_bytes(text)
    target = work / f"_bound{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    source = work / SOURCES[0]
    subprocess.run(
        ["gcc", "-O3", "-std=c11", "-fPIC", "-shared", *flags, f"-I{include}", str(source), "-o", str(target)],
        check=True,
    )
    spec = importlib.util.spec_from_file_location("boggle_i18n.prove._bound", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="3x3", choices=sorted(PUBLISHED))
    parser.add_argument("--classes", type=int, default=24)
    parser.add_argument("--all", action="store_true", help="every canonical class (the whole proof)")
    parser.add_argument(
        "--numbers", help="comma-separated class numbers to time (e.g. the heavy classes of an estimate's sample)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threshold", type=int)
    parser.add_argument("--against", metavar="REV", help="also time the prover's C at git revision REV")
    parser.add_argument("--flags", default="", help="gcc flags for REV's build (or this tree's, without --against)")
    parser.add_argument("--buckets", help="class scheme: K or C/E/I [default: prove's for the size]")
    parser.add_argument("--store")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from boggle_i18n.api import load_lexicon
    from boggle_i18n.language.selection import select
    from boggle_i18n.lexicon.build import build_lexicon
    from boggle_i18n.optimize.problem import free_faces
    from boggle_i18n.prove.prover import proof_spec
    from boggle_i18n.prove.tasks import prover_for

    store = args.store or tempfile.mkdtemp(prefix="bench-prove-")
    if not (Path(store) / "en-enable2k.marisa").exists():
        build_lexicon("en-enable2k", source=SHARED / "en-enable2k.txt", store=store, download=False)
    shape = tuple(int(x) for x in args.size.split("x"))
    best, published_seconds = PUBLISHED[args.size]
    threshold = args.threshold if args.threshold is not None else best
    chosen = select(lexicon="en-enable2k", size=shape, store=store).for_size(shape)
    lexicon = load_lexicon("en-enable2k", store=store, build=False)
    faces = free_faces(chosen.language.code, shape, lexicon)
    from boggle_i18n.prove.classes import Scheme

    scheme = None if args.buckets is None else Scheme.parse(args.buckets)
    spec = proof_spec(lexicon, chosen.rules, shape, faces, chosen.language.vowels, threshold, buckets=scheme)
    prover = prover_for(spec)
    canonical = spec.space.canonical_count()

    numbers: list[int] = []
    if args.numbers:
        numbers = [int(n) for n in args.numbers.split(",")]
        bad = [n for n in numbers if not 0 <= n < spec.space.total or not spec.space.canonical_mask(np.array([n]))[0]]
        if bad:
            parser.error(f"not canonical classes of this scheme: {bad}")
    elif args.all:
        numbers = [int(n) for t in range(spec.space.tasks) for n in spec.space.task_classes(t)]
    else:
        rng = np.random.default_rng(args.seed)
        while len(numbers) < args.classes:
            drawn = rng.integers(0, spec.space.total, size=256, dtype=np.int64)
            numbers += [int(n) for n in drawn[spec.space.canonical_mask(drawn)]]
        numbers = numbers[: args.classes]

    # Without --against: the installed module as the tree's build. With it: both compiled here, same flags.
    flags = tuple(args.flags.split())
    if args.against:
        modules = {"this tree": compiled(None), args.against: compiled(args.against, flags)}
    else:
        modules = {"this tree": compiled(None, flags)} if flags else {"": None}

    def timed(sets: np.ndarray, at: int) -> tuple[float, tuple[int, int, int, int], bytes]:
        runs, stats, found = [], (0, 0, 0, 0), b""
        for _ in range(args.repeat):
            started = time.process_time()
            boards, stats = prover.search_sets(sets, at)
            runs.append(time.process_time() - started)
            # The boards that really reach the threshold (a tighter bound may leave fewer candidates to score).
            kept = boards[prover.scorer.score_codes(boards)[0] >= at] if len(boards) else boards
            found = np.sort(np.ascontiguousarray(kept).view(f"V{boards.shape[1] * 4}").ravel()).tobytes()
        return statistics.median(runs), stats, found

    installed = prover._bound
    sums = {name: [0.0, 0.0, 0, 0] for name in modules}  # whole, build, tree nodes, branch steps
    ratios: list[float] = []
    same_boards = same_bounds = True
    tighter = looser = 0  # classes whose root bound is lower (higher) in this tree than in REV
    for number in numbers:
        sets = prover.sets_of(number)
        per: dict[str, float] = {}
        bounds: dict[str, int] = {}
        boards = set()
        for name, module in modules.items():  # class by class, one after the other: the same machine state
            prover._bound = module if module is not None else installed
            built, _, _ = timed(sets, 2**40)
            whole, (root, tree, _paths, branch), found = timed(sets, threshold)
            bounds[name] = root
            boards.add(found)
            per[name] = whole
            total = sums[name]
            total[0] += whole
            total[1] += built
            total[2] += tree
            total[3] += branch
        same_boards &= len(boards) == 1
        same_bounds &= len(set(bounds.values())) == 1
        if args.against:
            tighter += bounds["this tree"] < bounds[args.against]
            looser += bounds["this tree"] > bounds[args.against]
        if args.against:
            ratios.append(per[args.against] / max(per["this tree"], 1e-9))
    prover._bound = installed

    count = len(numbers)
    print(
        f"en-enable2k {args.size}, buckets {args.buckets or 'default'}, threshold {threshold}, {count} of "
        f"{canonical:,} canonical classes, "
        f"median of {args.repeat} runs each"
    )
    for name, (whole, built, nodes, branches) in sums.items():
        label = f"{name}{' ' + args.flags if args.flags and name != 'this tree' else ''}: " if name else ""
        mean = whole / count
        share = built / whole
        print(f"  {label}CPU per class: {mean:.3f} s (building the bound {built / count:.3f} s, {share:.0%} of it)")
        print(f"  {label}tree nodes per class: {nodes / count:,.0f}; branch steps per class: {branches / count:,.0f}")
        projected = mean * canonical
        print(
            f"  {label}projected whole proof: {projected:,.0f} CPU s ({projected / 3600:.2f} h); "
            f"published single core {published_seconds:,.0f} s: ratio {projected / published_seconds:.2f}"
        )
    if args.against:
        ours, theirs = sums["this tree"][0], sums[args.against][0]
        print(f"  {args.against} / this tree, CPU: {theirs / ours:.2f}")
        print(f"  same boards at the threshold on every class: {'yes' if same_boards else 'NO'}")
        print(
            f"  same root bound on every class: {'yes' if same_bounds else 'no'}"
            f" (lower in this tree on {tighter}, higher on {looser} of {count} classes)"
        )
        print(f"  per class, {args.against} / this tree: " + " ".join(f"{r:.2f}" for r in ratios))


if __name__ == "__main__":
    sys.exit(main())
