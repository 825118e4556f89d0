"""`prove`: the best boards, proven by branch and bound (the library decides; this parses and prints)."""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..language.selection import select
from ..limits import check, workers_for
from . import app
from .common import OutputOption, StoreOption, check_output, emit, handle_errors, load_or_build, note, to_json, warn
from .framework import Option


@app.command("prove")
@handle_errors
def prove_cmd(
    lang: str | None = Option(None, "--lang", "-l", metavar="CODE", help="Language: its lexicon, faces and rules."),
    lexicon_name: str | None = Option(
        None, "--lexicon", metavar="NAME", help="Lexicon to use instead of the language's."
    ),
    size: str = Option("3x3", "--size", metavar="RxC", help="Board shape."),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = Option(None, "--min-length", metavar="N", help="Shortest word that counts."),
    scoring: str | None = Option(None, "--scoring", metavar="TABLE", help="Scoring preset or table."),
    threshold: int | None = Option(
        None,
        "--threshold",
        metavar="N",
        help="Report every board scoring at least this [default: the best of a short optimize run].",
    ),
    buckets: str | None = Option(
        None,
        "--buckets",
        metavar="K|C/E/I",
        help="Face buckets per cell of a class: K on every cell but the --open ones (default: the corners from 3x3 "
        "up), or C/E/I per corner/edge/inner cell (1 = every face; 3/3/3: 3 on every cell); with --estimate, a comma "
        "list of schemes to compare [default: the size's measured best].",
    ),
    open_cells: int | None = Option(
        None, "--open", metavar="N", help="Cells (whole symmetry orbits) that take every face [default: corners]."
    ),
    tasks: int | None = Option(
        None,
        "--tasks",
        metavar="N",
        help="Cut the classes into about N tasks (the unit of work and checkpoint) [default: 1000; with --resume, "
        "as the checkpoint was cut].",
    ),
    workers: int = Option(1, "--workers", "-w", metavar="N", help="Local worker processes (0: one per core)."),
    cluster: str | None = Option(
        None, "--cluster", metavar="ADDRESS", help="Dask scheduler address: run the classes there."
    ),
    checkpoint: Path | None = Option(
        None, "--checkpoint", metavar="FILE", help="Record finished tasks here (resume with --resume)."
    ),
    resume: bool = Option(False, "--resume", help="Continue the proof in --checkpoint FILE."),
    do_estimate: bool = Option(
        False, "--estimate", help="Time a random sample of classes and project the whole proof's CPU time."
    ),
    sample: int = Option(200, "--sample", metavar="N", help="--estimate: classes to time."),
    seed: int = Option(1, "--seed", metavar="N", help="--estimate: the random sample's seed."),
    json_out: bool = Option(False, "--json", help="Print one JSON object."),
    output: Path | None = OutputOption,
    store: Path | None = StoreOption,
) -> None:
    """Prove the best boards by exhaustive branch and bound: every board scoring at least the threshold."""
    from ..optimize.problem import free_faces
    from ..prove.checkpoint import checkpoint_lock
    from ..prove.prover import estimate, found_threshold, proof_spec, prove

    for name, value, option in (
        ("threshold", threshold, "--threshold"),
        ("open_cells", open_cells, "--open"),
        ("sample", sample, "--sample"),
        ("min_length", min_length, "--min-length"),
        ("seed", seed, "--seed"),
        ("tasks", tasks, "--tasks"),
    ):
        if value is not None:
            check(name, value, option)
    workers = workers_for(workers)
    shape = parse_size(size)
    schemes = _schemes(buckets, open_cells, do_estimate)
    chosen = select(
        lang=lang,
        lexicon=lexicon_name,
        size=shape,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        store=store,
    ).for_size(shape)
    for message in chosen.warnings:
        warn(message)
    if resume and checkpoint is None:
        raise BoggleI18nError("--resume needs --checkpoint FILE")
    hold = ExitStack()
    if checkpoint is not None and not do_estimate:
        # before any costly work (a build, the threshold search): a second run on this checkpoint is refused
        # now, naming the first, and whether the checkpoint exists is decided while no one else can make it
        hold.enter_context(checkpoint_lock(checkpoint))
    with hold:
        if checkpoint is not None and os.path.lexists(checkpoint) and not resume and not do_estimate:
            raise BoggleI18nError(f"checkpoint {checkpoint} exists: add --resume to continue it, or remove it")
        check_output(output)  # a folder, a missing or read-only folder: said now, not after hours of work
        name = chosen.require_lexicon()
        lexicon = load_or_build(name, store)
        faces = free_faces(chosen.language.code, shape, lexicon)
        vowels = chosen.language.vowels
        source = "--threshold"
        block: int | None = None
        if resume and checkpoint is not None and checkpoint.exists():
            from ..prove.checkpoint import read_checkpoint
            from ..prove.tasks import classes_of

            identity, _, _ = read_checkpoint(checkpoint)
            if threshold is None:
                threshold, source = int(identity["threshold"]), f"the checkpoint {checkpoint}"
                check("threshold", threshold, "the checkpoint's threshold")
            if buckets is None and open_cells is None:  # the classes it began with, whatever today's default
                scheme, open_cells = classes_of(identity)
                schemes = [scheme]
            if tasks is None and type(identity.get("block")) is int:  # and its tasks, whatever --tasks it was run with
                block = identity["block"]
        if threshold is None:
            note("finding a threshold: optimize for 10 s ...")
            threshold, source = found_threshold(lexicon, chosen.rules, shape, faces, workers=workers)
            note(f"threshold {threshold} from {source}")
        specs = [
            proof_spec(
                lexicon,
                chosen.rules,
                shape,
                faces,
                vowels,
                threshold,
                buckets=b,
                open_count=open_cells,
                tasks_wanted=1000 if tasks is None else tasks,
                block=block,
            )
            for b in schemes
        ]
        started = time.time()
        if do_estimate:
            estimates = []
            for spec in specs:
                est = estimate(spec, sample=sample, seed=seed)
                if len(specs) > 1:
                    note(_render_estimate_line(est.to_dict()))
                estimates.append((est, spec))
            est, spec = min(estimates, key=lambda pair: pair[0].total_seconds)
            data: dict[str, Any] = {
                "kind": "proof-estimate",
                "threshold": threshold,
                "threshold_source": source,
                "estimate": est.to_dict(),
                "rows": shape[0],
                "cols": shape[1],
                "lang": chosen.language.code,
                "settings": spec.identity(),
            }
            if len(specs) > 1:
                data["compared"] = [e.to_dict() for e, _ in estimates]
            _finish(data, started, json_out, output, _render_estimate)
            return
        spec = specs[0]
        display = _Display()
        try:
            result = prove(
                spec,
                threshold_source=source,
                workers=workers,
                cluster=cluster,
                checkpoint=checkpoint,
                resume=resume,
                on_progress=display.update,
            )
        except KeyboardInterrupt:
            display.close()
            if checkpoint is not None:
                note(f"stopped; finished tasks are in {checkpoint}: run the same command with --resume to continue")
            raise
        display.close()
        for message in result.notes:
            warn(message)
        data = result.to_dict()
        data["lang"] = chosen.language.code
        _finish(data, started, json_out, output, _render)


