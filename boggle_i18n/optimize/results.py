"""docs/results.md from result files (`optimize --output FILE`), never typed by hand.

A result file is the JSON that `optimize --json` prints, plus the command that
made it. `known.json` in the same folder (optional) lists published boards to
compare with: `[{"lexicon", "size", "dice", "board", "score", "source"}]`, with
optional `min_length` and `scoring` (a preset name) when the rules matter.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from ..folders import read_regular

REQUIRED = ("best", "seed", "seconds", "boards_evaluated", "settings", "command", "strategy")

# The shapes of result files, as the pages and the web's records read them: a hand-edited file that breaks one
# is one error naming the file and the field. A spec is a type name ("int", "num": finite, "str", "bool",
# "null", "object"), a tuple of alternatives, {key: spec} (a key ending in "?" may be absent) or [spec] (a list).
Spec = Any
BOARD: Spec = {"board": "str", "score": "int", "n_words": "int"}
RULES: Spec = {"scoring": {"name": "str"}, "min_length": "int", "diagonals?": "bool"}
SETTINGS: Spec = {
    "lexicon": "str",
    "rules": RULES,
    "dice?": ("str", "null"),
    "size?": ("str", "null"),
    "target?": ("num", "null"),
    "time_limit?": ("num", "null"),
    "machine?": "object",
    "trie_sha256?": ("str", "null"),
}
RUN_SHAPE: Spec = {
    "best": [BOARD],
    "seed": "int",
    "seconds": "num",
    "boards_evaluated": "int",
    "settings": SETTINGS,
    "command": "str",
    "strategy": "str",
    "stopped": "str",
    "best_at?": ("num", "null"),
    "workers?": "int",
    "boards_per_second?": ("num", "null"),
    "started?": "str",
    "rows?": "int",
    "cols?": "int",
}
KNOWN_SHAPE: Spec = [{"board": "str", "score": "int", "source?": "str", "min_length?": "int", "scoring?": "str"}]


def shape_problem(value: Any, spec: Spec, where: str = "") -> str | None:
    """Where `value` departs from `spec` (`settings.rules.min_length is a string, not int`), or None."""
    if isinstance(spec, tuple):
        problems = [shape_problem(value, alt, where) for alt in spec]
        if all(problems):
            return next(p for p in problems if p)
        return None
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return f"{where or 'the file'} is {_kind(value)}, not an object"
        for key, sub in spec.items():
            name = key.rstrip("?")
            if name not in value:
                if key.endswith("?"):
                    continue
                return f"{where + '.' if where else ''}{name} is missing"
            problem = shape_problem(value[name], sub, f"{where + '.' if where else ''}{name}")
            if problem:
                return problem
        return None
    if isinstance(spec, list):
        if not isinstance(value, list):
            return f"{where} is {_kind(value)}, not a list"
        for i, item in enumerate(value):
            problem = shape_problem(item, spec[0], f"{where}[{i}]")
            if problem:
                return problem
        return None
    ok = CHECKS[spec](value)
    return None if ok else f"{where} is {_kind(value)}, not {'a finite number' if spec == 'num' else spec}"


# Every count, score and time in a result file fits a signed 64-bit integer; a larger one (a hand-edited
# 10**400) is refused as the file's error, and never reaches float() or a table's formatting.
INT_LIMIT = 1 << 63


def _in_range(value: Any) -> bool:
    return type(value) is int and -INT_LIMIT < value < INT_LIMIT


CHECKS = {
    "int": _in_range,
    "num": lambda value: _in_range(value) or (type(value) is float and math.isfinite(value)),
    "str": lambda value: isinstance(value, str),
    "bool": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "object": lambda value: isinstance(value, dict),
}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if type(value) is int and not _in_range(value):
        return "an integer out of range (beyond 2**63)"
    names = {bool: "a boolean", int: "an int", float: "a number", str: "a string", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def read_result_file(path: Path) -> Any:
    """A result file's JSON (NaN and Infinity refused); one error naming it if it cannot be read or parsed."""
    try:
        return json.loads(read_regular(path), parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BoggleI18nError(f"result file {path} is not JSON") from None
    except OSError as exc:
        raise BoggleI18nError(f"cannot read result file {path}: {exc.strerror or exc}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def load_results(folder: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(result files, known boards) from `folder`; a malformed file is an error naming it."""
    if not folder.is_dir():
        raise BoggleI18nError(f"no results folder {folder}")
    runs = []
    for path in sorted(folder.glob("*.json")):
        if path.name == "known.json":
            continue
        data = read_result_file(path)
        if isinstance(data, dict) and data.get("kind") in ("proof", "proof-estimate"):
            continue  # a `prove` result or estimate: prove/records.py renders those
        missing = [k for k in REQUIRED if not isinstance(data, dict) or k not in data]
        if missing:
            raise BoggleI18nError(f"result file {path} lacks {', '.join(missing)} (write it with optimize --output)")
        problem = shape_problem(data, RUN_SHAPE)
        if problem:
            raise BoggleI18nError(f"result file {path}: {problem} (write it with optimize --output)")
        data["_file"] = path.name
        runs.append(data)
    known: list[dict[str, Any]] = []
    known_path = folder / "known.json"
    if known_path.is_file():
        try:
            known = read_result_file(known_path)
        except BoggleI18nError:
            raise BoggleI18nError(f"{known_path} is not JSON") from None
        problem = shape_problem(known, KNOWN_SHAPE, "known")
        if problem:
            raise BoggleI18nError(f"{known_path}: {problem}")
    return runs, known


def _space(run: dict[str, Any]) -> str:
    dice = run["settings"].get("dice")
    return f"dice `{dice}`" if dice else "free letters"


def _rules(run: dict[str, Any]) -> str:
    rules = run["settings"]["rules"]
    diag = "" if rules.get("diagonals", True) else ", no diagonals"
    return f"{rules['scoring']['name']}, {rules['min_length']}+ letters{diag}"


def result_size(run: Mapping[str, Any]) -> str | None:
    """`RxC` of a result file (optimize or prove): its `rows` and `cols`, or, in files written before the one
    JSON vocabulary, `settings.size`; None if it has neither."""
    size = (run.get("settings") or {}).get("size")
    if size:
        return str(size)
    if "rows" in run and "cols" in run:
        return f"{run['rows']}x{run['cols']}"
    return None


def _size(run: dict[str, Any]) -> str:
    return str(result_size(run))


def _group_key(run: dict[str, Any]) -> tuple[str, str, str, str]:
    s = run["settings"]
    return (s["lexicon"], _size(run), _space(run), _rules(run))


def _when(run: dict[str, Any]) -> str:
    return str(run.get("started", "")).replace("T", " ").replace("Z", " UTC")


def render_results(
    runs: Iterable[dict[str, Any]], known: list[dict[str, Any]], stale: dict[str, Any] | None = None
) -> str:
    """The Markdown page; `stale` (file name -> `stale.Freshness`) marks results whose lexicon changed."""
    runs = list(runs)
    stale = stale or {}
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for run in runs:
        groups.setdefault(_group_key(run), []).append(run)
    out = [
        "# Highest-scoring boards found",
        "",
        "Written by `boggle-i18n results` from the result files in `results/` (each written by",
        "`boggle-i18n optimize ... --output FILE`); do not edit by hand. Boards are shown in canonical",
        "form (the first of their rotations and reflections), so a published board may appear turned.",
        "Times are wall-clock seconds on the machine named at the end, which other jobs may have shared",
        "(a run's `settings.machine.load_average` in its file, where recorded, says how busy it was).",
        "",
        "## Best board per lexicon, size and dice",
        "",
        "| lexicon | size | boards | rules | best score | words | board | published | found by | seed | time |",
        "| --- | --- | --- | --- | ---: | ---: | --- | --- | --- | ---: | --- |",
    ]
    for key in sorted(groups):
        lexicon, size, space, rules = key
        best_run = max(groups[key], key=lambda r: (r["best"][0]["score"] if r["best"] else -1, -r["seconds"]))
        if not best_run["best"]:
            continue
        b = best_run["best"][0]
        pub = _published(known, best_run)
        at = best_run.get("best_at")
        time_text = f"{at:.0f} s of {best_run['seconds']:.0f} s" if at is not None else f"{best_run['seconds']:.0f} s"
        note = stale[best_run["_file"]].note() if best_run["_file"] in stale else ""
        score = f"{b['score']} ({note})" if note else str(b["score"])
        out.append(
            f"| {lexicon} | {size} | {space} | {rules} | {score} | {b['n_words']} | `{b['board']}` | {pub} "
            f"| `{best_run['command']}` | {best_run['seed']} | {time_text} |"
        )
    target_runs = [r for r in runs if r["settings"].get("target") is not None]
    if target_runs:
        out += ["", "## Runs to a target score", ""]
        by_setup: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for r in target_runs:
            key = (
                *_group_key(r),
                r["strategy"],
                r.get("workers", 1),
                r["settings"]["target"],
                r["settings"].get("time_limit"),
            )
            by_setup.setdefault(key, []).append(r)
        for key, group in sorted(by_setup.items(), key=lambda kv: str(kv[0])):
            lexicon, size, space, rules, strategy, workers, target, limit = key
            hits = [r for r in group if r["stopped"] == "target"]
            times = [r["seconds"] for r in hits]
            median = f"{statistics.median(times):.0f} s" if times else "n/a"
            all_times = [r["seconds"] for r in group]  # a miss counts as its full run: a lower bound
            median_all = statistics.median(all_times)
            out += [
                f"### {lexicon} {size}, {space}: target {target}, strategy {strategy}, {workers} worker(s), "
                f"limit {limit:.0f} s"
                if limit
                else f"### {lexicon} {size}, {space}: target {target}",
                "",
                f"Reached in {len(hits)} of {len(group)} seeds; median time to the target {median} over the seeds "
                f"that reached it, {median_all:.0f} s over all {len(group)} (a miss counted as its whole run).",
                "",
                "| seed | reached | seconds | best | board | boards scored | boards/s | command |",
                "| ---: | --- | ---: | ---: | --- | ---: | ---: | --- |",
            ]
            for r in sorted(group, key=lambda r: r["seed"]):
                b = r["best"][0] if r["best"] else {"score": "-", "board": "-"}
                out.append(
                    f"| {r['seed']} | {'yes' if r['stopped'] == 'target' else 'no'} | {r['seconds']:.1f} "
                    f"| {b['score']} | `{b['board']}` | {r['boards_evaluated']:,} "
                    f"| {r.get('boards_per_second') or '-'} "
                    f"| `{r['command']}` |"
                )
    out += [
        "",
        "## Every run",
        "",
        "| file | lexicon | size | boards | strategy | workers | seed | seconds | stopped | best | started |",
        "| --- | --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    for r in sorted(runs, key=lambda r: r["_file"]):
        best = r["best"][0]["score"] if r["best"] else "-"
        out.append(
            f"| {r['_file']} | {r['settings']['lexicon']} | {_size(r)} | {_space(r)} | {r['strategy']} "
            f"| {r.get('workers', 1)} | {r['seed']} | {r['seconds']:.1f} | {r['stopped']} | {best} | {_when(r)} |"
        )
    machines = {
        json.dumps({k: v for k, v in r["settings"].get("machine", {}).items() if k != "load_average"}, sort_keys=True)
        for r in runs
    }
    if machines:
        out += ["", "Machines: " + "; ".join(sorted(_machine(json.loads(m)) for m in machines)) + "."]
    return "\n".join(out) + "\n"


def _machine(m: dict[str, Any]) -> str:
    return f"{m.get('cpus', '?')} CPUs, Python {m.get('python', '?')}, {m.get('platform', '?')}"


def _published(known: list[dict[str, Any]], run: dict[str, Any]) -> str:
    """The published board for this run's lexicon, size, dice and (when the entry names them) rules."""
    settings = run["settings"]
    rules = settings["rules"]
    for k in known:
        if (k.get("lexicon"), k.get("size"), k.get("dice")) != (
            settings["lexicon"],
            _size(run),
            settings.get("dice"),
        ):
            continue
        if "min_length" in k and k["min_length"] != rules["min_length"]:
            continue
        if "scoring" in k and k["scoring"] != rules["scoring"]["name"]:
            continue
        same = ""
        if run["best"] and _same_board(k["board"], run["best"][0]["board"], _size(run)):
            same = ", the same board up to symmetry"
        return f"{k['score']} `{k['board']}` ({k.get('source', '')}{same})"
    return "none known"


def _same_board(published: str, found: str, size: str) -> bool:
    """Whether two boards in `solve` notation are one board up to rotation and reflection."""
    from ..board.notation import parse_board, parse_size
    from .canonical import canonical

    try:
        shape = parse_size(size)
        return canonical(parse_board(published.lower(), {}, shape)) == canonical(parse_board(found, {}, shape))
    except BoggleI18nError:
        return False
