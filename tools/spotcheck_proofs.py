"""Spot-check the published 3x4 proofs with this tree's prover: search their heaviest tasks again.

A whole 3x4 proof costs hours, so each proof with a checkpoint (`results/prove-*-3x4*.json` beside its
`.ckpt`) is checked where it is hardest and where it found something: a copy of its checkpoint, without the
lines of its `--heaviest` N dearest tasks and of every task that found a board, is resumed with the real
`prove --resume` command. The prover searches exactly those tasks again (the other lines are taken as
recorded, their boards scored again), so the copy ends as a whole proof whose boards must equal the
published ones, and each re-run task must find what it found before. A line per proof goes to
`OUT/spotcheck.tsv`; lines already there are skipped, so a stopped run continues.

    python tools/spotcheck_proofs.py --store DIR --out DIR [--heaviest N] [--proofs FILE,FILE,...]

`--results DIR` and `--glob PATTERN` pick other proofs (the tests use them on a small one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from boggle_i18n.prove.checkpoint import read_checkpoint

REPO = Path(__file__).resolve().parent.parent
HEADER = "file\tlexicon\tresult\tbest board\tscore\ttasks re-run\tpublished CPU s of them\tnew CPU s\n"


def _lines(path: Path) -> tuple[str, list[tuple[str, dict]]]:
    """The checkpoint's identity line and its task lines with their records (a torn last line is left out)."""
    text = path.read_text().splitlines()
    records = []
    for line in text[1:]:
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and "task" in data:
            records.append((line, data))
    return text[0], records


def check_proof(proof: Path, out: Path, heaviest: int, env: dict[str, str]) -> str:
    """Re-run one proof's chosen tasks and return its summary line."""
    old = json.loads(proof.read_text())
    lexicon = old["settings"]["lexicon"]
    identity, lines = _lines(proof.with_suffix(".ckpt"))
    records = [r for _, r in lines]
    by_cost = sorted(records, key=lambda r: -r["cpu_seconds"])
    chosen = {r["task"] for r in by_cost[:heaviest]} | {r["task"] for r in records if r["boards"]}
    before = {r["task"]: r for r in records if r["task"] in chosen}
    copy = out / proof.with_suffix(".ckpt").name
    kept = [line for line, r in lines if r["task"] not in chosen]  # verbatim: their checks still hold
    copy.write_text("\n".join([identity, *kept]) + "\n")
    target = out / proof.name
    target.unlink(missing_ok=True)
    exe = str(Path(sys.executable).with_name("boggle-i18n"))
    size = f"{old['rows']}x{old['cols']}"
    argv = [exe, "prove", "--lexicon", lexicon, "--size", size, "--threshold", str(old["threshold"])]
    argv += ["--workers", "1", "--checkpoint", str(copy), "--resume", "-o", str(target)]
    run = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    tasks = ",".join(str(t) for t in sorted(chosen))
    was = sum(r["cpu_seconds"] for r in before.values())
    if run.returncode != 0 or not target.exists():
        reason = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return f"{proof.name}\t{lexicon}\tnot run: {reason}\t\t\t{tasks}\t{was:.1f}\t\n"
    new = json.loads(target.read_text())
    _, again, _ = read_checkpoint(copy)  # read back through the prover's own checks, not trusted raw
    same_tasks = all(sorted(again[t].boards) == sorted(map(tuple, before[t]["boards"])) for t in chosen)
    boards = [[(b["board"], b["score"]) for b in r["boards"]] for r in (new, old)]
    same = same_tasks and boards[0] == boards[1] and new["complete"]
    best = new["proven_best"]
    now = sum(again[t].cpu_seconds for t in chosen)
    return (
        f"{proof.name}\t{lexicon}\t{'same' if same else 'DIFFERENT'}\t{best['board']}\t{best['score']}\t"
        f"{tasks}\t{was:.1f}\t{now:.1f}\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True, help="lexicon store with the proofs' lexicons built")
    parser.add_argument("--out", required=True, type=Path, help="scratch folder for the copies and new results")
    parser.add_argument("--heaviest", type=int, default=2, help="how many of the dearest tasks to search again")
    parser.add_argument("--proofs", help="only these proof files (comma-separated names in results/)")
    parser.add_argument("--results", type=Path, default=REPO / "results", help="folder of the published proofs")
    parser.add_argument("--glob", default="prove-*-3x4*.json", help="which proof files in it")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = args.out / "spotcheck.tsv"
    done = {line.split("\t")[0] for line in summary.read_text().splitlines()} if summary.exists() else set()
    wanted = set(args.proofs.split(",")) if args.proofs else None
    env = {**os.environ, "BOGGLE_I18N_HOME": args.store}
    proofs = [
        p
        for p in sorted(args.results.glob(args.glob))
        if p.with_suffix(".ckpt").exists() and (wanted is None or p.name in wanted) and p.name not in done
    ]
    with summary.open("a") as out:
        if not done:
            out.write(HEADER)
        for proof in proofs:
            out.write(check_proof(proof, args.out, args.heaviest, env))
            out.flush()


if __name__ == "__main__":
    main()
