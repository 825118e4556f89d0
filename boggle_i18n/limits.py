"""Every number a user can give, with its one documented range, checked where it enters the library.

The CLI, the Python API and any later front end pass user numbers through
`check()` (or a function that calls it: `select`, `parse_table`, `parse_size`,
`roll`, `optimize`, `compare`, `score_stream`), so a number outside its range is
one `LimitError` naming the option and the range, and no kernel ever sees it.
`docs/limits.md` is this table, written by `python -m boggle_i18n.limits`
(a test keeps the two the same).

Why the bounds are safe: a board holds at most 64x64 cells and a compiled trie
fewer than 2**32 words, and each distinct word counts once, so a board's total
is at most `MAX_POINTS * 2**32` = 4.3e15, far inside int64 (9.2e18): the C and
numba kernels' int64 sums cannot wrap.
"""

from __future__ import annotations

import math
import os

from .errors import LimitError
from .record import dataclass

MAX_SIDE = 64  # rows and columns of a board
MAX_WORD_LENGTH = MAX_SIDE * MAX_SIDE  # the longest word any board can hold
MAX_FACE_LETTERS = 255  # letters in one face: the kernels (C and numba) keep a face's length in one byte
MAX_POINTS = 1_000_000  # points for one word
MAX_WORDS = 2**32  # words a compiled trie can hold (node indices are 32-bit)
MAX_TOTAL = MAX_POINTS * MAX_WORDS  # the largest board total: every word counts once
INT64_MAX = 2**63 - 1
assert MAX_TOTAL < INT64_MAX


@dataclass(frozen=True)
class Limit:
    """A named range `lo..hi` (inclusive) and what the number means."""

    name: str
    lo: float
    hi: float
    what: str
    integer: bool = True

    def describe(self) -> str:
        """`1..64`, with thousands separators."""
        return f"{_num(self.lo)}..{_num(self.hi)}"


def _num(value: float) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:g}"
    return f"{int(value):,}"


LIMITS: dict[str, Limit] = {
    limit.name: limit
    for limit in (
        Limit("rows", 1, MAX_SIDE, "board rows (--size RxC, any command)"),
        Limit("cols", 1, MAX_SIDE, "board columns"),
        Limit("min_length", 1, MAX_WORD_LENGTH, "shortest word that counts, in letters (--min-length)"),
        Limit("word_length", 1, MAX_WORD_LENGTH, "a length in a scoring table (--scoring 3:1,...)"),
        Limit("points", 0, MAX_POINTS, "points for one word, in a scoring table or a preset's rule beyond it"),
        Limit("seed", 0, INT64_MAX, "random seed (random, compare, optimize; the API's seed=)"),
        Limit("boards", 1, 10_000_000, "random boards per language (compare --boards)"),
        Limit("count", 1, 10**12, "boards streamed by random --count"),
        Limit("workers", 0, 256, "workers (score, optimize --workers; 0: one per core)"),
        Limit("restarts", 1, 10**9, "optimize --restarts"),
        Limit("iterations", 1, 10**9, "optimize --iterations (per restart)"),
        Limit("top", 1, 10_000, "optimize --top (distinct boards reported)"),
        Limit("pool", 1, 100_000, "optimize --pool (boards kept per round)"),
        Limit("target", 0, MAX_TOTAL, "optimize --target (a board score)"),
        Limit("seconds", 0.001, 10**7, "a time in seconds (optimize --time-limit, compare --optimize-time)", False),
        Limit("max_length", 1, MAX_WORD_LENGTH, "paths --max-length (cells)"),
        Limit("face_letters", 1, MAX_FACE_LETTERS, "letters in one face of a board (`[qu]` is 2; a length byte)"),
        Limit("line_bytes", 1, 65_536, "one line of board input (score, solve --file), in bytes"),
        Limit("threshold", 0, MAX_TOTAL, "prove --threshold (a board score)"),
        Limit("buckets", 1, 16, "prove --buckets (face buckets per cell of a class)"),
        Limit("open_cells", 0, MAX_SIDE * MAX_SIDE, "prove --open (cells that take every face in every class)"),
        Limit("sample", 2, 1_000_000, "prove --estimate --sample (classes timed)"),
        Limit("tasks", 1, 10_000_000, "prove --tasks (tasks a proof is cut into)"),
    )
}

