"""The `boggle-i18n` command: a thin layer over the library, on the project's own small framework.

Commands load lazily: `COMMANDS` names the module that defines each one, and
`app` imports a command's module only when that command runs (or when the help
lists every command), so `boggle-i18n solve` never imports the optimiser, the
prover, the web server or the build pipeline's command modules. Each command is
declared once, in its module (`@app.command`, see `framework.py`), and its
help, parsing and checks all come from that one declaration.
"""

from __future__ import annotations

import gc
import sys

from .. import __version__
from .errors import run_reporting
from .framework import Command, HelpRequested, UsageError, echo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

PROG = "boggle-i18n"
ABOUT = "Multilingual Boggle: build lexicons from raw word lists, roll and solve boards."

# Command -> the module of this package that defines it (with `@app.command`), in the help's order.
COMMANDS = {
    "compare": "compare_cmd",
    "languages": "languages_cmd",
    "build-lexicon": "lexicon_cmds",
    "lexicons": "lexicon_cmds",
    "remove-lexicon": "lexicon_cmds",
    "dice": "lexicon_cmds",
    "export-web": "export_web_cmd",
    "judge": "judge_cmd",
    "lookup": "lookup_cmd",
    "optimize": "optimize_cmd",
    "paths": "paths_cmd",
    "prove": "prove_cmd",
    "random": "random_cmd",
    "results": "results_cmd",
    "score": "score_cmd",
    "serve": "serve_cmd",
    "solve": "solve_cmd",
    "word": "word_cmd",
}
GLOBAL_OPTIONS = (("--version", "Show the version."),)


class App:
    """The command group: commands register here when their module is imported."""

    def __init__(self) -> None:
        self.commands: dict[str, Command] = {}

    def command(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the command `name`."""

        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            self.commands[name] = Command(name, function)
            return function

        return register

    def __call__(self, args: Sequence[str] | None = None) -> None:
        """Run the command line `args` (default: `sys.argv[1:]`) and exit with its code."""
        run_reporting(lambda: self.run(list(sys.argv[1:] if args is None else args)))

    def run(self, args: list[str]) -> int | None:
        """Parse the group's own options, then run the command named (a UsageError when there is none)."""
        while args and args[0].startswith("-"):
            option = args.pop(0)
            if option == "--version":
                echo(f"{PROG} {__version__}")
                return 0
            if option == "--help":
                return self.show_help()
            raise UsageError(f"No such option: {option}")
        if not args:  # bare `boggle-i18n`: the help
            return self.show_help()
        name = args.pop(0)
        if name not in COMMANDS:
            raise UsageError(f"No such command '{name}'.")
        command = load_command(name)
        try:
            parsed = command.parse(args)
        except HelpRequested:
            from .help import command_help

            echo(command_help(PROG, command))
            return 0
        command.function(**parsed)
        return 0

    def show_help(self) -> int:
        from .help import group_help

        echo(group_help(PROG, ABOUT, GLOBAL_OPTIONS, [load_command(name) for name in COMMANDS]))
        return 0


app = App()


def load_command(name: str) -> Command:
    """The command `name`, its module imported (which registers it on `app`).

    The collector is paused meanwhile, as `launch.main` does for the command line itself: the command's
    modules (for `solve` most of the library) allocate only what lives for the whole run, and collections
    during that import cost a cold `solve` about 8 ms. What they leave is frozen out of later collections.
    """
    command = app.commands.get(name)
    if command is not None:
        return command
    enabled = gc.isenabled()
    gc.disable()
    try:
        __import__(f"{__name__}.{COMMANDS[name]}")  # registers it (importlib itself is not loaded on this path)
    finally:
        if enabled:
            gc.freeze()
            gc.enable()
    return app.commands[name]


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
