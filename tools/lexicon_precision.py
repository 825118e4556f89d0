"""Precision of a built lexicon against Hunspell's own checker: random words of the lexicon given back.

tools/affix_precision.py checks what the affix expander makes from a .dic; this checks what a recipe kept,
after its stages (folds, rewrites such as Lao ໍ + າ -> ຳ): N words drawn (seeded) from the built lexicon
`NAME` in the store, given to `hunspell -d DIC -G` (prints the words it accepts, one a line); a word counts
as accepted only if hunspell prints it back whole (for scripts written without spaces, hunspell may split a
word into several it knows: such a word is not counted). Needs Debian's `hunspell` and the dictionary.

    python tools/lexicon_precision.py th /usr/share/hunspell/th_TH --store /tmp/store --sample 1000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def measure(name: str, dictionary: str, store: Path | None, sample: int, seed: int) -> dict:
    """Draw, check: the figures as a dict (rejected words listed)."""
    sys.path.insert(0, str(REPO))
    from boggle_i18n.lexicon import Lexicon

    words = sorted(Lexicon.load(name, store))
    drawn = random.Random(seed).sample(words, min(sample, len(words)))
    checker = subprocess.run(
        ["hunspell", "-d", dictionary, "-i", "utf-8", "-G"],
        input="\n".join(drawn) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    accepted = set(checker.stdout.split("\n"))
    rejected = [w for w in drawn if w not in accepted]
    return {"lexicon": name, "dictionary": dictionary, "words": len(words), "sample": len(drawn), "seed": seed,
            "accepted": len(drawn) - len(rejected), "rejected": rejected}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="a built lexicon (recipe name)")
    parser.add_argument("dictionary", help="hunspell's -d argument: the .dic path without .dic")
    parser.add_argument("--store", type=Path, help="lexicon store [default: $BOGGLE_I18N_HOME]")
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = measure(args.name, args.dictionary, args.store, args.sample, args.seed)
    if args.json:
        print(json.dumps(r, ensure_ascii=False))
    else:
        print(
            f"{r['lexicon']}: {r['words']:,} words; hunspell accepts {r['accepted']}/{r['sample']} "
            f"(seed {r['seed']}); rejected: {' '.join(r['rejected'][:15])}"
        )


if __name__ == "__main__":
    main()
