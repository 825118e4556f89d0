"""`optimize`: search for the highest-scoring boards (the library decides; this parses and prints)."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import Any

from ..api import new_seed
from ..board.notation import parse_size
from ..solver.base import get_solver
from ..solving import search_selection
from . import app
from .common import (
    OutputOption,
    StoreOption,
    check_output,
    emit,
    fail,
    handle_errors,
    load_or_build,
    note,
    to_json,
    warn,
)
from .framework import Option
from .render import counted


@app.command("optimize")
@handle_errors
def optimize_cmd(
    lang: str | None = Option(
        None, "--lang", "-l", metavar="CODE", help="Language: its lexicon, dice faces and rules."
    ),
    lexicon_name: str | None = Option(
        None, "--lexicon", metavar="NAME", help="Lexicon to use instead of the language's."
    ),
    dice: str | None = Option(
        None, "--dice", metavar="SET", help="Only boards this dice set can roll (its rules apply)."
    ),
    size: str | None = Option(None, "--size", metavar="RxC", help="Board shape RxC [default: the dice set's, or 4x4]."),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = Option(None, "--min-length", metavar="N", help="Shortest word that counts."),
    scoring: str | None = Option(
        None, "--scoring", metavar="TABLE", help="Scoring preset or table (word-count: most words)."
    ),
    engine: str = Option("fast", "--engine", metavar="NAME", help="Scoring engine: fast, numba or reference."),
    strategy: str = Option("hill", "--strategy", metavar="NAME", help="hill, anneal or pool."),
    restarts: int | None = Option(None, "--restarts", metavar="N", help="Stop after this many restarts."),
    iterations: int | None = Option(
        None, "--iterations", metavar="N", help="Per restart: hill climbs, anneal proposals or pool rounds."
    ),
    time_limit: float | None = Option(
        None, "--time-limit", metavar="SECONDS", help="Stop after this many seconds [default: 60 without --restarts]."
    ),
    target: int | None = Option(None, "--target", metavar="N", help="Stop as soon as a board scores this much."),
    seed: int | None = Option(None, "--seed", metavar="N", help="Random seed [default: a fresh one, echoed]."),
    workers: int = Option(1, "--workers", "-w", metavar="N", help="Local worker processes (0: one per core)."),
    cluster: str | None = Option(
        None,
        "--cluster",
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786): run restarts on its workers.",
    ),
    top: int = Option(10, "--top", metavar="N", help="How many distinct boards to report."),
    pool_size: int = Option(200, "--pool", metavar="N", help="Pool strategy: boards kept per round."),
    json_out: bool = Option(False, "--json", help="Print one JSON object."),
    output: Path | None = OutputOption,
    store: Path | None = StoreOption,
) -> None:
    """Search for the highest-scoring boards; Ctrl-C or --time-limit stops and reports the best so far."""
    from ..optimize.optimizer import check_request
    from ..optimize.problem import free_faces
    from ..optimize.strategies import Params

    check_output(output)  # before the search: a result that cannot be written is known now, not after an hour
    if seed is None:
        seed = new_seed()
    workers = check_request(
        strategy=strategy,
        shape=parse_size(size) if size else (4, 4),
        seed=seed,
        restarts=restarts,
        iterations=iterations,
        time_limit=time_limit,
        target=target,
        workers=workers,
        top=top,
        pool=pool_size,
    )
    get_solver(engine)  # an unknown engine is a usage error, before any work
    chosen = search_selection(
        lang=lang,
        lexicon=lexicon_name,
        dice=dice,
        size=parse_size(size) if size else None,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        store=store,
    )
    shape = chosen.size or (4, 4)
    name = chosen.require_lexicon()
    lang = chosen.language.code
    rules = chosen.rules
    for message in chosen.warnings:
        warn(message)
    if restarts is None and time_limit is None:
        time_limit = 60.0
    note(f"seed {seed}")
    lexicon = load_or_build(name, store)
    faces = None if dice else free_faces(lang, shape, lexicon)
    from ..optimize import optimize

    display = _Display()
    started = time.time()
    result = optimize(
        lexicon,
        rules,
        shape,
        dice=dice,
        faces=faces,
        strategy=strategy,
        seed=seed,
        restarts=restarts,
        iterations=iterations,
        time_limit=time_limit,
        target=target,
        workers=workers,
        cluster=cluster,
        top=top,
        engine=engine,
        params=Params(pool=pool_size),
        on_progress=display.update,
    )
    display.close()
    data = result.to_dict()
    data["command"] = shlex.join(["boggle-i18n", *sys.argv[1:]])
    data["started"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
    data["lang"] = lang
    for error in result.errors:
        note(f"warning: {error}")
    emit(to_json(data) if json_out or output else render(data), output)
    if output is not None and not json_out:
        sys.stdout.write(render(data) + "\n")
    if result.stopped == "interrupted":  # the best so far is out; the exit says it was cut short, as everywhere
        raise fail("interrupted", 130)


# What `stopped` (in --json) says, as the report's "stopped by ..." phrase.
STOPPED = {
    "restarts": "the restart count",
    "time-limit": "the time limit",
    "target": "the target",
    "interrupted": "interrupt",
}


def render(data: dict[str, Any]) -> str:
    """The text report: settings, then the top boards."""
    s = data["settings"]
    space = f"dice {s['dice']}" if s["dice"] else f"free letters ({len(s['faces'])} faces)"
    lines = [
        f"lexicon {s['lexicon']} ({counted(s['word_count'], 'word')}); {data['rows']}x{data['cols']}, {space}; "
        f"strategy {data['strategy']}",
        f"seed {data['seed']}; {counted(data['restarts'], 'restart')}, {counted(data['boards_evaluated'], 'board')} "
        f"in {data['seconds']:.1f} s; stopped by {STOPPED.get(data['stopped'], data['stopped'])}"
        + (f"; best first seen at {data['best_at']:.1f} s" if data["best_at"] is not None else ""),
        "",
        f"{'#':>3}  {'score':>6}  {'words':>5}  board",
    ]
    for i, b in enumerate(data["best"], 1):
        lines.append(f"{i:>3}  {b['score']:>6}  {b['n_words']:>5}  {b['board']}")
    return "\n".join(lines)


class _Display:
    """Progress on stderr: a live line on a terminal, a line per new best otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.best = -1
        self.shown = False

    def update(self, p: Any) -> None:
        rate = p.evaluated / p.elapsed if p.elapsed > 0 else 0.0
        line = (
            f"best {p.best_score}  {p.evaluated:,} boards  {rate:,.0f} boards/s  {p.elapsed:.0f} s  "
            f"{counted(p.restarts, 'restart')}"
        )
        if self.tty:
            sys.stderr.write("\r" + line.ljust(78)[:110])
            sys.stderr.flush()
            self.shown = True
        elif p.best_score > self.best:
            sys.stderr.write(line + "\n")
        self.best = max(self.best, p.best_score)

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
