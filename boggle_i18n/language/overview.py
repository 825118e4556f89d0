"""What `boggle-i18n languages` shows: every language with its recipes, build status, boards and alphabet."""

from __future__ import annotations

import os
from typing import Any

from ..lexicon.ensure import lexicon_state
from ..lexicon.store import built_lexicons
from ..pipeline.recipe import load_recipe, recipe_names
from .records import Language, languages


def _recipe_status(name: str, built: dict[str, dict[str, Any]], store: str | os.PathLike[str] | None) -> dict[str, Any]:
    """One recipe of a language: its source package and whether (and how freshly) it is built."""
    from ..pipeline.sources import source_at_hand

    recipe = load_recipe(name)
    manifest = built.get(name)
    state = lexicon_state(recipe, store, manifest is not None)
    return {
        "name": name,
        "state": state,
        "word_count": manifest.get("word_count") if manifest else None,
        "source": recipe.source.name,
        "package": recipe.source.system_package,
        "licence": recipe.licence,
        "at_hand": source_at_hand(recipe) is not None,  # installed or cached: builds with no download
    }


def playable_lexicon(default: str | None, lexicons: list[dict[str, Any]]) -> str | None:
    """The word list to play a language with, without waiting for a download: its default when built, else
    another built one, else the default when its list is installed, else another installed one; None when every
    list needs a download. The order of `lexicon.ensure.installed_alternatives`, for the web page's choice."""
    built = [x["name"] for x in lexicons if x["state"] == "built"]
    at_hand = [x["name"] for x in lexicons if x["at_hand"]]
    for names in (built, at_hand):
        if default in names:
            return default
        if names:
            return names[0]
    return None


def _boards(lang: Language) -> dict[str, Any]:
    if lang.boards == "dice":
        return {"kind": "dice", "dice": list(lang.dice)}
    return {"kind": "distribution", "dice": [], "note": "letter distribution derived from the built lexicon"}


def _bare_q(lang: Language) -> str | None:
    """What a bare `q` typed on a board means (None for alphabets without q)."""
    if "q" not in lang.alphabet:
        return None
    return "qu" if lang.shorthands.get("q") == "qu" else "q"


def beta_languages() -> list[str]:
    """The codes of the beta languages, sorted: shipped and playable, but below the bar for a fair list
    (everyday-word coverage, size), each record saying why (`status_reason`)."""
    return sorted(code for code, lang in languages().items() if lang.status == "beta")


def language_overview(store: str | os.PathLike[str] | None = None, *, beta: bool = False) -> list[dict[str, Any]]:
    """The shipped languages, sorted by code, as plain data (the CLI prints it; `--json` dumps it).

    The stable ones only, unless `beta`: a language whose list is not fair enough (issue 26: under 93% of
    everyday words where the frequency source covers it, or too thin) is left out of the list, with its
    reason, and shown only when asked for; it still builds and plays when named.
    """
    built = built_lexicons(store)
    shipped = set(recipe_names())
    out = []
    for code, lang in sorted(languages().items()):
        if lang.status == "beta" and not beta:
            continue
        names = [n for n in lang.lexicons if n in shipped]
        statuses = [_recipe_status(n, built, store) for n in names]
        out.append(
            {
                "lang": code,
                "name": lang.name,
                "status": lang.status,
                "status_reason": lang.status_reason,
                "default_lexicon": lang.lexicon,
                "lexicons": statuses,
                "playable_lexicon": playable_lexicon(lang.lexicon, statuses),
                "boards": _boards(lang),
                "script": lang.script,
                "direction": lang.direction,
                "alphabet": lang.alphabet,
                "units": list(lang.units),
                "vowels": lang.vowels,
                "case": lang.case,
                "fold": dict(lang.fold),
                "bare_q": _bare_q(lang),
                "min_length": lang.min_length,
            }
        )
    return out
