"""Scoring a stream of boards typed one per line: parse fast, score in batches, keep input order.

`read_blocks` cuts the input into blocks of whole lines (bytes); `score_stream`
hands each block to a `LineScorer`, in this process or in worker processes, and
yields each block's formatted output in input order, so memory stays flat
however long the input, and the reading process does almost nothing per line.

Plain boards (`perslatgsineters`) skip the full notation parser: a block's plain
lines of one length become face codes in one numpy table lookup. Anything else
(`/`, brackets, blanks, letters outside ASCII or the alphabet) goes through the
notation parser line by line, with its exact errors.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .board.board import Board
from .board.notation import parse_board
from .errors import BoggleI18nError, EngineError
from .limits import MAX_LINE, workers_for
from .solver.base import get_solver
from .solver.scorer import Scorer, prepare_scorer

BLOCK = 1 << 15  # bytes of input a worker takes at a time: about 1,900 4x4 boards, 10 ms of work


@dataclass(frozen=True)
class BatchSettings:
    """What decides a board's score, besides the board: lexicon, language, dice and rule overrides."""

    lexicon: str
    store: str | None = None
    lang: str | None = None
    dice: str | None = None
    size: tuple[int, int] | None = None
    bare_q: str | None = None
    min_length: int | None = None
    scoring: str | None = None
    diagonals: bool = True
    engine: str = "fast"


