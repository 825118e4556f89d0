"""Precision of the affix expander against Hunspell's own checker, per dictionary.

Expands a .dic/.aff pair with boggle_i18n.pipeline.affixes (a given depth), draws
N random forms (seeded) among those made only of letters and marks (Hunspell's tokenizer
splits a form at a full stop or an apostrophe, so those cannot be checked one by one; the
lexicons drop them anyway) and gives them to `hunspell -d DIC -G` (prints the words it
accepts); precision = accepted / drawn. Also counts the forms and distinct forms.
Needs Debian's `hunspell` (the checker) and the dictionary package.

    python tools/affix_precision.py /usr/share/hunspell/es_ES.dic --sample 1000 --seed 1
    python tools/affix_precision.py /usr/share/hunspell/lt_LT.dic --suffixes 1 --prefixes 0 --json
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def measure(
    dic: Path,
    suffixes: int,
    prefixes: int,
    exclude: frozenset[str],
    sample: int,
    seed: int,
    exclude_affixes: frozenset[str] = frozenset(),
) -> dict:
    """Expand, sample, check: the figures as a dict (rejected forms listed)."""
    sys.path.insert(0, str(REPO))
    from boggle_i18n.pipeline.affixes import Depth, expand

    start = time.perf_counter()
    rng = random.Random(seed)
    reservoir: list[str] = []
    distinct: set[str] = set()
    total = 0
    for form in expand(dic, None, Depth(suffixes, prefixes, exclude, exclude_affixes=exclude_affixes)):
        total += 1
        if not all(c.isalpha() or unicodedata.category(c).startswith("M") for c in form) or form in distinct:
            continue
        distinct.add(form)
        n = len(distinct)
        if len(reservoir) < sample:
            reservoir.append(form)
        else:
            j = rng.randrange(n)
            if j < sample:
                reservoir[j] = form
    seconds = time.perf_counter() - start
    checker = subprocess.run(
        ["hunspell", "-d", str(dic.with_suffix("")), "-i", "utf-8", "-G"],
        input="\n".join(reservoir) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    accepted = set(checker.stdout.split("\n"))
    rejected = [w for w in reservoir if w not in accepted]
    return {
        "dic": str(dic),
        "depth": {
            "suffixes": suffixes,
            "prefixes": prefixes,
            "exclude": sorted(exclude),
            **({"skip_affixes": sorted(exclude_affixes)} if exclude_affixes else {}),
        },
        "forms": total,
        "distinct": len(distinct),
        "seconds": round(seconds, 2),
        "sample": len(reservoir),
        "seed": seed,
        "accepted": len(reservoir) - len(rejected),
        "rejected": rejected,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dic", type=Path, nargs="+")
    parser.add_argument("--suffixes", type=int, default=2)
    parser.add_argument("--prefixes", type=int, default=1)
    parser.add_argument("--exclude", default="")
    parser.add_argument("--exclude-affixes", default="", help="affix texts never added (a recipe's skip_affixes)")
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    exclude = frozenset(f for f in args.exclude.split(",") if f)
    for dic in args.dic:
        affixes = frozenset(a for a in args.exclude_affixes.split(",") if a)
        r = measure(dic, args.suffixes, args.prefixes, exclude, args.sample, args.seed, affixes)
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
        else:
            print(
                f"{dic.stem}: {r['distinct']:,} distinct forms ({r['forms']:,} made) in {r['seconds']} s; "
                f"hunspell accepts {r['accepted']}/{r['sample']}; rejected: {' '.join(r['rejected'][:15])}"
            )


if __name__ == "__main__":
    main()
