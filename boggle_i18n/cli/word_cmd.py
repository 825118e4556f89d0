"""`word`: a player corrects their list (`word remove WORD`, `word add WORD`, `word list`, `word export`).

The library (`boggle_i18n.userwords`) decides and writes; this prints what it did.
"""

from __future__ import annotations

from pathlib import Path

from . import app
from .common import OutputOption, StoreOption, emit, handle_errors, load_or_build, to_json
from .framework import Argument, Option, UsageError

ACTIONS = ("add", "remove", "list", "export")


@app.command("word")
@handle_errors
def word_cmd(
    action: str = Argument(..., metavar="ACTION", help="add, remove, list or export."),
    words: list[str] | None = Argument(None, metavar="WORD", help="Words to add or remove, as you would type them."),
    lang: str | None = Option(
        None, "--lang", "-l", metavar="CODE", help="Language: its default lexicon [default: en].", show_default=False
    ),
    lexicon_name: str | None = Option(
        None, "--lexicon", metavar="NAME", help="Lexicon to correct instead of the language's.", show_default=False
    ),
    json_out: bool = Option(False, "--json", help="Print JSON: what each change did, or the lists."),
    store: Path | None = StoreOption,
    output: Path | None = OutputOption,
) -> None:
    """Correct your word list, kept in the store beside the lexicon: no rebuild, solve and score honour it at once.

    remove WORD: the lexicon no longer has WORD. add WORD: it has WORD (a removed word comes back).
    list: your removed and added words. export: a patch (git apply) carrying them into the shipped lists.
    """
    from ..userwords import change_words, export_patch, word_lists

    if action not in ACTIONS:
        raise UsageError(f"unknown action {action!r}: one of {', '.join(ACTIONS)}")
    words = words or []
    if action in ("add", "remove"):
        if not words:
            raise UsageError(f"word {action} needs a WORD")
        done = change_words(  # all checked, then written; a first-use build says what it builds
            action, words, lang=lang, lexicon=lexicon_name, store=store, loader=lambda n: load_or_build(n, store)
        )
        if json_out:
            emit(to_json([c.to_dict() for c in done]), output)
        else:
            emit("\n".join(f"{c.word}: {c.action} ({c.normalised} in {c.lexicon}; {c.path})" for c in done), output)
        return
    if words:
        raise UsageError(f"word {action} takes no WORD")
    if action == "list":
        lists = word_lists(lang=lang, lexicon=lexicon_name, store=store)
        if json_out:
            emit(to_json(lists), output)
        else:
            lines = [f"lexicon {lists['lexicon']}"]
            lines += [f"removed {w}" for w in lists["removed"]] + [f"added {w}" for w in lists["added"]]
            emit("\n".join(lines), output)
        return
    if json_out:
        raise UsageError("word export writes a patch: --json does not apply")
    emit(export_patch(lang=lang, lexicon=lexicon_name, store=store).rstrip("\n"), output)
