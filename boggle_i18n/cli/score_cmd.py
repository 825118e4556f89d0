"""`score`: score many boards, one per line, streaming, with the fast engine."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from .. import jsontext
from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..language.selection import select
from ..limits import clip, workers_for
from ..solver.base import get_solver
from ..solver.batch import BatchSettings, Block, read_blocks, score_stream
from ..solving import batch_inputs
from . import app
from .common import StoreOption, handle_errors, load_or_build, note, warn
from .framework import Argument, Exit, Option
from .render import counted


def check_board_file(path: Path) -> None:
    """A board file must exist and not be a folder: a regular file, a FIFO, `/dev/stdin` or `<(command)` all read."""
    if not path.exists():
        raise BoggleI18nError(f"no board file {clip(str(path))}")
    if path.is_dir():
        raise BoggleI18nError(f"board file {clip(str(path))} is a folder")


class _Counting:
    """Passes blocks through, counting their bytes for the progress bar."""

    def __init__(self, blocks: Iterator[Block]) -> None:
        self.blocks = blocks
        self.read = 0

    def __iter__(self) -> Iterator[Block]:
        for block in self.blocks:
            self.read += len(block.data) + sum(length for _, length in block.too_long)
            yield block


@app.command("score")
@handle_errors
def score_cmd(
    board_file: str | None = Argument(
        None, metavar="FILE", help="Boards, one per line (blank lines and # comments skipped); - or none: stdin."
    ),
    lang: str | None = Option(
        None, "--lang", "-l", metavar="CODE", help="Language: its lexicon, dice rules and q = qu."
    ),
    lexicon_name: str | None = Option(
        None, "--lexicon", metavar="NAME", help="Lexicon to use instead of the language's."
    ),
    dice: str | None = Option(
        None, "--dice", metavar="SET", help="Dice set whose rules apply (min length, scoring, q = qu)."
    ),
    size: str | None = Option(None, "--size", metavar="RxC", help="Shape of unseparated board strings, e.g. 3x5."),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = Option(None, "--min-length", metavar="N", help="Shortest word that counts (letters)."),
    scoring: str | None = Option(
        None, "--scoring", metavar="TABLE", help="Scoring preset or a table like 3:1,4:1,5:2."
    ),
    bare_q: str | None = Option(
        None, "--bare-q", metavar="qu|q", help="What a lone q means: qu or q [default: from the dice]."
    ),
    engine: str = Option("fast", "--engine", metavar="NAME", help="Scoring engine: fast, numba or reference."),
    workers: int = Option(
        1,
        "--workers",
        "-w",
        metavar="N",
        help="Workers (0: one per core): threads for fast and numba, processes for reference.",
    ),
    json_out: bool = Option(False, "--json", help="JSON Lines: one object per input board."),
    strict: bool = Option(False, "--strict", help="Stop at the first line that is not a board."),
    store: Path | None = StoreOption,
) -> None:
    """Score boards from a file or stdin: board, score and word count per line, in input order.

    A bad line is reported on stderr with its line number and written as an
    error line; the run goes on (exit status 1 at the end) unless --strict.
    """
    # Everything the user typed is checked before a lexicon is loaded or built.
    get_solver(engine)
    workers = workers_for(workers)
    if board_file not in (None, "-"):
        check_board_file(Path(board_file))
    shape = parse_size(size) if size else None
    chosen = select(
        lang=lang,
        lexicon=lexicon_name,
        dice=dice,
        size=shape,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        bare_q=bare_q,
        store=store,
    )
    name = chosen.require_lexicon()
    for message in chosen.warnings:
        warn(message)
    lexicon = load_or_build(name, store)
    settings = BatchSettings(
        lexicon=name,
        store=str(store) if store else None,
        lang=chosen.language.code,
        dice=dice,
        size=shape,
        bare_q=bare_q,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        engine=engine,
    )
    if board_file in (None, "-"):
        source: Any = nullcontext(sys.stdin.buffer)
        total_bytes = None
    else:
        path = Path(board_file)
        source = path.open("rb")  # a file, a FIFO, /dev/stdin or <(command): anything that can be read
        info = os.fstat(source.fileno())
        total_bytes = info.st_size if stat.S_ISREG(info.st_mode) else None
    out = sys.stdout
    started = time.perf_counter()
    boards = bad = total = escaped = 0
    said: set[str] = set()
    with source as stream:
        counting = _Counting(read_blocks(stream))
        progress = None
        try:
            for block in score_stream(
                counting, settings, batch_inputs, workers=workers, lexicon=lexicon, json_lines=json_out
            ):
                for message in block.notes:
                    if message not in said:  # each worker's scorer says it once: say it once
                        said.add(message)
                        note(message)
                if strict and block.errors:
                    line, error = block.errors[0]
                    out.write(block.text[: block.first_error_at])
                    out.flush()
                    note(f"line {line}: {error}")
                    raise BoggleI18nError(f"line {line} is not a board (--strict): {error}")
                for line, error in block.errors:
                    note(f"line {line}: {error}")
                boards += block.boards
                bad += len(block.errors)
                total += block.total
                escaped += write_lines(out, block.text, json_out)
                out.flush()
                if progress is None:
                    progress = _progress(total_bytes)  # after the first block: worker processes are started
                if progress is not None:
                    progress.update(counting.read, boards)
        finally:
            if progress is not None:
                progress.close()
    seconds = time.perf_counter() - started
    rate = boards / seconds if seconds > 0 else 0.0
    note(
        f"scored {counted(boards, 'board')} in {seconds:.2f} s ({rate:,.0f} boards/s, {engine} engine, "
        f"{workers} worker{'s' if workers != 1 else ''}); total score {total:,}"
        + (f"; {counted(bad, 'bad line')}" if bad else "")
        + (f"; {counted(escaped, 'line')} written with \\x escapes" if escaped else "")
    )
    if bad or escaped:
        raise Exit(1)


def write_lines(out: Any, text: str, json_lines: bool = False) -> int:
    """Write `text` to `out`; a line its encoding cannot hold (a board with `å` in a C locale) is reported on
    stderr and written with `\\x` escapes, and the rest go on. Returns how many lines were escaped.

    JSON Lines lose nothing: such a line is written with JSON's own `\\u` escapes, the same value."""
    try:
        out.write(text)  # encoded whole before a byte is written: a failure here wrote nothing
        return 0
    except UnicodeEncodeError:
        pass
    encoding = out.encoding or "ascii"
    escaped = 0
    for line in text.splitlines(keepends=True):
        try:
            line.encode(encoding)
        except UnicodeEncodeError as exc:
            if json_lines:
                out.write(jsontext.dumps(jsontext.loads(line), ensure_ascii=True) + "\n")
                continue
            bad = exc.object[exc.start : exc.end]
            line = line.encode(encoding, "backslashreplace").decode(encoding)
            escaped += 1
            note(
                f"standard output's encoding ({encoding}) cannot write {bad!r}: "
                f"{line.split(chr(9))[0].rstrip()} written with \\x escapes "
                "(set PYTHONIOENCODING=utf-8 or a UTF-8 locale)"
            )
        out.write(line)
    return escaped


class _Bar:
    """A rich progress bar over the bytes of the input file, shown only on a terminal."""

    def __init__(self, total: int | None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn("scoring"),
            BarColumn(),
            TextColumn("{task.fields[boards]:,} boards"),
            TimeRemainingColumn(),
            transient=True,
            console=Console(stderr=True),
        )
        self._task = self._progress.add_task("score", total=total, boards=0)
        self._progress.start()

    def update(self, done: int, boards: int) -> None:
        self._progress.update(self._task, completed=done, boards=boards)

    def close(self) -> None:
        self._progress.stop()


def _progress(total: int | None) -> _Bar | None:
    return _Bar(total) if sys.stderr.isatty() else None
