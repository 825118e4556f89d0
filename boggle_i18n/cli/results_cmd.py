"""`results`: write docs/results.md from optimize result files."""

from __future__ import annotations

from pathlib import Path

import typer

from . import app
from .common import emit, handle_errors


@app.command("results")
@handle_errors
def results_cmd(
    folder: Path = typer.Argument(Path("results"), help="Folder of result files (optimize --output FILE)."),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the page here (atomically), e.g. docs/results.md [default: stdout]."
    ),
) -> None:
    """Render the best boards found (optimize) and proven (prove), per lexicon, size and dice, from result files."""
    from ..optimize.results import load_results, render_results
    from ..prove.records import load_proofs, render_proofs

    runs, known = load_results(folder)
    emit(render_results(runs, known) + render_proofs(load_proofs(folder), runs), output)