def _schemes(buckets: str | None, open_cells: int | None, estimating: bool) -> list[Any]:
    """The class schemes asked for: None (the size's default), K buckets (an int, with --open), or Schemes."""
    from ..prove.classes import Scheme

    if buckets is None:
        return [None]
    texts = [t.strip() for t in buckets.split(",")]
    if len(texts) > 1 and not estimating:
        raise BoggleI18nError("a list of --buckets schemes is for --estimate (which compares them)")
    out: list[Any] = []
    for text in texts:
        if text.isdigit():
            out.append(int(check("buckets", int(text), "--buckets")))
        else:
            if open_cells is not None:
                raise BoggleI18nError("--open goes with --buckets K; a scheme C/E/I opens cells with 1 bucket")
            out.append(Scheme.parse(text))
    return out


def _finish(data: dict[str, Any], started: float, json_out: bool, output: Path | None, render: Any) -> None:
    data["command"] = shlex.join(["boggle-i18n", *sys.argv[1:]])
    data["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
    emit(to_json(data) if json_out or output else render(data), output)
    if output is not None and not json_out:
        sys.stdout.write(render(data) + "\n")


def _buckets(settings: dict[str, Any]) -> str:
    """`4`, or per cell where the cells take different counts."""
    if "cell_buckets" in settings:
        return ",".join(str(r) for r in settings["cell_buckets"])
    return str(len(settings["buckets"]))


def _render(data: dict[str, Any]) -> str:
    s = data["settings"]
    rules = s["rules"]
    best = data["proven_best"]
    state = (
        "proven" if data["complete"] else f"NOT complete ({data['tasks']['done']} of {data['tasks']['total']} tasks)"
    )
    lines = [
        f"lexicon {s['lexicon']}; {data['rows']}x{data['cols']}, {len(s['faces'])} faces; {rules['scoring']['name']}, "
        f"{rules['min_length']}+ letters{'' if rules.get('diagonals', True) else ', no diagonals'}",
        f"threshold {data['threshold']} ({data['threshold_source']})",
        f"{data['classes']:,} classes in {_buckets(s)} buckets, {data['tasks']['done']} of "
        f"{data['tasks']['total']} tasks; {data['cpu_seconds']:.1f} CPU s, {data['wall_seconds']:.1f} s wall, "
        f"{data['workers']} worker{'s' if data['workers'] != 1 else ''}",
        "",
    ]
    if best is not None:
        lines.append(f"{state}: best board {best['board']} = {best['score']} ({best['n_words']} words)")
    elif data["complete"]:
        lines.append(f"{state}: no board scores {data['threshold']} or more")
    else:
        lines.append(state)
    if data["boards"]:
        lines += ["", f"{'#':>3}  {'score':>6}  {'words':>5}  board (every board at or above the threshold)"]
        for i, b in enumerate(data["boards"], 1):
            lines.append(f"{i:>3}  {b['score']:>6}  {b['n_words']:>5}  {b['board']}")
    return "\n".join(lines)


def _render_estimate_line(e: dict[str, Any]) -> str:
    low, high = e["cpu_seconds_95"]
    return (
        f"buckets {e.get('scheme') or '?'}: {e['classes_total']:,} classes, {e['sampled']} timed, "
        f"projected {_duration(e['cpu_seconds'], cpu=True)} "
        f"(95% {_duration(low, cpu=True)} to {_duration(high, cpu=True)})"
    )


def _render_estimate(data: dict[str, Any]) -> str:
    e = data["estimate"]
    s = data["settings"]
    low, high = e["cpu_seconds_95"]
    lines = [
        f"lexicon {s['lexicon']}; {s['rows']}x{s['cols']}; threshold {data['threshold']} ({data['threshold_source']})",
    ]
    for other in data.get("compared", []):
        lines.append("  " + _render_estimate_line(other))
    quantiles = ", ".join(f"{k} {v:.3g} s" for k, v in e.get("class_seconds_quantiles", {}).items())
    lines += [
        f"buckets {e.get('scheme') or len(s['buckets'])}: {e['classes_total']:,} canonical classes; {e['sampled']} "
        f"timed (seed {e.get('seed', 1)}), mean {e['mean_class_seconds'] * 1000:.2f} ms, "
        f"slowest {e['slowest_class_seconds']:.2f} s",
        *([f"class CPU seconds over every class: {quantiles}"] if quantiles else []),
        f"projected CPU time: {_duration(e['cpu_seconds'], cpu=True)} "
        f"(95% interval {_duration(low, cpu=True)} to {_duration(high, cpu=True)})",
    ]
    if e.get("strata"):
        lines += ["", "  vowel cells      classes  sampled  mean class s  slowest s  projected"]
        for st in e["strata"]:
            lo, hi = st["vowel_cells"]
            lines.append(
                f"  {f'{lo}-{hi}' if hi > lo else str(lo):>11}  {st['classes']:>11,}  {st['sampled']:>7}  "
                f"{st['mean_class_seconds']:>12.3f}  {st['slowest_class_seconds']:>9.2f}  "
                f"{_duration(st['cpu_seconds'], cpu=True)}"
            )
    return "\n".join(lines)


def _duration(seconds: float, cpu: bool = False) -> str:
    """Seconds as s, min or hours; `cpu` says CPU time (summed over workers) rather than time on the clock."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:,.1f} {'CPU-hours' if cpu else 'hours'}"


class _Display:
    """Progress on stderr: a live line on a terminal; otherwise (a log file) a line per tenth of the classes
    done, and at the first finished task after `LOG_EVERY` seconds without a line, so the log of a long proof
    (whose first tenth, its heaviest classes, may take hours) still shows it running."""

    LOG_EVERY = 300.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.tty = sys.stderr.isatty()
        self.shown = False
        self.next_tenth = 1
        self.clock = clock
        self.last_line = clock()

    def update(self, p: Any) -> None:
        eta = p.eta_seconds
        left = f"  about {_duration(eta)} left" if eta is not None else ""
        best = f"  best {p.best}" if p.best >= 0 else ""
        classes = f"{p.classes_done:,}" + (f"/{p.classes_total:,}" if p.classes_total is not None else "")
        line = f"tasks {p.tasks_done}/{p.tasks_total}  classes {classes}  CPU {p.cpu_seconds:,.0f} s{best}{left}"
        counted = p.classes_total is not None
        done, total = (p.classes_done, p.classes_total) if counted else (p.tasks_done, p.tasks_total)
        if self.tty:
            width = 24
            filled = int(width * done / max(total, 1))
            sys.stderr.write("\r[" + "#" * filled + "." * (width - filled) + "] " + line.ljust(70)[:100])
            sys.stderr.flush()
            self.shown = True
            return
        tenth = done * 10 >= self.next_tenth * total
        while done * 10 >= self.next_tenth * total and self.next_tenth <= 10:
            self.next_tenth += 1
        now = self.clock()
        if tenth or now - self.last_line >= self.LOG_EVERY:
            self.last_line = now
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            self.shown = False