@dataclass
class ChunkResult:
    """Scores of one chunk, in its order: `errors` maps a position in the chunk to its message."""

    lines: list[int]
    texts: list[str]
    scores: list[int]
    words: list[int]
    errors: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class LineScorer:
    """Parses and scores board lines under fixed settings; one prepared scorer per board shape."""

    def __init__(self, settings: BatchSettings, lexicon: Any = None) -> None:
        from .api import load_lexicon
        from .language.selection import select

        s = self.settings = settings
        self.selection = select(
            lang=s.lang,
            lexicon=s.lexicon,
            dice=s.dice,
            size=s.size,
            min_length=s.min_length,
            scoring=s.scoring,
            diagonals=s.diagonals,
            bare_q=s.bare_q,
            store=s.store,
        )
        self.lexicon = lexicon if lexicon is not None else load_lexicon(s.lexicon, s.store)
        self._shorthands = self.selection.shorthands
        self._scorers: dict[tuple[int, int], Scorer] = {}
        self._tables: dict[tuple[int, int], dict[str, int]] = {}
        self._byte_tables: dict[tuple[int, int], Any] = {}
        self.notes: list[str] = []

    def scorer(self, shape: tuple[int, int]) -> Scorer:
        """The prepared scorer for boards of `shape`."""
        scorer = self._scorers.get(shape)
        if scorer is None:
            Board(shape[0], shape[1], ("",) * (shape[0] * shape[1]))  # checks the size is a board's
            rules = self.selection.for_size(shape).rules
            scorer = self._scorers[shape] = prepare_scorer(self.lexicon, rules, shape, engine=self.settings.engine)
            self._tables[shape] = scorer.codec.line_table(self._shorthands)
            note = getattr(scorer, "note", None)
            if note:
                self.notes.append(note)
        return scorer

    def _shape_of_plain(self, n: int) -> tuple[int, int] | None:
        """The shape a plain string of `n` faces has: --size, the dice set's, or a square."""
        fixed = self.settings.size
        if fixed is None and self.selection.dice is not None and self.settings.dice is not None:
            fixed = (self.selection.dice.rows, self.selection.dice.cols)
        if fixed is not None:
            return fixed if fixed[0] * fixed[1] == n else None
        side = math.isqrt(n)
        return (side, side) if side * side == n and n > 0 else None

    def _parse(self, text: str) -> tuple[tuple[int, int], list[int]]:
        """(shape, face codes) of one line; raises BoggleI18nError for a bad board."""
        shape = self._shape_of_plain(len(text))
        if shape is not None:
            self.scorer(shape)
            table = self._tables[shape]
            try:
                return shape, [table[ch] for ch in text]
            except KeyError:
                pass
        board = parse_board(text, self._shorthands, self.settings.size)
        self.selection.language.check_faces(board.faces)
        scorer = self.scorer(board.size)
        return board.size, [scorer.codec.index(f) for f in board.faces]

    def _byte_table(self, shape: tuple[int, int]) -> Any:
        """int32[256]: the face code of each ASCII byte for plain boards of `shape`, -1 for any other byte."""
        import numpy as np

        table = self._byte_tables.get(shape)
        if table is None:
            self.scorer(shape)
            table = np.full(256, -1, dtype=np.int32)
            for ch, code in self._tables[shape].items():
                if ord(ch) < 128:
                    table[ord(ch)] = code
            self._byte_tables[shape] = table
        return table

    def _plain_codes(self, texts: list[str], length: int) -> tuple[tuple[int, int], Any] | None:
        """(shape, int32[n, cells] with -1 rows where a line is not plain ASCII) for lines of one length."""
        import numpy as np

        shape = self._shape_of_plain(length)
        if shape is None:
            return None
        raw = "".join(texts).encode("utf-8")
        if len(raw) != length * len(texts):  # some line has a non-ASCII letter: the per-line table
            return None
        codes = self._byte_table(shape)[np.frombuffer(raw, dtype=np.uint8).reshape(len(texts), length)]
        return shape, codes

    def score_chunk(self, chunk: list[tuple[int, str]]) -> ChunkResult:
        """Scores of a chunk of (line number, board text), errors per line, order kept.

        Plain lines of one length are turned into codes in one numpy lookup; the
        rest (other notations, non-ASCII letters, bad lines) go line by line.
        """
        import numpy as np

        n = len(chunk)
        scores = [0] * n
        words = [0] * n
        errors: dict[int, str] = {}
        groups: dict[tuple[int, int], tuple[list[Any], list[Any]]] = {}  # shape -> (positions, code arrays)
        by_length: dict[int, list[int]] = {}
        for i, (_, text) in enumerate(chunk):
            by_length.setdefault(len(text), []).append(i)
        slow: list[int] = []
        for length, positions in by_length.items():
            try:
                plain = self._plain_codes([chunk[i][1] for i in positions], length)
            except EngineError:
                raise
            except BoggleI18nError:
                plain = None
            if plain is None:
                slow.extend(positions)
                continue
            shape, codes = plain
            good = (codes >= 0).all(axis=1)
            where = np.asarray(positions)
            group = groups.setdefault(shape, ([], []))
            group[0].append(where[good])
            group[1].append(codes[good])
            slow.extend(where[~good].tolist())
        for i in sorted(slow):
            try:
                shape, row = self._parse(chunk[i][1])
            except EngineError:
                raise
            except BoggleI18nError as exc:
                errors[i] = str(exc)
                continue
            group = groups.setdefault(shape, ([], []))
            group[0].append(np.asarray([i]))
            group[1].append(np.asarray([row], dtype=np.int32))
        for shape, (position_parts, code_parts) in groups.items():
            at = np.concatenate(position_parts)
            codes = np.concatenate(code_parts).astype(np.int32, copy=False)
            got_scores, got_words = self.scorer(shape).score_codes(codes)
            if at.size == n and bool((at == np.arange(n)).all()):  # the usual chunk: one shape, in order
                scores, words = got_scores.tolist(), got_words.tolist()
                break
            for i, score, count in zip(at.tolist(), got_scores.tolist(), got_words.tolist(), strict=True):
                scores[i] = score
                words[i] = count
        notes, self.notes = self.notes, []
        return ChunkResult([ln for ln, _ in chunk], [t for _, t in chunk], scores, words, errors, notes)

    def score_block(self, first_line: int, data: bytes, json_lines: bool = False) -> BlockResult:
        """Score a block of raw input lines (UTF-8, whole lines) and format its output.

        Blank lines and `#` comments are skipped but counted, so errors name the
        input's own line numbers.
        """
        fast = None if json_lines else self._plain_block(data)
        if fast is not None:
            return fast
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = first_line + data.count(b"\n", 0, exc.start)
            raise BoggleI18nError(
                f"board input is not UTF-8 text (line {where}: byte {data[exc.start]:#04x})"
            ) from None
        lines = text.split("\n")
        chunk: list[tuple[int, str]] = []
        too_long: dict[int, str] = {}
        for number, raw in enumerate(lines, first_line):
            # A BOM starting any line (files joined with cat) is not part of the board; a tab is white space.
            line = raw.strip().lstrip("\ufeff").strip().replace("\t", " ")
            if line.startswith("\x00"):
                too_long[len(chunk)] = (
                    f"line is {int(line[1:]):,} bytes, over the maximum {MAX_LINE:,} (a 64x64 board is far shorter)"
                )
                chunk.append((number, f"<line of {int(line[1:]):,} bytes>"))
            elif line and not line.startswith("#"):
                chunk.append((number, line))
        result = self.score_chunk(chunk)
        result.errors.update(too_long)
        return format_block(result, json_lines)

    def _plain_block(self, data: bytes) -> BlockResult | None:
        """The usual block (only plain ASCII boards of one length, no comments): scored with no per-line parsing.

        With the C helpers (built with the C kernel) the lines are turned into
        codes and the output formatted without the GIL, so worker threads hold
        it only for a few calls a block; otherwise numpy does the parsing.
        """
        import numpy as np

        length = data.find(b"\n")
        if length <= 0 or len(data) % (length + 1):
            return None
        n = len(data) // (length + 1)
        shape = self._shape_of_plain(length)
        if shape is None:
            return None
        try:
            table = self._byte_table(shape)
        except EngineError:
            raise
        except BoggleI18nError:
            return None
        helpers = _line_helpers()
        if helpers is not None:
            codes = np.empty((n, length), dtype=np.int32)
            if not helpers.plain_codes(data, table, length, codes):
                return None  # a comment, a space, a CR, another notation: the general path
            got_scores, got_words = self.scorer(shape).score_codes(codes)
            text, total = helpers.format_rows(data, length, got_scores, got_words)
        else:
            codes = table[np.frombuffer(data, dtype=np.uint8).reshape(n, length + 1)[:, :length]]
            if not bool((codes >= 0).all()):
                return None
            got_scores, got_words = self.scorer(shape).score_codes(codes)
            scores = got_scores.tolist()
            boards = data.decode("ascii").split("\n")
            text = "".join(f"{t}\t{s}\t{w}\n" for t, s, w in zip(boards, scores, got_words.tolist(), strict=False))
            total = sum(scores)
        notes, self.notes = self.notes, []
        return BlockResult(text, n, total, [], None, notes)


