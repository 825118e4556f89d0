"""`results`: write docs/results.md from optimize and prove result files."""

from __future__ import annotations

from pathlib import Path

import typer

from ..storage import check_output
from . import app
from .common import StoreOption, emit, handle_errors, note


@app.command("results")
@handle_errors
def results_cmd(
    folder: Path = typer.Argument(
        Path("results"), metavar="DIR", help="Folder of result files (optimize --output FILE)."
    ),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        metavar="FILE",
        help="Write the page here (atomically), e.g. docs/results.md [default: stdout].",
    ),
    rescore: bool = typer.Option(
        False, "--rescore", help="Score the best board of each stale result again with today's lexicon."
    ),
    store: Path | None = StoreOption,
) -> None:
    """Render the best boards found (optimize) and proven (prove), per lexicon, size and dice, and the
    projected costs of proofs (prove --estimate), from result files.

    A result whose lexicon's trie sha256 differs from the lexicon built in the store is
    marked stale (lexicons not built there are not checked); stale files are named on stderr.
    """
    from ..optimize.results import load_results, render_results
    from ..optimize.stale import check_runs
    from ..prove.records import load_estimates, load_proofs, render_estimates, render_proofs

    check_output(output)
    runs, known = load_results(folder)
    fresh = check_runs(runs, store, rescore=rescore)
    proofs = load_proofs(folder)
    proofs_fresh = check_runs(proofs, store)
    for name, state in sorted({**fresh, **proofs_fresh}.items()):
        if state.state == "stale":
            note(f"{name}: {state.note()}")
    page = render_results(runs, known, fresh) + render_proofs(proofs, runs, proofs_fresh)
    emit(page + render_estimates(load_estimates(folder)), output)
