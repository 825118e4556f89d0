"""`languages`: every language with its lexicon recipes, build status, boards and alphabet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import app
from .common import StoreOption, emit, handle_errors, to_json
from .framework import Option
from .render import counted, isolate


def _lexicons(entry: dict[str, Any]) -> str:
    parts = []
    for lex in entry["lexicons"]:
        state = lex["state"]
        if state == "built":
            state = f"built, {counted(lex['word_count'], 'word')}"
        parts.append(f"{lex['name']} ({state})")
    return "; ".join(parts) or "(no recipe)"


def languages_table(entries: list[dict[str, Any]]) -> str:
    """One block per language: code, name and status, then its lexicons, boards, script and alphabet."""
    lines = []
    for e in entries:
        status = f"beta: {e['status_reason']}" if e["status"] == "beta" else e["status"]
        boards = e["boards"]
        board_text = ", ".join(boards["dice"]) if boards["kind"] == "dice" else f"distribution ({boards['note']})"
        lines += [
            f"{e['lang']:<6} {e['name']}  [{status}]",
            f"       lexicons: {_lexicons(e)}",
            f"       boards:   {board_text}",
            f"       script:   {e['script']}, " + ("right to left" if e["direction"] == "rtl" else "left to right"),
            f"       alphabet: {isolate(e['alphabet'], e['direction'])}"
            + (f" + {' '.join(e['units'])}" if e["units"] else "")
            + (f"  (bare q = {e['bare_q']})" if e["bare_q"] else ""),
        ]
    return "\n".join(lines)


@app.command("languages")
@handle_errors
def languages_cmd(
    store: Path | None = StoreOption,
    json_out: bool = Option(False, "--json", help="Print the languages as JSON."),
    show_beta: bool = Option(
        False, "--all", help="Also list the beta languages (below the bar for a fair word list; each says why)."
    ),
) -> None:
    """List the languages: code, name, lexicon recipes (built or not), status, dice or distribution, alphabet."""
    from ..language.overview import beta_languages, language_overview  # recipes and store scan: when it runs

    entries = language_overview(store, beta=show_beta)
    if json_out:
        emit(to_json(entries))
        return
    table = languages_table(entries)
    hidden = [] if show_beta else beta_languages()
    if hidden:
        table += (
            f"\n\n{len(entries)} languages. In beta, not listed (their word lists are below the bar for a fair "
            f"list; they build and play when named): {', '.join(hidden)}. `boggle-i18n languages --all` shows "
            "them with the reason."
        )
    emit(table)
