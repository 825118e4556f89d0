"""`compare`: score random boards across languages (the figures come from `boggle_i18n.compare`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..board.notation import parse_size
from ..errors import BoggleI18nError

if TYPE_CHECKING:
    from ..comparison.compare import LanguageResult

from . import app
from .common import StoreOption, emit, handle_errors, load_or_build, note, to_json
from .framework import Argument, Option
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


def summary_line(
    results: Sequence[LanguageResult], seed: int, roll: str | None = None, apart: Sequence[str] = ()
) -> str:
    """What every figure rests on: size, boards, seed, basis and rules, and how per-language seeds are made."""
    from ..comparison.compare import basis

    r = results[0]
    lines = [
        f"{counted(r.stats['n_boards'], f'random {r.rows}x{r.cols} board')} per language, --seed {seed} "
        "(each language's own seed: compare.language_seed(seed, code), in --json); fast engine"
    ]
    b = basis(roll, (r.rows, r.cols))
    if roll is None or roll == "own":
        lines.append(
            "MIXED BASIS (--roll own): each language's own dice set (else letters) and rules; "
            "boards from dice and from letters are not comparable; drop --roll own for one basis"
        )
    else:
        rules = b["rules"]
        lines.append(
            f"one basis: --roll {roll}, {b['note']}; {rules['min_length']}+ letters, {rules['scoring']} for all"
        )
    if apart:
        lines.append(f"reported apart, no {r.rows}x{r.cols} dice set: {', '.join(apart)} (use --roll letters)")
    return "\n".join(lines)


@app.command("compare")
@handle_errors
def compare_cmd(
    langs: list[str] = Argument(..., metavar="LANG", help="Language codes (see `boggle-i18n languages`)."),
    size: str = Option("4x4", "--size", metavar="RxC", help="Board size."),
    boards: int = Option(1000, "--boards", "-n", metavar="N", help="Random boards per language."),
    seed: int = Option(0, "--seed", metavar="N", help="Seed; each language's seed is derived from it."),
    optimize_time: float | None = Option(
        None,
        "--optimize-time",
        metavar="SECONDS",
        help="Also run the optimizer for SECONDS seconds per language and report its best board.",
        show_default=False,
    ),
    plot: Path | None = Option(
        None,
        "--plot",
        metavar="FILE",
        help="Write score distributions per language to FILE (.png or .svg; needs the [plot] extra).",
        show_default=False,
    ),
    roll: str | None = Option(
        None,
        "--roll",
        metavar="letters|dice|own",
        help="The basis, one for every language: boards from each letter distribution (all languages), or from "
        "each dice set (languages without one reported apart); rules then by size, the same for all "
        "(4x4: 3+ letters, classic-4x4; 5x5: 4+, big-5x5; 6x6+: 4+, superbig-6x6). Default: dice when every "
        "language named has a dice set of the size, else letters. `own` mixes bases (each language's own "
        "dice or letters and rules), and the table says so.",
        show_default=False,
    ),
    tier: str = Option(
        "full",
        "--tier",
        metavar="full|common",
        help="Lexicon tier: the full default lexicon, or its common-words tier (NAME-common: words at least "
        "Zipf 3 frequent in wordfreq; needs the [frequency] extra); languages without one reported apart.",
    ),
    json_out: bool = Option(False, "--json", help="JSON: every figure, and every board rolled with its score."),
    store: Path | None = StoreOption,
) -> None:
    """Compare languages on one basis: roll N boards per language (every language's dice set of that size
    when all have one, else every language's letter distribution derived from its lexicon; --roll to choose),
    score them under one rule set and tabulate mean, median, p90 and max scores,
    words per board, the share of boards under 10 points and the longest words found.

    Lexicons not built yet are built first from the system word list.
    """
    from ..comparison.compare import (
        basis,
        check_request,
        compare,
        default_roll,
        table_headers,
        table_rows,
        without_dice,
        without_tier,
    )

    shape = parse_size(size)
    roll = roll.strip().lower() if roll is not None else None
    tier = tier.strip().lower()
    check_request(langs, shape, boards, optimize_time, roll, tier, seed)
    roll = default_roll(langs, shape, roll)
    apart = without_dice(langs, shape) if roll == "dice" else []
    if apart and len(apart) == len(langs):
        raise BoggleI18nError(f"no language named has a {size} dice set: use --roll letters")
    no_tier = without_tier(langs, tier) if tier != "full" else []
    if len(set(apart) | set(no_tier)) == len(langs):
        raise BoggleI18nError(f"no language named has a {tier} tier (no frequency source covers it)")
    if plot is not None:
        from ..comparison.plot import check_plot_path, require_matplotlib

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
        roll=roll,
        tier=tier,
    )
    if plot is not None:
        from ..comparison.plot import plot_scores

        plot_scores(results, plot, seed)
        note(f"wrote {plot}")
    if json_out:
        data = {"rows": shape[0], "cols": shape[1], "n_boards": boards, "seed": seed, "basis": basis(roll, shape, tier)}
        data.update(without_dice=apart, without_tier=no_tier)
        emit(to_json({**data, "languages": [r.to_dict() for r in results]}))
        return
    summary = summary_line(results, seed, roll, apart)
    if tier != "full":
        summary += f"\ntier: {tier} (each language's NAME-{tier} lexicon)"
        if no_tier:
            summary += f"; reported apart, no {tier} tier: {', '.join(no_tier)}"
    emit(render_table(table_headers(results), table_rows(results)) + "\n\n" + summary)