def _line_helpers() -> Any:
    """The C kernel's `plain_codes`/`format_rows`, or None where it was not built (numpy does their work then)."""
    from .solver.fast import c_kernel_built, load_kernel

    return load_kernel("c") if c_kernel_built() else None


@dataclass
class BlockResult:
    """A block's output text, and what the command reports: counts, errors and where the first error starts."""

    text: str
    boards: int
    total: int
    errors: list[tuple[int, str]]
    first_error_at: int | None = None  # offset in `text` of the first error line
    notes: list[str] = field(default_factory=list)


def format_block(result: ChunkResult, json_lines: bool) -> BlockResult:
    """`board<TAB>score<TAB>words` lines (or JSON Lines), error lines in place, in input order."""
    if not result.errors and not json_lines:
        rows = zip(result.texts, result.scores, result.words, strict=True)
        text = "".join(f"{t}\t{s}\t{w}\n" for t, s, w in rows)
        return BlockResult(text, len(result.texts), sum(result.scores), [], None, result.notes)
    parts: list[str] = []
    size = 0
    first_error_at = None
    boards = total = 0
    errors = []
    for i, (line, board) in enumerate(zip(result.lines, result.texts, strict=True)):
        error = result.errors.get(i)
        if error is None:
            boards += 1
            total += result.scores[i]
            if json_lines:
                row = {"line": line, "board": board, "score": result.scores[i], "n_words": result.words[i]}
                part = json.dumps(row, ensure_ascii=False) + "\n"
            else:
                part = f"{board}\t{result.scores[i]}\t{result.words[i]}\n"
        else:
            errors.append((line, error))
            if first_error_at is None:
                first_error_at = size
            if json_lines:
                part = json.dumps({"line": line, "board": board, "error": error}, ensure_ascii=False) + "\n"
            else:
                part = f"{board}\terror\t{error}\n"
        parts.append(part)
        size += len(part)
    return BlockResult("".join(parts), boards, total, errors, first_error_at, result.notes)


TOO_LONG = b"\x00"  # a line over MAX_LINE bytes is replaced by this byte and its length: `\x00123456`


def read_blocks(stream: BinaryIO, size: int = BLOCK, max_line: int = MAX_LINE) -> Iterator[tuple[int, bytes]]:
    """(first line number, whole lines as bytes) blocks of about `size` bytes; a leading UTF-8 BOM dropped.

    Only newlines are counted here (in C), so the reading process stays nearly idle
    while workers parse; `read1` returns what a pipe has, so output keeps flowing.
    A line longer than `max_line` bytes is never held: it is skipped as it streams
    by and stands in its block as `TOO_LONG` + its length, which `score_block`
    reports as that line's error. Memory stays flat however long a line is.
    """
    read = getattr(stream, "read1", stream.read)
    line = 1
    rest = b""
    first = True
    skipped = -1  # bytes of an overlong line skipped so far; -1: not skipping
    while True:
        data = read(size)
        if not data:
            break
        if skipped >= 0:
            end = data.find(b"\n")
            if end < 0:
                skipped += len(data)
                continue
            yield line, TOO_LONG + str(skipped + end).encode() + b"\n"
            line += 1
            skipped = -1
            data = data[end + 1 :]
        data = rest + data
        if first and len(data) >= 3:
            data = data.removeprefix(b"\xef\xbb\xbf")
            first = False
        cut = data.rfind(b"\n")
        if cut < 0:
            rest = data
        else:
            block, rest = data[: cut + 1], data[cut + 1 :]
            yield line, _cut_long_lines(block, max_line)
            line += block.count(b"\n")
        if len(rest) > max_line:  # no newline in sight: skip the rest of this line as it comes
            skipped, rest = len(rest), b""
    if skipped >= 0:
        yield line, TOO_LONG + str(skipped).encode() + b"\n"
    elif rest:
        if first:
            rest = rest.removeprefix(b"\xef\xbb\xbf")
        yield line, _cut_long_lines(rest + b"\n", max_line)


