"""`lookup`: is this a word? The library (`boggle_i18n.lookup`) decides; this prints its answers."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import BoggleI18nError
from . import app
from .common import OutputOption, StoreOption, emit, handle_errors, load_or_build, to_json
from .framework import Argument, Option

STDIN = "-"


def _words(words: list[str]) -> list[str]:
    """The words given; a lone `-` reads them from stdin, one per line (blank lines skipped)."""
    if words == [STDIN]:
        data = sys.stdin.buffer.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BoggleI18nError("stdin is not UTF-8 text") from None
        words = [line.strip().lstrip("\ufeff") for line in text.split("\n")]
        words = [w for w in words if w]
        if not words:
            raise BoggleI18nError("no words on stdin")
    return words


@app.command("lookup")
@handle_errors
def lookup_cmd(
    words: list[str] = Argument(
        ..., metavar="WORD", help="Words to look up, as you would type them; - reads one per line from stdin."
    ),
    lang: str | None = Option(
        None, "--lang", "-l", metavar="CODE", help="Language: its default lexicon [default: en].", show_default=False
    ),
    lexicon_name: str | None = Option(
        None,
        "--lexicon",
        metavar="NAME",
        help="Lexicon to ask (a built name, a recipe name or .toml path) instead of the language's.",
        show_default=False,
    ),
    json_out: bool = Option(False, "--json", help="Print a JSON list: word, normalised, found, dropped_by."),
    store: Path | None = StoreOption,
    output: Path | None = OutputOption,
) -> None:
    """Say whether each word is in the lexicon; if not, which stage dropped it or that its source never had it.

    The word is normalised by the recipe the lexicon was built with (Häuser -> haeuser in de).
    Exit 0 when every word is answered, whatever the answers.
    """
    from ..lookup import CATEGORIES, lookup

    answers = lookup(
        _words(words), lang=lang, lexicon=lexicon_name, store=store, loader=lambda name: load_or_build(name, store)
    )
    if json_out:
        emit(to_json([a.to_dict() for a in answers]), output)
        return
    lines = []
    for a in answers:
        shown = a.word if a.normalised in (None, a.word) else f"{a.word} -> {a.normalised}"
        why = f"{CATEGORIES[a.category]}: {a.reason}" if a.dropped is not None else a.reason
        lines.append(f"{shown}: {'yes' if a.found else 'no'}, {why}")
    emit("\n".join(lines), output)
