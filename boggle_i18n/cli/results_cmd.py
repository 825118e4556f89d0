"""`results`: write docs/results.md from optimize and prove result files."""

from __future__ import annotations

from pathlib import Path

from . import app
from .common import StoreOption, check_output, emit, handle_errors, note
from .framework import Argument, Option


@app.command("results")
@handle_errors
def results_cmd(
    folder: Path | None = Argument(
        None,
        metavar="DIR",
        help="Render only the result files in this folder (optimize/prove --output FILE), without the shipped "
        "records, as docs/results.md is written from results/. Not with --results [default: the records shipped "
        "with boggle-i18n].",
        show_default=False,
    ),
    results: Path | None = Option(
        None,
        "--results",
        metavar="DIR",
        help="Add the result files in this folder to the records shipped with boggle-i18n (a file of the same "
        "name replaces the shipped one). Not with DIR.",
        show_default=False,
    ),
    output: Path | None = Option(
        None,
        "--output",
        "-o",
        metavar="FILE",
        help="Write the page here (atomically), e.g. docs/results.md [default: stdout].",
    ),
    rescore: bool = Option(
        False, "--rescore", help="Score the best board of each stale result again with today's lexicon."
    ),
    store: Path | None = StoreOption,
) -> None:
    """Render the best boards found (optimize) and proven (prove), per lexicon, size and dice, and the
    projected costs of proofs (prove --estimate).

    With no folder: the records shipped with boggle-i18n. With --results DIR: those plus the result files in
    DIR. With DIR (the argument): the result files in DIR alone. Cost estimates come from the folder given.

    A result whose lexicon's trie sha256 differs from the lexicon built in the store is
    marked stale (lexicons not built there are not checked); stale files are named on stderr.
    """
    from ..errors import BoggleI18nError
    from ..optimize.results import load_results, render_results
    from ..optimize.stale import check_runs
    from ..prove.records import load_estimates, load_proofs, render_estimates, render_proofs
    from ..prove.shipped import load_records

    check_output(output)
    if folder is not None and results is not None:
        raise BoggleI18nError(
            "give a folder to render on its own (DIR) or one to add to the shipped records (--results), not both"
        )
    for given in (folder, results):
        if given is not None and not given.is_dir():
            raise BoggleI18nError(f"no results folder {given}")
    if folder is not None:  # that folder on its own (docs/results.md from results/)
        runs, known = load_results(folder)
        proofs = load_proofs(folder)
    else:  # the shipped records, plus --results DIR
        runs, known, proofs = load_records(results)
    folder = folder or results
    fresh = check_runs(runs, store, rescore=rescore)
    proofs_fresh = check_runs(proofs, store)
    for name, state in sorted({**fresh, **proofs_fresh}.items()):
        if state.state == "stale":
            note(f"{name}: {state.note()}")
    page = render_results(runs, known, fresh) + render_proofs(proofs, runs, proofs_fresh)
    emit(page + render_estimates(load_estimates(folder) if folder is not None else []), output)
