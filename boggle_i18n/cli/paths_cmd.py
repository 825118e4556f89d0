"""`paths`: how many simple paths a dictionary-less solver would explore on a board shape."""

from __future__ import annotations

import time

from ..board.notation import parse_size
from ..board.paths import PathCounts, count_paths
from . import app
from .common import emit, handle_errors, note, to_json
from .framework import Option


@app.command("paths")
@handle_errors
def paths_cmd(
    size: str = Option(..., "--size", metavar="RxC", help="Board size RxC, e.g. 4x4 or 3x5 (at most 64 cells)."),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    max_length: int | None = Option(
        None, "--max-length", metavar="N", help="Longest path counted, in cells [default: every cell]."
    ),
    json_out: bool = Option(False, "--json", help="Print total and the per-length table as JSON."),
) -> None:
    """Count the simple paths (each cell at most once, either direction) of length 1..N on a board."""
    rows, cols = parse_size(size)
    started = time.perf_counter()
    counts = count_paths(rows, cols, diagonals=not no_diagonals, max_length=max_length)
    note(f"counted in {time.perf_counter() - started:.2f} s")
    emit(to_json(counts_to_dict(counts)) if json_out else render_counts(counts))


def counts_to_dict(counts: PathCounts) -> dict[str, object]:
    """The JSON form: shape, total and one row per length."""
    return {
        "rows": counts.rows,
        "cols": counts.cols,
        "diagonals": counts.diagonals,
        "max_length": counts.max_length,
        "total": counts.total,
        "by_length": [
            {"length": k, "paths": n, "cumulative": c}
            for k, (n, c) in enumerate(zip(counts.by_length, counts.cumulative(), strict=True), start=1)
        ],
    }


def render_counts(counts: PathCounts) -> str:
    """A table of paths per length with running totals, then the total."""
    mode = "diagonals on" if counts.diagonals else "diagonals off"
    rows = [
        (str(k), f"{n:,}", f"{c:,}")
        for k, (n, c) in enumerate(zip(counts.by_length, counts.cumulative(), strict=True), start=1)
    ]
    header = ("length", "paths", "cumulative")
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(3)]
    lines = [
        f"simple paths on a {counts.rows}x{counts.cols} board, {mode}: each cell at most once, "
        "counted in both directions",
        "  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True)),
        *("  ".join(v.rjust(w) for v, w in zip(row, widths, strict=True)) for row in rows),
        f"total {counts.total:,} paths of length 1..{counts.max_length}",
    ]
    return "\n".join(lines)
