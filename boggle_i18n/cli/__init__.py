"""The `boggle-i18n` command: a thin Typer layer over the library."""

from __future__ import annotations

import typer

from .. import __version__

app = typer.Typer(
    name="boggle-i18n",
    help="Multilingual Boggle: build lexicons from raw word lists, roll and solve boards.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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


from . import lexicon_cmds, optimize_cmd, random_cmd, results_cmd, solve_cmd  # noqa: E402,F401  (commands register on import)


def main() -> None:
    """Console-script entry point."""
    app()
