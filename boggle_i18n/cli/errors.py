"""One `Error:` line for every error a user can cause, whichever layer notices it.

`run_reporting` runs the command line and prints every error the same way:
`Error: <message>` on stderr, exit 2 for usage errors (an unknown option, a
missing argument, `--min-length 0`), 1 for the rest (the library's
`BoggleI18nError`s, unreadable or unwritable files), 130 on Ctrl-C. New commands
get this without doing anything.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from ..errors import BoggleI18nError, LimitError
from ..limits import clip
from .framework import Exit, UsageError, echo
from .stdout import finish as finish_output
from .stdout import install as install_checked_stdout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn


def one_line(text: str) -> str:
    """Collapse a message onto one line (Click's may hold newlines)."""
    return " ".join(text.split())


_INTERRUPTED = {"said": False}


def say_interrupted() -> None:
    """`Error: interrupted` on stderr, once however many layers see the Ctrl-C."""
    if not _INTERRUPTED["said"]:
        _INTERRUPTED["said"] = True
        echo("Error: interrupted", err=True)


def exit_with_error(message: str, code: int = 1) -> NoReturn:
    """Print `Error: message` on stderr and exit with `code`."""
    if code == 130:
        say_interrupted()
        _silence_stderr()  # the one line is said: a worker pool's threads dying with the process add nothing
    else:
        echo(f"Error: {one_line(message)}", err=True)
    sys.exit(code)


def exit_code(exc: BoggleI18nError) -> int:
    """2 for a number outside its range (a usage error, as Click's own), 1 for every other library error."""
    return 2 if isinstance(exc, LimitError) else 1


def os_error_message(exc: OSError) -> str:
    """`Permission denied: /path`, naming the file the error is about."""
    reason = exc.strerror or str(exc)
    return f"{reason}: {clip(str(exc.filename))}" if exc.filename else reason


def run_reporting(run: Callable[[], int | None]) -> NoReturn:
    """Run the command line and exit: every error a user can cause is one `Error:` line (see the module)."""
    _INTERRUPTED["said"] = False  # one command line, one report (tests run many in one process)
    guard_streams()
    try:
        try:
            code = run() or 0
        except Exit as exc:
            code = exc.exit_code
        finish_output(failed=code != 0)  # the last flush is checked too: a cut output never ends with exit 0
    except Exit as exc:
        code = exc.exit_code
    except UsageError as exc:
        exit_with_error(str(exc), exc.exit_code)
    except BoggleI18nError as exc:
        exit_with_error(str(exc), exit_code(exc))
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # `boggle-i18n dice | head -1`: the reader left, nothing to say
            _silence_stdout()
            sys.exit(1)
        exit_with_error(os_error_message(exc))
    except KeyboardInterrupt:
        exit_with_error("interrupted", 130)
    except EOFError:
        exit_with_error("end of input", 1)
    except MemoryError:  # the machine ran out while a command worked: said, not a traceback
        exit_with_error("out of memory: this command needs more memory than is free here", 1)
    except UnicodeEncodeError as exc:  # PYTHONIOENCODING=ascii and a word with an accent
        exit_with_error(
            f"standard output's encoding ({exc.encoding}) cannot write {exc.object[exc.start : exc.end]!r}; "
            "set PYTHONIOENCODING=utf-8 or a UTF-8 locale"
        )
    sys.exit(code)


class ClosedStream(io.TextIOBase):
    """Stands in for standard output when the shell closed it (`>&-`): a write is one `OSError` (EBADF), which
    `main` reports as one `Error:` line, instead of an AttributeError on None."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._label = name

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, f"{self._label} is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, f"{self._label} is closed")

    def flush(self) -> None:
        pass  # nothing was written; the interpreter's exit flush must not complain


class _ClosedInput(io.RawIOBase):
    """The raw stream under a stand-in standard input (`<&-`): reading it is one `OSError` (EBADF)."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(errno.EBADF, "standard input is closed")


def guard_streams() -> None:
    """Make closed standard streams fail cleanly, and let error messages through any stderr encoding."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedInput()), encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = ClosedStream("standard output")
    else:
        install_checked_stdout()  # every write checked, whether Python buffers standard output or not
    if sys.stderr is None:
        sys.stderr = io.TextIOWrapper(open(os.devnull, "wb"), encoding="utf-8")  # nowhere to say anything
    else:
        try:  # an `Error:` line naming `café.txt` under PYTHONIOENCODING=ascii: written as caf\xe9.txt
            sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


def _silence_stderr() -> None:
    """Point stderr at /dev/null (after the last `Error:` line of an interrupted run)."""
    try:
        sys.stderr.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so Python's exit flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
