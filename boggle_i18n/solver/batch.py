"""Scoring a stream of boards typed one per line: parse fast, score in batches, keep input order.

`read_blocks` cuts the input into blocks of whole lines (bytes); `score_stream`
hands each block to a `LineScorer`, in this process or in worker threads, and
yields each block's formatted output in input order, so memory stays flat
however long the input, and the reading process does almost nothing per line.

Every notation `solve` reads is parsed in bulk, in C (`_kernel.parse_lines`):
rows split by `/` or spaces, `[qu]`, `.` and `[]` for a blank, shorthands
(`q` = `qu`), upper case, letters outside ASCII. A line the C reader is not
sure of (a bad board, an odd character, a decomposed accent) goes to the
notation parser on its own, which gives the exact error or the same board,
so a bad line costs only itself: every good line around it is scored. Where
the kernel was not built, lines are parsed one by one (plain lines of one
length in one numpy lookup).
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, NamedTuple

from ..board.board import Board
from ..board.notation import face_of, parse_board
from ..errors import BoggleI18nError, EngineError
from ..lifeline import die_with_parent
from ..limits import MAX_LINE, workers_for
from ..record import replace
from .base import get_solver
from .codec import FaceCodec
from .scorer import Scorer, prepare_scorer

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


Resolver = Callable[[BatchSettings, Any], tuple[Any, Any]]  # (settings, lexicon or None) -> (selection, lexicon)


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

    def __init__(self, settings: BatchSettings, selection: Any, lexicon: Any) -> None:
        """`selection` and `lexicon` are what `settings` resolve to (`solving.batch_inputs`): the
        engines layer takes them resolved, so it never reaches up into language selection or the store."""
        self.settings = settings
        self.selection = selection
        self.lexicon = lexicon
        self._shorthands = self.selection.shorthands
        self._scorers: dict[tuple[int, int], Scorer] = {}
        self._tables: dict[tuple[int, int], dict[str, int]] = {}
        self._byte_tables: dict[tuple[int, int], Any] = {}
        self._c_tables: tuple[int, Any] | None = None  # (codec size they were made at, parse_lines' tables)
        self._maps: dict[tuple[int, int], Any] = {}
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
        fixed = self._plain_fixed()
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
        board = replace(board, faces=self._fold(board.faces))
        scorer = self.scorer(board.size)
        if board.size != self._default_shape():  # the C reader's codec learns the faces too (next block's tables)
            for face in board.faces:
                self._parse_codec().index(face)
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

    def score_block(
        self, first_line: int, data: bytes, json_lines: bool = False, too_long: tuple[tuple[int, int], ...] = ()
    ) -> BlockResult:
        """Score a block of raw input lines (whole lines, each ending in a newline) and format its output.

        Blank lines and `#` comments are skipped but counted, so errors name the
        input's own line numbers. `too_long` names lines `read_blocks` left out
        (blank in `data`) for their length: (line number, bytes).
        """
        helpers = _line_helpers()
        if helpers is None:
            return self._score_lines(first_line, data.split(b"\n")[:-1], json_lines, dict(too_long))
        import numpy as np

        codes = np.empty(len(data), dtype=np.int32)
        meta = np.empty((data.count(b"\n"), 6), dtype=np.int64)
        lines, used = helpers.parse_lines(data, *self._notation_tables(), codes, meta)
        status = meta[:, 0]
        boards = np.flatnonzero(status == LINE_BOARD)
        scores = np.zeros(boards.size, dtype=np.int64)
        words = np.zeros(boards.size, dtype=np.int32)
        if boards.size:
            shapes = meta[boards, 3] * 65536 + meta[boards, 4]
            kinds = np.unique(shapes)
            for kind in kinds.tolist():
                shape = (kind // 65536, kind % 65536)
                which = np.flatnonzero(shapes == kind) if kinds.size > 1 else None
                try:
                    scorer, mapping = self._mapped(shape)
                except EngineError:
                    raise
                except BoggleI18nError:  # not a shape this engine takes: the notation parser says why
                    status[boards if which is None else boards[which]] = LINE_PYTHON
                    continue
                cells = shape[0] * shape[1]
                if which is None:  # the usual block: one shape, codes back to back
                    rows = codes[:used].reshape(-1, cells)
                else:
                    rows = codes[meta[boards[which], 5][:, None] + np.arange(cells)]
                if mapping is not None:
                    rows = mapping[rows]
                got_scores, got_words = scorer.score_codes(rows)
                if which is None:
                    scores, words = got_scores, got_words
                else:
                    scores[which], words[which] = got_scores, got_words
        notes, self.notes = self.notes, []
        if not json_lines and not too_long and not bool((status == LINE_PYTHON).any()):
            text, total = helpers.format_lines(data, meta, lines, scores, words)
            return BlockResult(text, int(boards.size), total, [], None, notes)
        line_scores = np.zeros(len(meta), dtype=np.int64)
        line_words = np.zeros(len(meta), dtype=np.int32)
        line_scores[boards], line_words[boards] = scores, words
        return self._merge(first_line, data, meta, line_scores, line_words, json_lines, dict(too_long), notes)

    def _merge(
        self,
        first_line: int,
        data: bytes,
        meta: Any,
        scores: Any,
        words: Any,
        json_lines: bool,
        too_long: dict[int, int],
        notes: list[str],
    ) -> BlockResult:
        """A block with lines the C reader left to Python (or JSON out): those parsed one by one, merged in order.

        `scores` and `words` are by line (the C reader's board lines' figures).
        """
        raw = data.split(b"\n")
        result = ChunkResult([], [], [], [], {}, notes)
        rest: list[tuple[int, bytes]] = []  # (position in result, raw line) of the lines for Python
        for i, row in enumerate(meta.tolist()):
            number = first_line + i
            if number in too_long:
                _add(result, number, f"<line of {too_long[number]:,} bytes>", error=_too_long(too_long[number]))
            elif row[0] == LINE_BOARD:
                text = data[row[1] : row[2]].decode("utf-8").replace("\t", " ")
                _add(result, number, text, int(scores[i]), int(words[i]))
            elif row[0] == LINE_PYTHON:
                rest.append((len(result.lines), raw[i]))
                _add(result, number, "")
        if rest:
            late = self._score_lines(0, [line for _, line in rest], json_lines, {}, raw_result=True)
            assert isinstance(late, tuple)
            positions, chunk = late
            keep = []
            for (at, _), there in zip(rest, positions, strict=True):
                if there is None:  # a blank line after all (odd white space): left out
                    continue
                result.texts[at] = chunk.texts[there]
                result.scores[at] = chunk.scores[there]
                result.words[at] = chunk.words[there]
                if there in chunk.errors:
                    result.errors[at] = chunk.errors[there]
                keep.append(at)
            dropped = {at for at, _ in rest} - set(keep)
            if dropped:
                result = _without(result, dropped)
            result.notes += chunk.notes
        return format_block(result, json_lines)

    def _score_lines(
        self,
        first_line: int,
        raw_lines: list[bytes],
        json_lines: bool,
        too_long: dict[int, int],
        raw_result: bool = False,
    ) -> Any:
        """Lines parsed one by one (each decoded on its own: a line that is not UTF-8 is that line's error).

        With `raw_result`, (each line's position in the chunk or None for a skipped line, the ChunkResult).
        """
        chunk: list[tuple[int, str]] = []
        undecodable: dict[int, str] = {}
        positions: list[int | None] = []
        for number, raw in enumerate(raw_lines, first_line):
            if number in too_long:
                positions.append(len(chunk))
                undecodable[len(chunk)] = _too_long(too_long[number])
                chunk.append((number, f"<line of {too_long[number]:,} bytes>"))
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                positions.append(len(chunk))
                undecodable[len(chunk)] = f"line is not UTF-8 text (byte {raw[exc.start]:#04x} at byte {exc.start + 1})"
                chunk.append((number, _clean(raw.decode("utf-8", "replace"))))
                continue
            # A BOM starting any line (files joined with cat) is not part of the board; a tab is white space.
            line = _clean(text)
            if line and not line.startswith("#"):
                positions.append(len(chunk))
                chunk.append((number, line))
            else:
                positions.append(None)
        bad = {i for i in undecodable}
        good = [(i, item) for i, item in enumerate(chunk) if i not in bad]
        scored = self.score_chunk([item for _, item in good])
        result = ChunkResult(
            [n for n, _ in chunk], [t for _, t in chunk], [0] * len(chunk), [0] * len(chunk), dict(undecodable)
        )
        for k, (i, _) in enumerate(good):
            result.scores[i] = scored.scores[k]
            result.words[i] = scored.words[k]
            if k in scored.errors:
                result.errors[i] = scored.errors[k]
        result.notes = scored.notes
        if raw_result:
            return positions, result
        return format_block(result, json_lines)

    def _default_shape(self) -> tuple[int, int]:
        """The shape whose scorer's codec numbers the faces the C reader hands out."""
        return self._plain_fixed() or self.settings.size or (4, 4)

    def _plain_fixed(self) -> tuple[int, int] | None:
        """The shape plain strings take before a square: --size, else the dice set's (as `_shape_of_plain`)."""
        fixed = self.settings.size
        if fixed is None and self.selection.dice is not None and self.settings.dice is not None:
            fixed = (self.selection.dice.rows, self.selection.dice.cols)
        return fixed

    def _parse_codec(self) -> FaceCodec:
        return self.scorer(self._default_shape()).codec

    def _notation_tables(self) -> tuple[Any, bytes, bytes, tuple[int, int], tuple[int, int]]:
        """What `parse_lines` reads: faces' codes by token, and the two shapes; remade when the codec grows.

        A one-character token stands for its line-table face (`q` = `qu`) in a plain
        line; in other notations it is what the notation parser makes of it, and
        must pass the language's alphabet check: where either differs, the entry
        is marked PLAIN_ONLY and such a line goes to the parser, which decides.
        """
        import numpy as np

        codec = self._parse_codec()
        if self._c_tables is not None and self._c_tables[0] == len(codec.faces):
            return self._c_tables[1]
        line = codec.line_table(self._shorthands)
        ascii_table = np.full(256, -1, dtype=np.int32)
        singles = bytearray()
        for ch, code in line.items():
            try:
                same = face_of(ch, self._shorthands) == codec.faces[code] and self._allowed(codec.faces[code])
            except BoggleI18nError:
                same = False
            value = code if same else code | PLAIN_ONLY
            encoded = ch.encode("utf-8")
            if len(encoded) == 1:
                ascii_table[encoded[0]] = value
            else:
                singles += _packed(encoded, value)
        brackets = bytearray()
        for code, face in enumerate(codec.faces):
            encoded = face.encode("utf-8")
            if not face or len(encoded) > 64:
                continue
            try:
                if face_of(f"[{face}]", self._shorthands) != face or not self._allowed(face):
                    continue
            except BoggleI18nError:
                continue
            brackets += _packed(encoded, code)
        tables = (
            ascii_table,
            bytes(singles),
            bytes(brackets),
            self._plain_fixed() or (0, 0),
            self.settings.size or (0, 0),
        )
        self._c_tables = (len(codec.faces), tables)
        return tables

    def _fold(self, faces: tuple[str, ...]) -> tuple[str, ...]:
        """Faces as the lexicon spells them (`ς` -> `σ`), by its recipe's stages, as `solve` reads them."""

        def stages() -> Any:
            from ..pipeline.typed import manifest_stages  # the pipeline: only for a face outside the alphabet

            return manifest_stages(self.lexicon.manifest)

        return self.selection.language.fold_faces(faces, stages)

    def _allowed(self, face: str) -> bool:
        try:
            self.selection.language.check_faces((face,))
        except BoggleI18nError:
            return False
        return True

    def _mapped(self, shape: tuple[int, int]) -> tuple[Scorer, Any]:
        """The scorer of `shape` and the array turning the C reader's codes into its codec's (None: the same)."""
        import numpy as np

        scorer = self.scorer(shape)
        faces = self._parse_codec().faces
        if scorer.codec is self._parse_codec():
            return scorer, None
        cached = self._maps.get(shape)
        if cached is None or len(cached) != len(faces):
            cached = self._maps[shape] = np.asarray([scorer.codec.index(f) for f in faces], dtype=np.int32)
        return scorer, cached


def _clean(text: str) -> str:
    """A line as a board: white space and BOMs (files joined with cat) off its ends, a tab read as a space."""
    return text.strip().lstrip("\ufeff").strip().replace("\t", " ")


def _too_long(length: int) -> str:
    return f"line is {length:,} bytes, over the maximum {MAX_LINE:,} (a 64x64 board is far shorter)"


def _add(result: ChunkResult, number: int, text: str, score: int = 0, words: int = 0, error: str | None = None) -> None:
    if error is not None:
        result.errors[len(result.lines)] = error
    result.lines.append(number)
    result.texts.append(text)
    result.scores.append(score)
    result.words.append(words)


def _without(result: ChunkResult, dropped: set[int]) -> ChunkResult:
    """`result` without the entries at `dropped` (lines that turned out blank)."""
    out = ChunkResult([], [], [], [], {}, result.notes)
    for i in range(len(result.lines)):
        if i not in dropped:
            _add(out, result.lines[i], result.texts[i], result.scores[i], result.words[i], result.errors.get(i))
    return out


def _packed(encoded: bytes, code: int) -> bytes:
    """One entry of a packed token table: length byte, the bytes, the code (int32, native order)."""
    return bytes([len(encoded)]) + encoded + struct.pack("=i", code)


LINE_BOARD, LINE_SKIP, LINE_PYTHON = 0, 1, 2  # parse_lines' line kinds (_kernel.c)
PLAIN_ONLY = 1 << 30  # a token table flag: this face stands only in a plain line (see _notation_tables)


def _line_helpers() -> Any:
    """The C kernel's `parse_lines`/`format_lines`, or None where it was not built (Python reads lines then)."""
    from .fast import c_kernel_built, load_kernel

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


class Block(NamedTuple):
    """Whole input lines as bytes, the number of the first, and the lines left out for their length.

    A line over the maximum is never held: it stands in `data` as an empty line
    (so the count of lines stays right) and in `too_long` as (line number, bytes),
    out of band, so no input byte can pass for it.
    """

    first_line: int
    data: bytes
    too_long: tuple[tuple[int, int], ...] = ()


def read_blocks(stream: BinaryIO, size: int = BLOCK, max_line: int = MAX_LINE) -> Iterator[Block]:
    """Blocks of about `size` bytes of whole lines (see `Block`); a leading UTF-8 BOM dropped.

    Only newlines are counted here (in C), so the reading process stays nearly idle
    while workers parse; `read1` returns what a pipe has, so output keeps flowing.
    A line longer than `max_line` bytes is skipped as it streams by: memory stays
    flat however long a line is, and the time is linear in the input.
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
            yield Block(line, b"\n", ((line, skipped + end),))
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
            yield _cut_long_lines(line, block, max_line)
            line += block.count(b"\n")
        if len(rest) > max_line:  # no newline in sight: skip the rest of this line as it comes
            skipped, rest = len(rest), b""
    if skipped >= 0:
        yield Block(line, b"\n", ((line, skipped),))
    elif rest:
        if first:
            rest = rest.removeprefix(b"\xef\xbb\xbf")
        yield _cut_long_lines(line, rest + b"\n", max_line)


def _cut_long_lines(first_line: int, block: bytes, max_line: int) -> Block:
    """`block` with each line over `max_line` bytes emptied and named in `too_long` (rare: checked first)."""
    if len(block) <= max_line + 1 or max(map(len, block.split(b"\n"))) <= max_line:
        return Block(first_line, block)
    lines = block.split(b"\n")
    too_long = tuple((first_line + i, len(x)) for i, x in enumerate(lines) if len(x) > max_line)
    return Block(first_line, b"\n".join(b"" if len(x) > max_line else x for x in lines), too_long)


_WORKER: LineScorer | None = None


def _init_worker(settings: BatchSettings, resolve: Resolver, parent: int) -> None:
    global _WORKER
    die_with_parent(parent)
    _WORKER = LineScorer(settings, *resolve(settings, None))


Job = tuple[int, bytes, bool, tuple[tuple[int, int], ...]]


def _work(job: Job) -> BlockResult:
    assert _WORKER is not None
    return _WORKER.score_block(*job)


def score_stream(
    blocks: Iterable[Block | tuple[int, bytes]],
    settings: BatchSettings,
    resolve: Resolver,
    workers: int = 1,
    lexicon: Any = None,
    json_lines: bool = False,
) -> Iterator[BlockResult]:
    """Score blocks of board lines (see `read_blocks`) in input order; `workers` > 1 scores that many at once.

    The fast engine's kernels (C and numba) release the GIL, so its workers are
    threads: the compiled trie and everything else is shared as it is, nothing
    is forked, pickled or copied, and a worker costs only its own stamp array.
    Engines that hold the GIL (reference) get forked processes instead.
    `resolve` turns settings into (selection, lexicon) (`solving.batch_inputs`);
    a `lexicon` given is used instead of the one it would load.
    """
    workers = workers_for(workers)
    selection, loaded = resolve(settings, lexicon)
    local = LineScorer(settings, selection, loaded)
    jobs: Iterator[Job] = ((b[0], b[1], json_lines, b[2] if len(b) > 2 else ()) for b in blocks)  # type: ignore[misc]
    if workers == 1:
        for job in jobs:
            yield local.score_block(*job)
    elif getattr(get_solver(settings.engine), "releases_gil", False):
        yield from _score_threads(local, jobs, workers)
    else:
        yield from _score_processes(local, jobs, workers, settings, resolve)


def _score_threads(first: LineScorer, jobs: Iterator[Job], workers: int) -> Iterator[BlockResult]:
    """Blocks scored by `workers` threads, each with a LineScorer of its own (scorers keep per-board stamps)."""
    import queue
    from collections import deque
    from concurrent.futures import Future, ThreadPoolExecutor

    idle: queue.SimpleQueue[LineScorer] = queue.SimpleQueue()
    idle.put(first)  # at most `workers` blocks are in work at once, so at most `workers` scorers are made

    def work(job: Job) -> BlockResult:
        try:
            scorer = idle.get_nowait()
        except queue.Empty:  # every scorer is busy: a new one, prepared in this thread
            scorer = LineScorer(first.settings, first.selection, first.lexicon)
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
    local: LineScorer, jobs: Iterator[Job], workers: int, settings: BatchSettings, resolve: Resolver
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
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=die_with_parent, initargs=(os.getpid(),))
    else:  # pragma: no cover - not Linux
        pool = multiprocessing.get_context("spawn").Pool(
            workers, initializer=_init_worker, initargs=(settings, resolve, os.getpid())
        )
    with pool:
        yield result
        yield from pool.imap(_work, jobs, chunksize=1)


def default_workers() -> int:
    """One worker per available core."""
    return workers_for(0)
