"""Scoring a stream of boards typed one per line: parse fast, score in batches, keep input order.

`LineScorer` turns chunks of `(line number, text)` into scores; `score_stream`
feeds chunks through it in this process or in worker processes, yielding results
chunk by chunk in input order, so memory stays flat however long the input.

Plain boards (`perslatgsineters`) skip the full notation parser: each character
maps straight to a face code. Anything else (`/`, brackets, blanks, a letter
outside the alphabet) goes through `api.parse_board`, with its exact errors.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..board.board import Board
from ..board.notation import parse_board
from ..errors import BoggleI18nError
from .base import Rules
from .scorer import Scorer, prepare_scorer

CHUNK = 4096


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
        from ..api import load_lexicon
        from ..selection import select

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
        self.notes: list[str] = []

    def rules(self, shape: tuple[int, int]) -> Rules:
        """The rules boards of this shape are scored by (dice set of that size, or the language's defaults)."""
        return self.scorer(shape).rules

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
        scorer = self.scorer(board.size)
        return board.size, [scorer.codec.index(f) for f in board.faces]

    def score_chunk(self, chunk: list[tuple[int, str]]) -> ChunkResult:
        """Scores of a chunk of (line number, board text), errors per line, order kept."""
        import numpy as np

        n = len(chunk)
        scores = [0] * n
        words = [0] * n
        errors: dict[int, str] = {}
        groups: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        parse = self._parse
        for i, (_, text) in enumerate(chunk):
            try:
                shape, codes = parse(text)
            except BoggleI18nError as exc:
                errors[i] = str(exc)
                continue
            group = groups.get(shape)
            if group is None:
                group = groups[shape] = ([], [])
            group[0].append(i)
            group[1].extend(codes)
        for shape, (positions, flat) in groups.items():
            array = np.asarray(flat, dtype=np.int32).reshape(len(positions), shape[0] * shape[1])
            got_scores, got_words = self.scorer(shape).score_codes(array)
            if len(positions) == n:  # the usual chunk: every line a board of one shape
                scores, words = got_scores.tolist(), got_words.tolist()
                break
            for i, score, count in zip(positions, got_scores.tolist(), got_words.tolist(), strict=True):
                scores[i] = score
                words[i] = count
        notes, self.notes = self.notes, []
        return ChunkResult([ln for ln, _ in chunk], [t for _, t in chunk], scores, words, errors, notes)


def board_lines(lines: Iterable[str], start: int = 1) -> Iterator[tuple[int, str]]:
    """(line number, text) of each board line: blank lines and `#` comments skipped, a BOM and ends stripped."""
    for number, line in enumerate(lines, start):
        text = line.strip()
        if number == start:
            text = text.lstrip("\ufeff").strip()
        if text and not text.startswith("#"):
            yield number, text


def chunked(items: Iterable[tuple[int, str]], size: int = CHUNK) -> Iterator[list[tuple[int, str]]]:
    """Lists of up to `size` items."""
    chunk: list[tuple[int, str]] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


_WORKER: LineScorer | None = None


def _init_worker(settings: BatchSettings) -> None:
    global _WORKER
    _WORKER = LineScorer(settings)


def _work(chunk: list[tuple[int, str]]) -> ChunkResult:
    assert _WORKER is not None
    return _WORKER.score_chunk(chunk)


def score_stream(
    lines: Iterable[tuple[int, str]],
    settings: BatchSettings,
    workers: int = 1,
    lexicon: Any = None,
    chunk_size: int = CHUNK,
) -> Iterator[ChunkResult]:
    """Score board lines chunk by chunk, in input order; `workers` > 1 uses that many processes.

    Workers load the lexicon by name and map its compiled form from the store's
    cache (prepared here first), so they share its pages instead of copying them.
    """
    if workers < 1:
        raise BoggleI18nError(f"--workers must be at least 1, not {workers}")
    local = LineScorer(settings, lexicon)
    chunks = chunked(lines, chunk_size)
    if workers == 1:
        for chunk in chunks:
            yield local.score_chunk(chunk)
        return
    import multiprocessing

    first = next(chunks, None)
    if first is None:
        return
    # Score the first chunk here: the compiled lexicon is mapped, the kernels loaded, the scorers
    # prepared. Forked workers then start with all of it (the trie pages shared, not copied);
    # where fork is missing, spawned workers load the lexicon by name and map the same cache file.
    result = local.score_chunk(first)
    global _WORKER
    if "fork" in multiprocessing.get_all_start_methods():
        _WORKER = local
        pool = multiprocessing.get_context("fork").Pool(workers)
    else:  # pragma: no cover - not Linux
        pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(settings,))
    with pool:
        yield result
        yield from pool.imap(_work, chunks, chunksize=1)


def default_workers() -> int:
    """One worker per available core."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
