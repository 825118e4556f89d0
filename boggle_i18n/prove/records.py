"""The proven boards and estimated proof costs of docs/results.md, from `prove --output FILE` files.

Each row puts a proof's best board (or "none at or above the threshold") next
to the best board `optimize` found for the same lexicon, size and rules, so
the page shows which best-found boards are now proven best. A proof that did
not finish is listed as partial, never as proven. Estimates (`prove --estimate
--output FILE`, in the folder or one folder down) get a table of their own: what
a proof not run yet would cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from ..optimize.results import BOARD, RULES, SETTINGS, read_result_file, result_size, shape_problem

ESTIMATE_REQUIRED = ("estimate", "threshold", "settings", "command")
REQUIRED = ("complete", "proven_best", "boards", "threshold", "classes", "cpu_seconds", "settings", "command")
PROOF_SHAPE = {
    "complete": "bool",
    "proven_best": (BOARD, "null"),
    "boards": [BOARD],
    "threshold": "int",
    "classes": "int",
    "cpu_seconds": "num",
    "settings": SETTINGS,
    "command": "str",
    "tasks?": {"done": "int", "total": "int"},
    "rows?": "int",
    "cols?": "int",
}
ESTIMATE_SHAPE = {
    "estimate": {
        "classes_total": "int",
        "sampled": "int",
        "slowest_class_seconds": "num",
        "cpu_seconds": "num",
        "cpu_seconds_95": ["num"],
        "scheme?": "str",
        "seed?": "int",
        "class_seconds_quantiles?": {"p50?": "num", "p99?": "num"},
    },
    "threshold": "int",
    "settings": {"lexicon": "str", "rules": RULES, "open_cells?": ["int"]},
    "command": "str",
    "rows?": "int",
    "cols?": "int",
}


def _read(path: Path) -> Any:
    """A file's JSON, or None where it is not JSON (load_results reports those at the top)."""
    try:
        return read_result_file(path)
    except BoggleI18nError:
        return None


def load_proofs(folder: Path) -> list[dict[str, Any]]:
    """The proof result files of `folder` (kind "proof"); a malformed one is an error naming it."""
    proofs = []
    for path in sorted(folder.glob("*.json")):
        data = _read(path)  # load_results reports files that are not JSON
        if not isinstance(data, dict) or data.get("kind") != "proof":
            continue
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise BoggleI18nError(f"proof file {path} lacks {', '.join(missing)} (write it with prove --output)")
        problem = shape_problem(data, PROOF_SHAPE)
        if problem is None and not data["complete"] and "tasks" not in data:
            problem = "tasks is missing (a partial proof says how many tasks it did)"
        if problem:
            raise BoggleI18nError(f"proof file {path}: {problem} (write it with prove --output)")
        data["_file"] = path.name
        proofs.append(data)
    return proofs


def _size(data: dict[str, Any]) -> str:
    return str(result_size(data))


def _rules(settings: dict[str, Any]) -> str:
    rules = settings["rules"]
    diag = "" if rules.get("diagonals", True) else ", no diagonals"
    return f"{rules['scoring']['name']}, {rules['min_length']}+ letters{diag}"


def _best_found(runs: list[dict[str, Any]], proof: dict[str, Any]) -> str:
    """The best free-letter board optimize found under the proof's lexicon, size and rules."""
    s = proof["settings"]
    same = [
        r
        for r in runs
        if r["settings"].get("lexicon") == s["lexicon"]
        and _size(r) == _size(proof)
        and not r["settings"].get("dice")
        and r["settings"].get("rules") == s["rules"]
        and r["best"]
    ]
    if not same:
        return "-"
    best = max(same, key=lambda r: r["best"][0]["score"])["best"][0]
    return f"{best['score']} `{best['board']}`"


