"""The `boggle-i18n` command: a thin Typer layer over the library."""

from __future__ import annotations

import gc

import typer

from .. import __version__
from .errors import OneLineErrorGroup

app = typer.Typer(
    name="boggle-i18n",
    cls=OneLineErrorGroup,  # every user-caused error, usage errors included, is one `Error:` line
    help="Multilingual Boggle: build lexicons from raw word lists, roll and solve boards.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich markup would eat [qu] and [default: ...]
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boggle-i18n {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Multilingual Boggle: build lexicons from raw word lists, roll and solve boards."""


# Commands register on import.
from . import (  # noqa: E402,F401
    compare_cmd,
    languages_cmd,
    lexicon_cmds,
    lookup_cmd,
    optimize_cmd,
    paths_cmd,
    prove_cmd,
    random_cmd,
    results_cmd,
    score_cmd,
    serve_cmd,
    solve_cmd,
)
from .help import use_plain_help  # noqa: E402

use_plain_help(app)  # after every command is registered: usage `NAME`, not `{name}`; no `<str>` labels


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    finally:
        # Everything left lives until exit anyway: frozen, the interpreter's last
        # collections skip it, which takes about 30 ms off every command's exit.
        gc.freeze()