MAX_LINE = int(LIMITS["line_bytes"].hi)
# A raw word list (build-lexicon --source, a system list, a tool's output) is read in one pass within these:
MAX_SOURCE_ENTRY_BYTES = 4 * MAX_WORD_LENGTH  # one entry: the longest word a board holds, 4 UTF-8 bytes a letter
MAX_SOURCE_LINES = 50_000_000  # entries in one list (Debian's largest, Ukrainian, has 1.6 million)


def check(name: str, value: object, option: str | None = None) -> int | float:
    """Return `value` if it is inside limit `name`'s range, else raise one `LimitError` naming `option`."""
    limit = LIMITS[name]
    label = option or f"--{name.replace('_', '-')}"
    ok_type = isinstance(value, int) and not isinstance(value, bool)
    if not limit.integer:
        ok_type = ok_type or isinstance(value, float)
    if not ok_type:
        raise LimitError(
            f"{label} must be {'a whole number' if limit.integer else 'a number'}, not {value!r}",
            code="limit.not_number",
            params={"option": label, "value": clip(repr(value), 40)},
        )
    assert isinstance(value, int | float)
    if isinstance(value, float) and not math.isfinite(value):
        raise LimitError(
            f"{label} must be a finite number, not {value}",
            code="limit.not_number",
            params={"option": label, "value": str(value)},
        )
    if not limit.lo <= value <= limit.hi:
        raise LimitError(
            f"{label} must be in {limit.describe()}, not {clip(str(value), 40)}",
            code="limit.range",
            params={"option": label, "low": _param(limit.lo), "high": _param(limit.hi), "value": clip(str(value), 40)},
        )
    return value


def _param(bound: float) -> int | float | str:
    """A bound as the page formats it: a whole number as an int (`1e7` is 10,000,000, not 10000000.0), and one
    past JavaScript's exact integers (2**53) as its digits, which a number there would round."""
    if not float(bound).is_integer():
        return bound
    return int(bound) if abs(bound) <= 2**53 else str(int(bound))


def check_face(face: str, token: str | None = None) -> str:
    """`face` if it is at most `MAX_FACE_LETTERS` letters long, else one `LimitError` quoting it (cut short):
    every board enters through the notation parser or a face codec, and both call this, so no kernel ever meets
    a face whose length does not fit its length byte."""
    if len(face) <= MAX_FACE_LETTERS:
        return face
    shown = clip(token if token is not None else f"[{face}]", 40)
    raise LimitError(
        f"face {shown!r} has {len(face):,} letters, more than the {MAX_FACE_LETTERS} a face may hold",
        code="limit.range",
        params={"option": "a face's letters", "low": 1, "high": MAX_FACE_LETTERS, "value": str(len(face))},
    )


def workers_for(workers: int, option: str = "--workers") -> int:
    """A worker count as every command reads it: checked, and 0 meaning one per available core."""
    check("workers", workers, option)
    if workers:
        return int(workers)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def clip(text: str, limit: int = 80) -> str:
    """`text`, cut to `limit` characters with an ellipsis and its full length, for messages about long input."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} characters)"


def markdown() -> str:
    """docs/limits.md: the table of every range."""
    lines = [
        "# Limits",
        "",
        "Every number a user gives has one range, checked where it enters the library",
        "(`boggle_i18n/limits.py`; this page is written by `python -m boggle_i18n.limits`).",
        "A number outside it is one `Error:` line naming the option and the range (exit 2 on the",
        "command line), before any lexicon is loaded or any work starts.",
        "",
        "| name | range | what |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{x.name}` | {x.describe()} | {x.what} |" for x in LIMITS.values()]
    lines += [
        "",
        f"A board's total is at most points x words = {MAX_POINTS:,} x 2^32 = {MAX_TOTAL:,}, inside int64",
        f"({INT64_MAX:,}), so the kernels' sums cannot overflow. A board line longer than",
        f"{MAX_LINE:,} bytes (a 64x64 board of two-letter faces in brackets is about 16,500) is one error line;",
        "messages quote long inputs cut to 80 characters with their full length.",
        "",
        "A raw word list (`build-lexicon --source`, a system list, an expanding tool's output) is read once, in",
        f"linear time: an entry longer than {MAX_SOURCE_ENTRY_BYTES:,} bytes (the longest word a board holds, 4 bytes",
        f"a letter) or more than {MAX_SOURCE_LINES:,} entries (Debian's largest list has 1.6 million) is one error",
        "line, said as soon as it is read. A named pipe is streamed once (a writer is waited for up to 5 s;",
        "with none it reads as empty); a device (`/dev/zero`) is refused.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - writes the doc
    print(markdown(), end="")
