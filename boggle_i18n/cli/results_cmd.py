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
    folder: Path | None = typer.Argument(
        None,
        metavar="DIR",
        help="Your own folder of result files (optimize/prove --output FILE), added to the shipped records.",
        show_default=False,
    ),
    results: Path | None = typer.Option(
        None,
        "--results",
        metavar="DIR",
        help="The same as DIR: your result files, added to the shipped ones.",
        show_default=False,
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
    projected costs of proofs (prove --estimate), from the records shipped with boggle-i18n plus your result files.

    A result whose lexicon's trie sha256 differs from the lexicon built in the store is
    marked stale (lexicons not built there are not checked); stale files are named on stderr.
    """
    from ..errors import BoggleI18nError
    from ..optimize.results import render_results
    from ..optimize.stale import check_runs
    from ..prove.records import load_estimates, render_estimates, render_proofs
    from ..prove.shipped import load_records

    check_output(output)
    if folder is not None and results is not None and folder != results:
        raise BoggleI18nError("give your results folder as DIR or with --results, not both")
    folder = folder or results
    if folder is not None and not folder.is_dir():
        raise BoggleI18nError(f"no results folder {folder}")
    runs, known, proofs = load_records(folder)
    fresh = check_runs(runs, store, rescore=rescore)
    proofs_fresh = check_runs(proofs, store)
    for name, state in sorted({**fresh, **proofs_fresh}.items()):
        if state.state == "stale":
            note(f"{name}: {state.note()}")
    page = render_results(runs, known, fresh) + render_proofs(proofs, runs, proofs_fresh)
    emit(page + render_estimates(load_estimates(folder) if folder is not None else []), output)
