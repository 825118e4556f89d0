"""`judge`: settle a round of the physical game. The library (`boggle_i18n.judging`) decides; this reads the
lists and prints its verdict."""

from __future__ import annotations

import sys
import textwrap
import unicodedata
from pathlib import Path

from .. import jsontext
from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..limits import clip
from ..solving import choose_board
from . import app
from .common import OutputOption, StoreOption, check_output, emit, load_or_build, to_json, warn
from .framework import Argument, Option
from .solve_cmd import STDIN, read_board_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..judging import Judgement

MAX_LIST_BYTES = 1 << 20  # one player's list file (10,000 words of 100 bytes)


def _decode(data: bytes, name: str) -> str:
    if len(data) > MAX_LIST_BYTES:
        raise BoggleI18nError(f"{name} is over {MAX_LIST_BYTES:,} bytes: a list holds one player's words")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BoggleI18nError(f"{name} is not UTF-8 text (line {line}: byte {data[exc.start]:#04x})") from None


def _read_bounded(path: Path, name: str) -> bytes:
    if path.is_dir():
        raise BoggleI18nError(f"{name} is a folder")
    with path.open("rb") as stream:
        return stream.read(MAX_LIST_BYTES + 1)


def _stdin_lists() -> list[tuple[str, list[str]]]:
    """`NAME: words...` lines from stdin (blank lines skipped)."""
    text = _decode(sys.stdin.buffer.read(MAX_LIST_BYTES + 1), "stdin")
    lists = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        name, colon, words = line.partition(":")
        if not colon or not name.strip():
            raise BoggleI18nError(f"stdin line {number}: expected 'NAME: words...', got {clip(line.strip(), 40)!r}")
        lists.append((name.strip(), words.split()))
    if not lists:
        raise BoggleI18nError("no lists on stdin: one 'NAME: words...' line per player")
    return lists


def read_lists(specs: list[str]) -> dict[str, list[str]]:
    """Each player's words: `FILE` (the name is its stem), `NAME=FILE`, or `-` (`NAME: words...` lines on stdin).

    A file holds words split by spaces or lines. A name given twice is refused, not merged.
    """
    lists: list[tuple[str, list[str]]] = []
    if specs.count(STDIN) > 1:
        raise BoggleI18nError("stdin (-) can be read once")
    for spec in specs:
        if spec == STDIN:
            lists += _stdin_lists()
            continue
        name, equals, file = spec.partition("=")
        if not equals:
            name, file = Path(spec).stem, spec
        label = f"word list {clip(file)}"
        if not file:
            raise BoggleI18nError(f"{clip(spec)}: expected FILE or NAME=FILE")
        words = _decode(_read_bounded(Path(file), label), label).split()
        lists.append((name.strip(), words))
    out: dict[str, list[str]] = {}
    for name, words in lists:
        if name in out:
            raise BoggleI18nError(f"player {clip(name, 40)!r} is given twice: one list a player")
        out[name] = words
    return out


@app.command("judge")
def judge_cmd(
    board: str | None = Argument(
        None,
        metavar="BOARD",
        help="Board as `solve` reads it (rows split by '/' or spaces, in one argument; [qu] for a multi-letter "
        "face); - reads it from stdin.",
        show_default=False,
    ),
    lists: list[str] | None = Argument(
        None,
        metavar="LIST",
        help="A player's words: FILE (the player is the file's name without extension), NAME=FILE, or - for "
        "'NAME: words...' lines on stdin, one per player.",
        show_default=False,
    ),
    board_file: Path | None = Option(
        None,
        "--file",
        "-f",
        metavar="FILE",
        help="Read the board from FILE: one row per line, faces split by spaces.",
        show_default=False,
    ),
    lang: str | None = Option(
        None,
        "--lang",
        "-l",
        metavar="CODE",
        help="Language: its default lexicon, dice and rules [default: the lexicon's, or en].",
        show_default=False,
    ),
    lexicon_name: str | None = Option(
        None,
        "--lexicon",
        metavar="NAME",
        help="Lexicon to judge by (a built name, a recipe name or .toml path) instead of the language's.",
        show_default=False,
    ),
    dice: str | None = Option(
        None,
        "--dice",
        metavar="SET",
        help="Dice set whose rules apply (min length, scoring, q = qu).",
        show_default=False,
    ),
    size: str | None = Option(
        None, "--size", metavar="RxC", help="Shape of an unseparated board string, e.g. 3x5.", show_default=False
    ),
    no_diagonals: bool = Option(False, "--no-diagonals", help="Only horizontal and vertical neighbours."),
    min_length: int | None = Option(
        None,
        "--min-length",
        metavar="N",
        help="Shortest word that counts, in letters [default: the dice set's].",
        show_default=False,
    ),
    scoring: str | None = Option(
        None,
        "--scoring",
        metavar="TABLE",
        help="Scoring preset or a table like 3:1,4:1,5:2,6:3,7:5,8:11 [default: the dice set's].",
        show_default=False,
    ),
    bare_q: str | None = Option(
        None, "--bare-q", metavar="qu|q", help="What a lone q means [default: from the dice].", show_default=False
    ),
    no_strike: bool = Option(False, "--no-strike", help="Everyone keeps the words they share (no duplicate rule)."),
    paths: bool = Option(False, "--paths", help="Draw the path of each word on the board."),
    json_out: bool = Option(
        False, "--json", help="Print one JSON object (board, rules, each player's words and total, missed words)."
    ),
    output: Path | None = OutputOption,
    store: Path | None = StoreOption,
) -> None:
    """Judge a round of the physical game: each player's words scored on the board, a word two players found
    struck for both (the classic rule), the reason for every word that scores nothing, the totals and the
    words nobody found, best first.

    Words are matched as written: case, accents, final forms and digraphs fold as `lookup` folds them.
    """
    from ..judging import Referee, check_lists, judgement_dict

    check_output(output)
    specs = list(lists or [])
    if board_file is not None and board is not None:
        specs.insert(0, board)  # with --file every argument is a list
        board = None
    if not specs:
        raise BoggleI18nError("give the board and at least one list (FILE, NAME=FILE, or - for stdin)")
    if STDIN in specs and (board == STDIN or str(board_file) == STDIN):
        raise BoggleI18nError("stdin (-) can hold the board or the lists, not both")
    text, file_format = read_board_text([board] if board is not None else None, board_file)
    players = read_lists(specs)
    check_lists(players)
    # Parsed first: a typo in the board should not wait for a lexicon build.
    chosen, parsed = choose_board(
        text,
        lang=lang,
        lexicon=lexicon_name,
        dice=dice,
        size=parse_size(size) if size else None,
        min_length=min_length,
        scoring=scoring,
        diagonals=not no_diagonals,
        bare_q=bare_q,
        store=store,
        file_format=file_format,
    )
    name = chosen.require_lexicon()
    for message in chosen.warnings:
        warn(message)
    lexicon = load_or_build(name, store)
    verdict = Referee(parsed, lexicon, chosen.rules, selection=chosen).judge(players, strike=not no_strike)
    if json_out:
        emit(json_text(judgement_dict(verdict, paths=paths)), output)
    else:
        emit(render_judgement(verdict, paths=paths), output)


