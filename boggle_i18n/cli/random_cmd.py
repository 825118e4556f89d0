"""`random`: roll a board from a dice set, or draw letters for any size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..api import LETTER_MODES, RolledBoard, roll
from ..board.notation import parse_size
from ..errors import BoardError
from ..language.records import get_language
from ..language.selection import select
from ..limits import check, clip
from . import app
from .common import OutputOption, StoreOption, check_output, emit, load_or_build, note, to_json
from .framework import Option


def again(rolled: RolledBoard) -> str:
    """The command that rolls the same board again."""
    parts = ["boggle-i18n random", f"--lang {rolled.language}"]
    if rolled.dice:
        parts.append(f"--dice {rolled.dice}")
    if rolled.letters:
        parts += [f"--size {rolled.board.rows}x{rolled.board.cols}", f"--letters {rolled.letters}"]
    parts.append(f"--seed {rolled.seed}")
    return " ".join(parts)


def _stream(rolled: RolledBoard, count: int, json_out: bool, output: Path | None, lexicon: Any, fresh: bool) -> None:
    """`--count N`: N boards from the same dice or faces as `rolled`, streamed to stdout (or written to `output`)."""
    import sys

    from ..comparison.rolls import board_source, roll_lines

    command = f"{again(rolled)} --count {count}"
    if fresh:  # the seed is said where it does not mix with the boards
        note(f"seed {rolled.seed} (again: {command})")
    lines = roll_lines(board_source(rolled, lexicon), count, rolled.seed, json_out, command)
    if output is not None and str(output) != "-":
        emit("".join(lines), output)
        return
    for text in lines:
        sys.stdout.write(text)
    sys.stdout.flush()


def describe(rolled: RolledBoard) -> str:
    """One line naming how the board was made."""
    shape = f"{rolled.board.rows}x{rolled.board.cols}"
    if rolled.letters is None:
        how = f"rolled dice set {rolled.dice}"
    else:
        if rolled.dice:
            source = f"the faces of {rolled.dice}"
        elif rolled.lexicon and get_language(rolled.language).attach:  # api.letter_distribution's clusters
            source = "the lexicon's clusters (a letter with the letters its record attaches)"
        else:
            source = "the lexicon's alphabet"
        weight = f", weighted by lexicon {rolled.lexicon}" if rolled.lexicon else ", uniform over printed faces"
        how = f"drew {shape} letters from {source}{weight}"
    return f"{how} (language {rolled.language}), seed {rolled.seed}"


@app.command("random")
def random_cmd(
    dice: str | None = Option(
        None, "--dice", metavar="SET", help="Dice set to roll (see `boggle-i18n dice`).", show_default=False
    ),
    lang: str | None = Option(
        None,
        "--lang",
        "-l",
        metavar="CODE",
        help="Language whose dice or letters to use [default: the dice set's, or en].",
        show_default=False,
    ),
    size: str | None = Option(
        None,
        "--size",
        metavar="RxC",
        help="Board size, e.g. 5x5 or 3x7 [default: the dice set's].",
        show_default=False,
    ),
    letters: str | None = Option(
        None,
        "--letters",
        metavar="uniform|lexicon",
        help="Draw each cell on its own instead of rolling dice, for any size: uniform over the dice set's "
        "printed faces, or each face weighted by how often it occurs in the language's lexicon.",
        show_default=False,
    ),
    seed: int | None = Option(
        None, "--seed", metavar="N", help="Random seed [default: a fresh one, always printed].", show_default=False
    ),
    count: int | None = Option(
        None,
        "--count",
        "-n",
        metavar="N",
        help="Stream N boards, one notation line each (--json: JSON Lines), for `score -`; the seed goes to stderr.",
        show_default=False,
    ),
    json_out: bool = Option(False, "--json", help="Print board, size, seed, language, dice and mode as JSON."),
    output: Path | None = OutputOption,
    store: Path | None = StoreOption,
) -> None:
    """Roll a random board: dice shuffled to cells, one face up (or letters drawn per cell)."""
    check_output(output)
    shape = parse_size(size) if size else None
    mode = letters.strip().lower() if letters is not None else None
    if mode is not None and mode not in LETTER_MODES:
        raise BoardError(f"--letters must be 'uniform' or 'lexicon', not {clip(str(letters), 40)!r}")
    lexicon = None
    if mode is None and dice is None:
        # No dice set of this size (40 of 45 languages have none): letters weighted by the lexicon, the rule
        # `compare` and the web follow (Selection.rolls), said on stderr and in the `again` command.
        if select(lang=lang, size=shape, store=store).rolls == "letters":
            mode = "lexicon"
    if mode == "lexicon":
        chosen = select(lang=lang, dice=dice, store=store)
        lexicon = load_or_build(chosen.require_lexicon(), store)
    if count is not None:
        check("count", count, "--count")
    rolled = roll(dice=dice, lang=lang, size=shape, letters=mode, seed=seed, lexicon=lexicon)
    if count is not None:
        _stream(rolled, count, json_out, output, lexicon, fresh=seed is None)
        return
    if json_out:
        emit(to_json({**rolled.to_dict(), "again": again(rolled)}), output)
    else:
        emit(board_text(rolled), output)


def board_text(rolled: RolledBoard) -> str:
    """`random`'s plain output: the grid, how it was made and the `again` command as `#` comments around the one
    notation line, so the output pipes into `solve -` and `score -` as it is (both skip `#` lines)."""
    board = rolled.board
    grid = board.grid(get_language(rolled.language).display_face)
    lines = [f"# {row}" for row in grid.splitlines()]
    lines += [board.notation(), f"# {describe(rolled)}", f"# again: {again(rolled)}"]
    return "\n".join(lines)
