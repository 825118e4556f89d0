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
) -> None:
    """List every language: code, name, lexicon recipes (built or not), status, dice or distribution, alphabet."""
    from ..language.overview import language_overview  # recipes and store scan: only when the command runs

    entries = language_overview(store)
    emit(to_json(entries) if json_out else languages_table(entries))
