"""The `boggle-i18n` command: a thin Typer layer over the library.

Commands load lazily: `COMMANDS` names the module that defines each one, and
the group imports a command's module only when that command runs (or when the
help lists every command), so `boggle-i18n solve` never imports the optimiser,
the prover, the web server or the build pipeline's command modules.
"""

from __future__ import annotations

import gc
import importlib
from typing import Any

import typer

from .. import __version__
from .errors import OneLineErrorGroup

# Command -> the module of this package that defines it (with `@app.command`), in the help's order.
COMMANDS = {
    "compare": "compare_cmd",
    "languages": "languages_cmd",
    "build-lexicon": "lexicon_cmds",
    "lexicons": "lexicon_cmds",
    "remove-lexicon": "lexicon_cmds",
    "dice": "lexicon_cmds",
    "lookup": "lookup_cmd",
    "optimize": "optimize_cmd",
    "paths": "paths_cmd",
    "prove": "prove_cmd",
    "random": "random_cmd",
    "results": "results_cmd",
    "score": "score_cmd",
    "serve": "serve_cmd",
    "solve": "solve_cmd",
}


class LazyGroup(OneLineErrorGroup):
    """The top-level group: one `Error:` line for every error, and each command loaded when it is asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in COMMANDS:
            command = self.commands[cmd_name] = load_command(cmd_name)
        return command


def load_command(name: str) -> Any:
    """The Click command `name`: its module imported (which registers it on `app`), then converted by Typer.

    The collector is paused meanwhile, as `launch.main` does for the command line itself: the command's
    modules (for `solve` most of the library) allocate only what lives for the whole run, and collections
    during that import cost a cold `solve` about 8 ms. What they leave is frozen out of later collections.
    """
    from typer.main import get_command_from_info

    from .help import plain_help

    enabled = gc.isenabled()
    gc.disable()
    try:
        importlib.import_module(f".{COMMANDS[name]}", __name__)
        info = next(i for i in app.registered_commands if i.name == name)
        plain_help(info)
        return get_command_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
        )
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


app = typer.Typer(
    name="boggle-i18n",
    cls=LazyGroup,  # every user-caused error, usage errors included, is one `Error:` line
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


def main() -> None:
    """Console-script entry point."""
    from .progress import install

    install()  # long library work (a first compile, counting paths) shows on a terminal
    try:
        app()
    finally:
        # Everything left lives until exit anyway: frozen, the interpreter's last
        # collections skip it, which takes about 30 ms off every command's exit.
        gc.freeze()
