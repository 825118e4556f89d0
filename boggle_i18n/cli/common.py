"""What every command shares: one-line errors, output to stdout or a file, stderr notes and warnings."""

from __future__ import annotations

import errno
import os
import sys
import time

from .. import jsontext
from ..api import load_lexicon
from ..errors import BoggleI18nError
from ..lexicon.store import Lexicon
from .errors import exit_code, os_error_message, say_interrupted
from .framework import Exit, Option, echo

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing`, `pathlib` and `contextlib` are not on a cold solve's path
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> Exit:
    """Print `Error: message` on stderr and return the exit to raise (`interrupted`: said once, exit 130)."""
    if code == 130:
        say_interrupted()
    else:
        echo(f"Error: {message}", err=True)
    return Exit(code)


def handle_errors(command: F) -> F:
    """Turn library errors into one `Error:` line and exit 1, never a traceback.

    The top-level group (`cli.errors.OneLineErrorGroup`) does the same for every
    command; this decorator keeps a command safe when it is run on its own.
    """

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BoggleI18nError as exc:
            raise fail(str(exc), exit_code(exc)) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # `... | head -1`: the group ends quietly, as Unix tools do
                raise
            raise fail(os_error_message(exc)) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None

    # functools.wraps by hand (functools is not loaded on a cold command's path): cli/framework reads __wrapped__
    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(wrapper, name, getattr(command, name))
    wrapper.__wrapped__ = command  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def note(message: str) -> None:
    """Progress and seeds go to stderr, so stdout stays clean for results."""
    echo(message, err=True)


def warn(message: str) -> None:
    """A result that may not be what the user meant: one `Warning:` line on stderr."""
    echo(f"Warning: {message}", err=True)


def building_note(name: str, seconds: float | None = None) -> None:
    """Said when a command had to build a lexicon before it could answer."""
    took = f" in {seconds:.1f} s" if seconds is not None else ""
    note(f"lexicon {name!r} was not built yet: built it first{took}")


def load_or_build(name: str, store: Path | None) -> Lexicon:
    """Load lexicon `name`, building it first if needed, and say so on stderr.

    A build on first use says its language and the list it will read before it starts (the library's note) and,
    on a terminal, shows how far it has read (the library's progress task, cli/progress.py); the note that it
    was built, with its time, comes after. A list that cannot be had is one `Error:` line naming what to do.
    """
    built: list[str] = []
    started = time.perf_counter()
    status: Any = None
    if sys.stderr.isatty():
        from rich.console import Console

        status = Console(stderr=True).status(f"loading lexicon {name}...")

    def on_build(built_name: str) -> None:
        built.append(built_name)
        if status is not None:
            status.stop()  # the build shows its own progress line: one live line at a time

    if status is None:
        lexicon = load_lexicon(name, store, on_build=on_build, progress=_build_note)
    else:
        with status:
            lexicon = load_lexicon(name, store, on_build=on_build, progress=_build_note)
    if built:
        building_note(built[0], time.perf_counter() - started)
    return lexicon


def _build_note(message: str) -> None:
    """The first-use build's opening note (language and source); its other notes are for `build-lexicon`."""
    if message.startswith("building lexicon "):
        note(message)


def emit(text: str, output: Path | None = None) -> None:
    """Write a result to stdout (no `output`, or `-`), or safely to the file `output`.

    A regular file is replaced atomically and keeps its mode (a new one gets the
    umask); devices, pipes and `/dev/stdout` are written through; a symlink's
    target is written (see `storage.write_file`).
    """
    if not text.endswith("\n"):
        text += "\n"
    if output is not None:  # the file-writing rules load only when a file is asked for (not on a plain solve)
        from ..storage import STDOUT, write_output

        if str(output) != STDOUT:
            try:
                write_output(output, text)
            except BoggleI18nError:
                # Checked before the work (`check_output`), yet it failed now: the result is not lost, it goes
                # to stdout.
                _to_stdout(text)
                raise
            note(f"wrote {output}")
            return
    _to_stdout(text)


def _to_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def check_output(output: str | os.PathLike[str] | None) -> None:
    """`storage.check_output` before the work, its module loaded only when there is an `--output` to check."""
    if output is not None:
        from ..storage import check_output as check

        check(output)


def to_json(data: Any, *, depth: int = 2) -> str:
    """JSON as people and `jq` like it: UTF-8, its outer `depth` levels indented, each deeper value on one line.

    A solve's words then read one per line (`{"word": ..., "path": [[0, 1], ...]}`) instead of one path
    number per line, and the C encoder writes them: `indent=2` throughout runs Python's encoder, 40 ms for a
    4x4 board's 1,000 words, a fifth of a cold `solve`.
    """
    return _indented(data, 0, depth)


def _indented(data: Any, level: int, depth: int) -> str:
    if level >= depth or not isinstance(data, (dict, list)) or not data:
        return jsontext.dumps(data, ensure_ascii=False)
    pad, end = "  " * (level + 1), "  " * level
    if isinstance(data, dict):
        if not all(isinstance(key, str) for key in data):
            return jsontext.dumps(data, ensure_ascii=False)  # json's own key conversion (int -> "1")
        items = [
            f"{pad}{jsontext.dumps(key, ensure_ascii=False)}: {_indented(value, level + 1, depth)}"
            for key, value in data.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    lines = _one_line_each(data) if level + 1 >= depth else [_indented(value, level + 1, depth) for value in data]
    return "[\n" + ",\n".join(pad + line for line in lines) + "\n" + end + "]"


def _one_line_each(values: list[Any]) -> list[str]:
    """`json.dumps` of each value, from one call for the whole list when it can be cut apart exactly.

    One call per value costs about 9 us of set-up each, four times the encoding of a solve's word with its
    path. The list is encoded once and cut at the `}, {` (or `], [`) between its values: each such gap
    makes one, so when the text holds exactly len - 1 of them, none lies inside a value and the cut is exact;
    otherwise (a value holding one, or values of mixed kinds) each value is encoded alone.
    """
    kinds = {type(value) for value in values}
    if len(values) > 1 and (kinds == {dict} or kinds == {list}) and all(values):
        opening, closing = ("{", "}") if kinds == {dict} else ("[", "]")
        gap = f"{closing}, {opening}"
        text = jsontext.dumps(values, ensure_ascii=False, check_circular=False)  # data, not a graph: no cycles
        if text.count(gap) == len(values) - 1:
            parts = text[2:-2].split(gap)
            return [opening + part + closing for part in parts]
    return [jsontext.dumps(value, ensure_ascii=False) for value in values]


def check_store(path: Path | None) -> Path | None:
    """`--store DIR` for every command that takes it: a folder, or a path where one can be made later.

    A file, a FIFO or a device given as the store is refused before any work, as one `Error:` line,
    whichever command it is (`serve` would otherwise start and fail on every request). `None` checks the
    store used without `--store` ($BOGGLE_I18N_HOME or the user data folder): `serve` asks that too.
    """
    import stat

    from ..folders import file_kind, store_folder

    where = store_folder(path)  # `~` expanded (one error for `~nosuchuser`)
    try:
        mode = os.stat(where).st_mode
    except FileNotFoundError:
        return path  # made when a first lexicon is built there
    except NotADirectoryError:
        raise BoggleI18nError(f"lexicon store {where} is not a folder: a part of its path is a file") from None
    except OSError:
        return path  # unreadable: the command says so, naming what it could not read
    if not stat.S_ISDIR(mode):
        raise BoggleI18nError(f"lexicon store {where} is not a folder (it is {file_kind(mode)})")
    return path


StoreOption = Option(
    None,
    "--store",
    metavar="DIR",
    help="Lexicon store folder [default: $BOGGLE_I18N_HOME or the user data folder].",
    show_default=False,
    check=check_store,
)

OutputOption = Option(
    None,
    "--output",
    "-o",
    metavar="FILE",
    help="Write the result to FILE instead of stdout; - is stdout. A regular file is replaced atomically "
    "(keeping its mode), a device, pipe or symlink target is written through.",
    show_default=False,
)
