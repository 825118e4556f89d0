"""What every command shares: one-line errors, output to stdout or a file, stderr notes."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from ..errors import BoggleI18nError
from ..storage import atomic_write_text

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print `Error: message` on stderr and return the exit to raise."""
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(code)


def handle_errors(command: F) -> F:
    """Turn library errors into one `Error:` line and exit 1, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoggleI18nError as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            where = f" {exc.filename}" if exc.filename else ""
            raise fail(f"{exc.strerror or exc}{where}") from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None

    return wrapper  # type: ignore[return-value]


def note(message: str) -> None:
    """Progress and seeds go to stderr, so stdout stays clean for results."""
    typer.echo(message, err=True)


def building_note(name: str) -> None:
    """Said when a command has to build a lexicon before it can answer."""
    note(f"lexicon {name!r} is not built yet: building it first")


def emit(text: str, output: Path | None = None) -> None:
    """Write a result to stdout, or atomically to `output`."""
    if not text.endswith("\n"):
        text += "\n"
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        atomic_write_text(output, text)
        note(f"wrote {output}")


def to_json(data: Any) -> str:
    """JSON as people and `jq` like it: UTF-8, indented."""
    return json.dumps(data, ensure_ascii=False, indent=2)


StoreOption = typer.Option(
    None,
    "--store",
    help="Lexicon store folder [default: $BOGGLE_I18N_HOME or the user data folder].",
    show_default=False,
)