def _cut_long_lines(block: bytes, max_line: int) -> bytes:
    """`block` with each line over `max_line` bytes replaced by its `TOO_LONG` marker (rare: checked in C first)."""
    if len(block) <= max_line + 1 or max(map(len, block.split(b"\n"))) <= max_line:
        return block
    lines = block.split(b"\n")
    return b"\n".join(TOO_LONG + str(len(x)).encode() if len(x) > max_line else x for x in lines)


_WORKER: LineScorer | None = None


def _init_worker(settings: BatchSettings) -> None:
    global _WORKER
    _WORKER = LineScorer(settings)


def _work(job: tuple[int, bytes, bool]) -> BlockResult:
    assert _WORKER is not None
    return _WORKER.score_block(*job)


def score_stream(
    blocks: Iterable[tuple[int, bytes]],
    settings: BatchSettings,
    workers: int = 1,
    lexicon: Any = None,
    json_lines: bool = False,
) -> Iterator[BlockResult]:
    """Score blocks of board lines (see `read_blocks`) in input order; `workers` > 1 scores that many at once.

    The fast engine's kernels (C and numba) release the GIL, so its workers are
    threads: the compiled trie and everything else is shared as it is, nothing
    is forked, pickled or copied, and a worker costs only its own stamp array.
    Engines that hold the GIL (reference) get forked processes instead.
    """
    workers = workers_for(workers)
    local = LineScorer(settings, lexicon)
    jobs = ((line, data, json_lines) for line, data in blocks)
    if workers == 1:
        for job in jobs:
            yield local.score_block(*job)
    elif getattr(get_solver(settings.engine), "releases_gil", False):
        yield from _score_threads(local, jobs, workers)
    else:
        yield from _score_processes(local, jobs, workers, settings)


def _score_threads(first: LineScorer, jobs: Iterator[tuple[int, bytes, bool]], workers: int) -> Iterator[BlockResult]:
    """Blocks scored by `workers` threads, each with a LineScorer of its own (scorers keep per-board stamps)."""
    import queue
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    idle: queue.SimpleQueue[LineScorer] = queue.SimpleQueue()
    idle.put(first)  # at most `workers` blocks are in work at once, so at most `workers` scorers are made

    def work(job: tuple[int, bytes, bool]) -> BlockResult:
        try:
            scorer = idle.get_nowait()
        except queue.Empty:  # every scorer is busy: a new one, prepared in this thread
            scorer = LineScorer(first.settings, first.lexicon)
        try:
            return scorer.score_block(*job)
        finally:
            idle.put(scorer)

    pending: deque[Future[BlockResult]] = deque()
    pool = ThreadPoolExecutor(workers, thread_name_prefix="score")
    try:
        for job in jobs:  # at most two blocks a worker in flight: memory stays flat
            pending.append(pool.submit(work, job))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _score_processes(
    local: LineScorer, jobs: Iterator[tuple[int, bytes, bool]], workers: int, settings: BatchSettings
) -> Iterator[BlockResult]:
    """Blocks scored by forked processes (spawned where fork is missing), for engines that hold the GIL.

    The first block is scored here: the lexicon is mapped and the scorers
    prepared, so forked workers start with all of it, the trie's pages shared.
    """
    import multiprocessing

    first = next(jobs, None)
    if first is None:
        return
    result = local.score_block(*first)
    global _WORKER
    if "fork" in multiprocessing.get_all_start_methods():
        _WORKER = local
        pool = multiprocessing.get_context("fork").Pool(workers)
    else:  # pragma: no cover - not Linux
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(settings,))
    with pool:
        yield result
        yield from pool.imap(_work, jobs, chunksize=1)


def default_workers() -> int:
    """One worker per available core."""
    return workers_for(0)
