"""Run every published 3x3 proof again with this tree's prover and say whether it gives the same boards.

Each `results/prove-*-3x3.json` is proven again at its own threshold against the lexicon it names,
cheapest first, output to a scratch folder (never into results/); a line per proof goes to
`OUT/summary.tsv` (file, lexicon, same/DIFFERENT, best board, score, published CPU s, new CPU s).
A lexicon in the store whose trie is not the one the proof names is reported, not proven. Lines
already in the summary are skipped, so a stopped run continues where it was.

    python tools/rerun_proofs.py --store DIR --out DIR [--lexicons NAME,NAME,...]

`--lexicons` re-runs only the proofs of those lexicons (a sample, when the whole set costs too much).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True, help="lexicon store with the proofs' lexicons built")
    parser.add_argument("--out", required=True, type=Path, help="scratch folder for the new proofs")
    parser.add_argument("--lexicons", help="only the proofs of these lexicons (comma-separated)")
    args = parser.parse_args()
    wanted = set(args.lexicons.split(",")) if args.lexicons else None
    args.out.mkdir(parents=True, exist_ok=True)
    summary = args.out / "summary.tsv"
    done = {line.split("\t")[0] for line in summary.read_text().splitlines()} if summary.exists() else set()
    env = {**os.environ, "BOGGLE_I18N_HOME": args.store}
    files = sorted((REPO / "results").glob("prove-*-3x3.json"), key=lambda f: json.loads(f.read_text())["cpu_seconds"])
    exe = str(Path(sys.executable).with_name("boggle-i18n"))
    with summary.open("a") as out:
        for path in files:
            if path.name in done:
                continue
            old = json.loads(path.read_text())
            lexicon = old["settings"]["lexicon"]
            if wanted is not None and lexicon not in wanted:
                continue
            manifest = json.loads((Path(args.store) / f"{lexicon}.json").read_text())
            if manifest["trie_sha256"] != old["settings"]["trie_sha256"]:
                out.write(f"{path.name}\t{lexicon}\tlexicon differs\n")
                out.flush()
                continue
            target = args.out / path.name
            argv = [exe, "prove", "--lexicon", lexicon, "--size", "3x3", "--threshold", str(old["threshold"])]
            subprocess.run([*argv, "--workers", "1", "-o", str(target)], env=env, capture_output=True, check=False)
            new = json.loads(target.read_text())
            boards = [[(b["board"], b["score"]) for b in r["boards"]] for r in (new, old)]
            same = boards[0] == boards[1]
            best = new["proven_best"]
            out.write(
                f"{path.name}\t{lexicon}\t{'same' if same else 'DIFFERENT'}\t{best['board']}\t{best['score']}\t"
                f"{old['cpu_seconds']}\t{new['cpu_seconds']}\n"
            )
            out.flush()


if __name__ == "__main__":
    main()
