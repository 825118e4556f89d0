"""Run the command line inside this process, as a test does: `CliRunner().invoke(app, ["solve", ...])`.

Standard input, output and error are replaced by in-memory streams for the run (each with a binary
`buffer`, as the real ones have), environment variables may be set or removed, and the result holds
what was written (stdout, stderr, and both interleaved as `output`) and the exit code.
"""

from __future__ import annotations

import io
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from . import App


class Result:
    """What one run wrote and how it ended."""

    def __init__(self, stdout: bytes, stderr: bytes, output: bytes, exit_code: int, exception: BaseException | None):
        self.stdout_bytes = stdout
        self.stderr_bytes = stderr
        self.output_bytes = output
        self.exit_code = exit_code
        self.exception = exception

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8", "replace").replace("\r\n", "\n")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "replace").replace("\r\n", "\n")

    @property
    def output(self) -> str:
        """Standard output and error interleaved, as a terminal shows them."""
        return self.output_bytes.decode("utf-8", "replace").replace("\r\n", "\n")

    def __repr__(self) -> str:
        return f"<Result exit_code={self.exit_code} exception={self.exception!r}>"


class _Tee(io.BytesIO):
    """A captured stream that also copies what it is given into the shared, interleaved output."""

    def __init__(self, shared: io.BytesIO) -> None:
        super().__init__()
        self._shared = shared

    def write(self, data: Any) -> int:
        self._shared.write(data)
        return super().write(data)

    def close(self) -> None:
        """Kept open when the text stream over it is dropped: the result is read after the run."""


class CliRunner:
    """Invokes the command line with captured streams (the interface of Click's runner that tests use)."""

    def invoke(
        self,
        app: App,
        args: Sequence[str] = (),
        input: str | bytes | None = None,
        env: Mapping[str, str | None] | None = None,
        catch_exceptions: bool = True,
    ) -> Result:
        data = input.encode("utf-8") if isinstance(input, str) else (input or b"")
        shared = io.BytesIO()
        out, err = _Tee(shared), _Tee(shared)
        saved_streams = sys.stdin, sys.stdout, sys.stderr
        saved_env = {name: os.environ.get(name) for name in (env or {})}
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
        for name, value in (env or {}).items():
            _set_env(name, value)
        exit_code = 0
        exception: BaseException | None = None
        try:
            app(list(args))
        except SystemExit as exc:
            exit_code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            exception = exc if exit_code else None
        except Exception as exc:
            if not catch_exceptions:
                raise
            exit_code, exception = 1, exc
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            for name, value in saved_env.items():
                _set_env(name, value)
        return Result(out.getvalue(), err.getvalue(), shared.getvalue(), exit_code, exception)


def _set_env(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
