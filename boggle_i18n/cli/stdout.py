"""The one path every command's standard output takes: every byte written or one `Error:` line, never a cut.

Python's own standard output loses data silently in one case: unbuffered
(`PYTHONUNBUFFERED=1` or `-u`, set in many container images) its text layer
writes straight to the file descriptor and ignores a short write. On a nearly
full disk the first write that does not fit is cut short, the next ones fail
with nothing said, and the command exits 0 leaving a 4,096-byte file. Buffered,
a failed write is raised only when the buffer is flushed, which may be at exit
(`Exception ignored ...`, exit 120).

`install` puts a `CheckedWriter` under `sys.stdout` (keeping its encoding and
buffering), which writes every byte or raises: `OutputError` ("cannot write
standard output: No space left on device"), or the `BrokenPipeError` that a
reader leaving (`| head -1`) raises anyway. `finish` flushes at the end of the
command and says whether any write failed, so a command that caught the error
and went on still exits non-zero.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from ..errors import OutputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class CheckedWriter(io.RawIOBase):
    """A raw writer on descriptor `fd` whose `write` writes all of its bytes (looping over short writes) or raises.

    After a failure it is broken: later writes are dropped (the failure was raised once and is reported once;
    the interpreter's exit flush must not raise it again), and `failure` keeps what went wrong.
    """

    def __init__(self, fd: int, label: str = "standard output") -> None:
        super().__init__()
        self._fd = fd
        self.label = label
        self.failure: str | None = None
        self.broken_pipe = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        try:
            return os.isatty(self._fd)
        except OSError:
            return False

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        if self.failure is not None:
            return total
        while view:
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:  # a non-blocking descriptor (a pipe set so by another process): wait
                import select

                select.select([], [self._fd], [])
                continue
            except OSError as exc:
                self._fail(exc)
            if written == 0:  # POSIX allows it only for a zero-length write; never loop on it
                self._fail(OSError(errno.EIO, "nothing was written"))
            view = view[written:]
        return total

    def _fail(self, exc: OSError) -> None:
        self.failure = exc.strerror or str(exc)
        self.broken_pipe = exc.errno == errno.EPIPE
        if self.broken_pipe:  # the reader left: reported quietly, as Unix tools do (cli/errors.py)
            raise exc
        raise OutputError(f"cannot write {self.label}: {self.failure}") from None


def install() -> None:
    """Put standard output on a `CheckedWriter`, as buffered as it was (see the module); idempotent.

    A stand-in standard output (a test's capture, a closed stream) is left as it is.
    """
    stream = sys.stdout
    if type(stream) is not io.TextIOWrapper:
        return
    layer = getattr(stream, "buffer", None)
    raw = getattr(layer, "raw", layer)
    if type(raw) is not io.FileIO or raw.closed:
        return
    try:
        stream.flush()
        fd = raw.fileno()
    except (OSError, ValueError):
        return
    checked = CheckedWriter(fd)
    unbuffered = type(layer) is io.FileIO
    binary: Any = checked if unbuffered else io.BufferedWriter(checked)
    sys.stdout = io.TextIOWrapper(
        binary,
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=unbuffered or stream.write_through,
    )
    _INSTALLED["stream"] = sys.stdout
    _INSTALLED["writer"] = checked
    _INSTALLED["original"] = stream  # kept: it must not be finalised (its descriptor is 1, not closed by it)


_INSTALLED: dict[str, Any] = {}


def finish(failed: bool = False) -> None:
    """Flush standard output at the end of a command: raises as a write does, and raises again a write's
    failure that the command caught and went past, so a cut output never ends with exit 0 (unless the command
    `failed` already: its own error was said)."""
    sys.stdout.flush()
    writer = _INSTALLED.get("writer")
    if failed or writer is None or _INSTALLED.get("stream") is not sys.stdout or writer.failure is None:
        return
    if writer.broken_pipe:
        raise BrokenPipeError(errno.EPIPE, writer.failure)
    raise OutputError(f"cannot write {writer.label}: {writer.failure}")