def json_text(document: dict[str, Any]) -> str:
    """The JSON document as `solve --json` lays one out: each player an object over lines, each of its words
    on one line, each missed word on one line."""
    depths = {"players": 3}  # the list, a player's keys, then one line a word
    items = []
    for key, value in document.items():
        text = to_json(value, depth=depths.get(key, 1))
        items.append(f"  {jsontext.dumps(key)}: " + text.replace("\n", "\n  "))
    return "{\n" + ",\n".join(items) + "\n}"


def _rtl_text(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def render_judgement(j: Judgement, paths: bool = False) -> str:
    """The verdict as text: the board, each player's words with points or reason and total, then the missed."""
    from ..board.board import display_face
    from ..judging import shared_reason
    from ..language.records import get_language
    from ..solver.base import FoundWord
    from .render import counted, draw_path, isolate, rtl_grid

    language = get_language(j.lang) if j.lang else None
    rtl = language is not None and language.direction == "rtl"
    shown = language.display if language is not None else str
    face = language.display_face if language is not None else display_face
    board, rules = j.board, j.rules
    assert board is not None and rules is not None  # judge() fills them

    def bidi(text: str) -> str:  # a word or a name isolated when it is right to left, so the line stays in order
        return isolate(text, "rtl" if rtl or _rtl_text(text) else "ltr")

    grid = board.grid(face)
    played = "".join(f"; {k} {v}" for k, v in (("language", j.lang), ("dice", j.dice)) if v)
    out = [
        rtl_grid(grid) if rtl else grid,
        "",
        f"board {board.notation()} ({board.rows}x{board.cols}){played}",
        f"lexicon {j.lexicon}; min {counted(rules.min_length, 'letter')}; "
        f"scoring {rules.scoring.name} ({rules.scoring.describe()}); diagonals {'on' if rules.diagonals else 'off'}; "
        + ("a word two players found is struck" if j.strike else "shared words are kept (--no-strike)"),
    ]
    for p in j.players:
        out += ["", f"{bidi(p.name)}: {counted(p.total, 'point')}"]
        if not p.words:
            out.append("  (no words)")
        heads = []
        for w in p.words:  # `Kaas -> kaas`, as `lookup` shows a word the lexicon holds in another form
            form = shown(w.word) if w.word is not None else w.written
            heads.append(bidi(w.written) + (f" -> {bidi(form)}" if form != w.written else ""))
        width = max((len(h) for h in heads), default=0)
        for head, w in zip(heads, p.words, strict=True):
            # a shared word's reason names players: worded by the library, each name isolated here
            reason = shared_reason(w.points, w.shared_with, j.strike, bidi) if w.shared_with else w.reason
            out.append(f"  {head.ljust(width)}  {w.points:>2}  {reason}")
            if paths and w.path is not None and w.word is not None:
                cells = tuple(board.position(i) for i in w.path)
                drawn = draw_path(board, FoundWord(w.word, w.points, cells), face)
                out.append("\n".join("  " + line for line in drawn.split("\n")))
    ranked = sorted(j.players, key=lambda p: -p.total)
    out += ["", "totals: " + ", ".join(f"{bidi(p.name)} {p.total}" for p in ranked)]
    missed_points = sum(w.points for w in j.missed)
    out += [
        "",
        f"missed: {counted(len(j.missed), 'word', grouped=False)} nobody found, "
        f"{counted(missed_points, 'point')}, best first:",
    ]
    groups: dict[int, list[str]] = {}
    for found in j.missed:  # best first already: grouped by points, in that order
        groups.setdefault(found.points, []).append(bidi(shown(found.word)))
    for points, words in groups.items():
        out.append(
            textwrap.fill(
                f"{counted(points, 'point')}: " + " ".join(words),
                width=100,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
    return "\n".join(out)
