"""`compare`: score random boards across languages (the figures come from `boggle_i18n.compare`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..board.notation import parse_size

if TYPE_CHECKING:
    from ..compare import LanguageResult

from . import app
from .common import StoreOption, emit, handle_errors, load_or_build, note, to_json
from .render import counted


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain text table: columns padded, numbers right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    numeric = [all(_is_number(r[i]) for r in rows) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric, strict=True)]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _is_number(text: str) -> bool:
    return text.replace(",", "").replace(".", "").replace("%", "").isdigit()


def summary_line(results: Sequence[LanguageResult], seed: int) -> str:
    """What every figure rests on: size, boards, seed, and how per-language seeds are made."""
    r = results[0]
    return (
        f"{counted(r.stats['n_boards'], f'random {r.rows}x{r.cols} board')} per language, --seed {seed} "
        "(each language's own seed: compare.language_seed(seed, code), in --json); fast engine"
    )


@app.command("compare")
@handle_errors
def compare_cmd(
    langs: list[str] = typer.Argument(..., metavar="LANG", help="Language codes (see `boggle-i18n languages`)."),
    size: str = typer.Option("4x4", "--size", metavar="RxC", help="Board size."),
    boards: int = typer.Option(1000, "--boards", "-n", metavar="N", help="Random boards per language."),
    seed: int = typer.Option(0, "--seed", metavar="N", help="Seed; each language's seed is derived from it."),
    optimize_time: float | None = typer.Option(
        None,
        "--optimize-time",
        metavar="SECONDS",
        help="Also run the optimizer for SECONDS seconds per language and report its best board.",
        show_default=False,
    ),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        metavar="FILE",
        help="Write score distributions per language to FILE (.png or .svg; needs the [plot] extra).",
        show_default=False,
    ),
    json_out: bool = typer.Option(False, "--json", help="JSON: every figure, and every board rolled with its score."),
    store: Path | None = StoreOption,
) -> None:
    """Compare languages: roll N boards per language (its dice set of that size, else a letter distribution
    derived from its lexicon, as labelled), score them and tabulate mean, median, p90 and max scores,
    words per board, the share of boards under 10 points and the longest words found.

    Lexicons not built yet are built first from the system word list.
    """
    from ..compare import check_request, compare, table_headers, table_rows  # only when the command runs

    shape = parse_size(size)
    check_request(langs, shape, boards, optimize_time, seed)
    if plot is not None:
        from ..compare_plot import check_plot_path, require_matplotlib

        check_plot_path(plot)
        require_matplotlib()
    results = compare(
        langs,
        size=shape,
        n_boards=boards,
        seed=seed,
        store=store,
        optimize_time=optimize_time,
        loader=lambda name: load_or_build(name, store),
        progress=note,
    )
    if plot is not None:
        from ..compare_plot import plot_scores

        plot_scores(results, plot, seed)
        note(f"wrote {plot}")
    if json_out:
        data = {"rows": shape[0], "cols": shape[1], "n_boards": boards, "seed": seed}
        emit(to_json({**data, "languages": [r.to_dict() for r in results]}))
        return
    emit(render_table(table_headers(results), table_rows(results)) + "\n\n" + summary_line(results, seed))
