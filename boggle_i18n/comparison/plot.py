"""The comparison plot: score distributions per language, side by side (matplotlib, an optional extra).

matplotlib is imported only here and only when a plot is asked for; without it
the caller gets one line saying how to install it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from ..storage import write_file
from .compare import LanguageResult

FORMATS = (".png", ".svg")
INSTALL_HINT = "--plot needs matplotlib: pip install 'boggle-i18n[plot]' (or pip install matplotlib)"
DICE_COLOUR = "#4c72b0"
DISTRIBUTION_COLOUR = "#dd8452"


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """A plot path ends in .png or .svg, in an existing folder (checked before any work is done)."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise BoggleI18nError(f"--plot {out}: the file must end in .png or .svg")
    if not out.absolute().parent.is_dir():
        raise BoggleI18nError(f"--plot {out}: no folder {out.absolute().parent}")
    return out


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, never a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise BoggleI18nError(INSTALL_HINT) from None
    return plt


def require_matplotlib() -> None:
    """One `Error:` line now, rather than after scoring, if matplotlib is missing."""
    _pyplot()


def plot_scores(results: Sequence[LanguageResult], path: str | os.PathLike[str], seed: int) -> Path:
    """Box plots of every language's scores (symlog axis), dice and distribution boards coloured apart.

    Boxes are the quartiles, whiskers the 5th and 95th percentiles, a dot the
    mean; the label under each box says its board source. Written atomically.
    """
    out = check_plot_path(path)
    plt = _pyplot()
    from matplotlib.patches import Patch
    from matplotlib.ticker import ScalarFormatter

    rows, cols = results[0].rows, results[0].cols
    n = results[0].stats["n_boards"]
    fig, ax = plt.subplots(figsize=(min(14.0, max(7.0, 0.55 * len(results) + 2.5)), 6.4), dpi=110)
    data = [r.scores for r in results]
    boxes = ax.boxplot(
        data,
        whis=(5, 95),
        showfliers=False,
        showmeans=True,
        patch_artist=True,
        widths=0.6,
        meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 4},
        medianprops={"color": "black"},
    )
    for patch, r in zip(boxes["boxes"], results, strict=True):
        patch.set_facecolor(DICE_COLOUR if r.source.kind == "dice" else DISTRIBUTION_COLOUR)
    for i, r in enumerate(results, start=1):  # the best board's score, as a small tick
        ax.plot([i], [r.stats["max"]], marker="_", color="black", markersize=10)
    ax.set_xticks(range(1, len(results) + 1))
    ax.set_xticklabels([r.lang + ("*" if r.status == "beta" else "") for r in results])
    ax.set_yscale("symlog", linthresh=1, linscale=0.25)  # log above 1 point, so 0-point boards still show
    ax.set_ylim(0, 2 * max(r.stats["max"] for r in results) + 1)
    ax.yaxis.set_major_formatter(ScalarFormatter())
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.set_ylabel("score per board (symmetric log scale)")
    ax.set_title(f"Scores of {n:,} random {rows}x{cols} boards per language (compare --seed {seed})")
    ax.legend(
        handles=[
            Patch(facecolor=DICE_COLOUR, label="sourced dice set"),
            Patch(facecolor=DISTRIBUTION_COLOUR, label="letter distribution from the lexicon (no dice)"),
        ],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.08),
        ncol=2,
        fontsize="small",
        title="box: quartiles, whiskers: 5-95%, o: mean, -: max; * beta",
        title_fontsize="x-small",
    )
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=out.suffix.lower().lstrip("."))
    plt.close(fig)
    write_file(out, buffer.getvalue())
    return out