def render_proofs(proofs: list[dict[str, Any]], runs: list[dict[str, Any]], fresh: dict[str, Any] | None = None) -> str:
    """The Markdown section (empty when there are no proofs); `fresh` (optimize.stale.check_runs of the proofs)
    marks a proof whose lexicon has changed since as stale: it proves the old lexicon's best, not today's."""
    if not proofs:
        return ""
    out = [
        "",
        "## Proven best boards",
        "",
        "Written from `boggle-i18n prove ... --output FILE` result files. **proven**: every board class was",
        "searched by branch and bound, so no board scores more than the one shown (and every board at or above",
        "the threshold was listed). CPU time is the sum over all workers.",
        "",
        "| lexicon | size | rules | proven best | words | board | boards >= threshold | best found by optimize "
        "| classes | CPU time | command |",
        "| --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: | ---: | --- |",
    ]
    for p in sorted(proofs, key=lambda p: (_size(p), p["settings"]["lexicon"], p["_file"])):
        s = p["settings"]
        best = p["proven_best"]
        if not p["complete"]:
            score, words, board = f"partial ({p['tasks']['done']}/{p['tasks']['total']} tasks)", "", ""
        elif best is None:
            score, words, board = f"< {p['threshold']}", "", "none at or above the threshold"
        else:
            score, words, board = f"**{best['score']}** proven", str(best["n_words"]), f"`{best['board']}`"
        state = (fresh or {}).get(p["_file"])
        if state is not None and state.state == "stale":
            score += f" ({state.note()})"
        out.append(
            f"| {s['lexicon']} | {_size(p)} | {_rules(s)} | {score} | {words} | {board} | "
            f"{len(p['boards'])} at >= {p['threshold']} | {_best_found(runs, p)} | {p['classes']:,} "
            f"| {p['cpu_seconds']:,.0f} s | `{p['command']}` |"
        )
    return "\n".join(out) + "\n"


def load_estimates(folder: Path) -> list[dict[str, Any]]:
    """The estimate files (kind "proof-estimate") of `folder` and its subfolders one level down."""
    estimates = []
    for path in sorted([*folder.glob("*.json"), *folder.glob("*/*.json")]):
        data = _read(path)  # load_results reports files at the top that are not JSON; below it, others' files
        if not isinstance(data, dict) or data.get("kind") != "proof-estimate":
            continue
        missing = [k for k in ESTIMATE_REQUIRED if k not in data]
        if missing:
            raise BoggleI18nError(f"estimate file {path} lacks {', '.join(missing)} (write it with prove --output)")
        problem = shape_problem(data, ESTIMATE_SHAPE)
        if problem is None and len(data["estimate"]["cpu_seconds_95"]) != 2:
            problem = "estimate.cpu_seconds_95 is not [low, high]"
        if (
            problem is None
            and not data["estimate"].get("scheme")
            and not isinstance(data["settings"].get("buckets"), list)
        ):
            problem = "settings.buckets is not a list (and estimate.scheme is missing)"
        if problem:
            raise BoggleI18nError(f"estimate file {path}: {problem} (write it with prove --output)")
        data["_file"] = path.relative_to(folder).as_posix()
        estimates.append(data)
    return estimates


def _hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:,.0f}" if hours >= 100 else f"{hours:,.1f}"


def render_estimates(estimates: list[dict[str, Any]]) -> str:
    """The Markdown section of projected proof costs (empty when there are none)."""
    if not estimates:
        return ""
    out = [
        "",
        "## Estimated proof costs",
        "",
        "Written from `boggle-i18n prove ... --estimate --output FILE` files: the CPU time of a whole proof,",
        "projected from the time of a sample of its canonical classes (the number of classes is exact), drawn",
        "by strata of vowel cells where the file records them (each stratum weighted by its exact size); the",
        "interval is a bootstrap over the sample. Class costs are heavy-tailed: read it as an order of magnitude.",
        "Buckets: `K` on every cell (`K, N open`: N cells take every face), or `C/E/I` per corner, edge and inner",
        "cell (1: every face). Class seconds: the median, 99th percentile and slowest of the sampled classes,",
        "weighted to stand for every class.",
        "",
        "| lexicon | size | rules | threshold | buckets | classes | sampled (seed) | class s p50 / p99 / slowest "
        "| projected CPU-hours (95%) | command |",
        "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for e in sorted(estimates, key=lambda e: (_size(e), e["settings"]["lexicon"], e["_file"])):
        s, est = e["settings"], e["estimate"]
        low, high = est["cpu_seconds_95"]
        q = est.get("class_seconds_quantiles", {})
        spread = f"{q['p50']:.2g} / {q['p99']:.2g} / " if "p50" in q and "p99" in q else ""
        seed = f" ({est['seed']})" if "seed" in est else ""
        out.append(
            f"| {s['lexicon']} | {_size(e)} | {_rules(s)} | {e['threshold']} | {_scheme(e)} "
            f"| {est['classes_total']:,} | {est['sampled']}{seed} | {spread}{est['slowest_class_seconds']:.1f} s "
            f"| {_hours(est['cpu_seconds'])} ({_hours(low)} to {_hours(high)}) | `{e['command']}` |"
        )
    return "\n".join(out) + "\n"


def _scheme(e: dict[str, Any]) -> str:
    """The estimate's classes: its scheme where recorded, else K buckets and the open cells."""
    scheme = e["estimate"].get("scheme")
    if scheme:
        return f"`{scheme}`"
    s = e["settings"]
    opened = len(s.get("open_cells", []))
    return f"{len(s['buckets'])}" + (f", {opened} open" if opened else "")
