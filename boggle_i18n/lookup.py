""" "Is this a word?": a word as a player types it, normalised by the recipe its lexicon was built with.

The word goes through the very stages recorded in the lexicon's manifest (the
merged recipe), one entry at a time, so `Häuser` becomes `haeuser` in `de`
exactly as the pipeline made it. When the word is not in the lexicon the answer
says why: the stage that dropped it (`blocklist file='lists/de-abbreviations.txt'`)
or, when it passes every stage, that the source never had it.

A player types words in any case: the word is tried as typed and then in lower
case (a capital a list marks as a name would otherwise hide `Kaas`), and the
first form the lexicon holds answers; else the first form a stage dropped
explains why (`Madrid`: the capital rule), or the source never had it.

Each answer also has a `category`, the reason in a player's terms (`abbreviation`,
`proper-name`, `not-in-source` ...; see `CATEGORIES`): the web page shows it in the
player's language, the CLI prints it beside the stage. It is decided here, from the
stage that dropped the word and what that stage saw, never by a face.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import BoggleI18nError
from .language.records import get_language
from .language.selection import select
from .lexicon.build import stage_context
from .lexicon.ensure import ensure_lexicon
from .lexicon.store import Lexicon
from .lexicon.userlists import list_path as user_list_path
from .pipeline.recipe import Recipe, parse_recipe
from .pipeline.runner import build_stages
from .pipeline.stages import StageFn, _is_abbreviation
from .pipeline.typed import FaceFold, trace
from .spelling import spelling_of

# The reason categories an answer can have, with the phrase the CLI prints (the web page has them translated).
CATEGORIES = {
    "word": "a word",
    "abbreviation": "an abbreviation",
    "proper-name": "a proper name",
    "foreign": "a word of another language",
    "letters": "has letters the game does not use",
    "length": "too short or too long for the game",
    "rare": "too rare for this word list",
    "excluded": "left out by the word list's rules",
    "not-in-source": "not in the source list",
    # Only the static site (export-web) answers this: it ships the word list's trie, not its recipe's stages
    # and source, so it can say that a word is not in the list but not why.
    "not-in-list": "not in this word list",
}
# A blocklist file says what it lists by the last part of its name (`lists/de-abbreviations.txt`).
_LIST_KINDS = {
    "abbreviations": "abbreviation",
    "junk": "abbreviation",
    "names": "proper-name",
    "first-names": "proper-name",
    "places": "proper-name",
    "english": "foreign",
}
USER_BLOCKLIST = "user-blocklist"  # the player's own list (lexicon/userlists.py): not a recipe stage
_STAGE_KINDS = {
    "require-vowel": "abbreviation",  # no vowel: btw, kg, cm, pst
    "alphabet": "letters",
    "dice-alphabet": "letters",
    "length": "length",
    "frequent": "rare",
    USER_BLOCKLIST: "excluded",
}


@dataclass(frozen=True)
class Dropped:
    """The stage that dropped a word: its number in the recipe, name and parameters."""

    index: int
    stage: str
    params: dict[str, Any]
    entry: str = ""  # the entry as the stage saw it (`BMW`), for its category

    @property
    def category(self) -> str:
        """Why, in a player's terms: a key of `CATEGORIES`."""
        if self.stage in ("case", "drop-capitalised"):
            return "abbreviation" if _is_abbreviation(self.entry) else "proper-name"
        if self.stage == "blocklist":
            stem = str(self.params.get("file", "")).rsplit("/", 1)[-1].removesuffix(".txt")
            for kind in sorted(_LIST_KINDS, key=len, reverse=True):
                if stem.endswith("-" + kind) or stem == kind:
                    return _LIST_KINDS[kind]
            return "excluded"
        return _STAGE_KINDS.get(self.stage, "excluded")

    def label(self) -> str:
        """`stage 9 (blocklist file='lists/de-abbreviations.txt')`."""
        params = " ".join(f"{k}={v!r}" for k, v in self.params.items())
        if self.stage == USER_BLOCKLIST:
            return f"your word list ({params})"
        return f"stage {self.index} ({self.stage}{' ' + params if params else ''})"


@dataclass(frozen=True)
class Answer:
    """One word's answer. `normalised` is what the stages make of it (None when a stage dropped it)."""

    word: str
    lexicon: str
    found: bool
    normalised: str | None
    dropped: Dropped | None
    length: int | None = None  # letters of `normalised` by the lexicon's spelling (Welsh `ll`, Korean keys: one each)
    added: bool = False  # found because the player added it (lexicon/userlists.py)

    @property
    def reason(self) -> str:
        """Why the answer is what it is, in one phrase."""
        if self.found:
            return f"added to lexicon {self.lexicon} by your word list" if self.added else f"in lexicon {self.lexicon}"
        if self.dropped is not None:
            return f"dropped by {self.dropped.label()}"
        return f"not in the source of {self.lexicon}"

    @property
    def category(self) -> str:
        """The reason in a player's terms (a key of `CATEGORIES`): the same from the CLI and the web page."""
        if self.found:
            return "word"
        return self.dropped.category if self.dropped is not None else "not-in-source"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (`lookup --json`)."""
        dropped = None
        if self.dropped is not None:
            dropped = {"index": self.dropped.index, "stage": self.dropped.stage, "params": self.dropped.params}
        return {
            "word": self.word,
            "normalised": self.normalised,
            "found": self.found,
            "lexicon": self.lexicon,
            "dropped_by": dropped,
            "reason": self.reason,
            "category": self.category,
            "length": self.length,
        }


class WordChecker:
    """A lexicon and the stages of the recipe it was built with, ready to answer many words."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.name = str(lexicon.manifest["name"])
        recipe = _recipe_of(lexicon)
        self.specs = list(recipe.stages)
        self._fns: list[StageFn] = build_stages(self.specs, stage_context(recipe, get_language(recipe.language)))
        self.spelling = spelling_of(lexicon)  # how the lexicon counts letters: a game's length rule asks it
        self.language = get_language(recipe.language)
        self.fold = FaceFold(self.specs, stage_context(recipe, self.language))  # the rewriting stages alone

    def trace(self, entry: str) -> tuple[str | None, Dropped | None]:
        """The entry through every stage: (word it becomes, None) or (None, the stage that dropped it).

        The walk is `pipeline.typed.trace`, the one a board face takes too (its rewriting stages only).
        """
        out, index = trace(self.specs, self._fns, entry)
        if index:
            name, params = self.specs[index - 1]
            return None, Dropped(index, name, dict(params), out)
        return out, None

    def check(self, word: str) -> Answer:
        """Whether `word` (as a player types it) is in the lexicon, and why not."""
        if not word.strip():
            raise BoggleI18nError("not a word: an empty string", code="lookup.empty_word")
        traced = []
        user = self.lexicon.user_blocked or self.lexicon.user_allowed
        for form in dict.fromkeys((word, word.lower())):
            normalised, dropped = self.trace(form)
            if normalised is not None and normalised in self.lexicon:
                added = normalised in self.lexicon.user_allowed
                return Answer(word, self.name, True, normalised, None, self.spelling.length(normalised), added)
            if dropped is not None and dropped.stage == "frequent":
                # a frequency filter sees the source spelling (أول); a player types the stored, folded one
                # (اول), which the frequency list may not hold: the word is in the lexicon all the same
                folded = self.fold(form)
                if folded in self.lexicon:
                    added = folded in self.lexicon.user_allowed
                    return Answer(word, self.name, True, folded, None, self.spelling.length(folded), added)
            if user:  # the player's lists: a word they removed says so; one they added is found
                folded = self.fold(form)
                if folded in self.lexicon.user_allowed and folded in self.lexicon:
                    return Answer(word, self.name, True, folded, None, self.spelling.length(folded), added=True)
                if folded in self.lexicon.user_blocked:
                    mine = Dropped(
                        0, USER_BLOCKLIST, {"file": user_list_path(self.name, "blocked", _store_of(self.lexicon))}, form
                    )
                    return Answer(word, self.name, False, None, mine, None)
            traced.append((normalised, dropped))
        # Not a word: the first form a stage dropped says why (`Madrid`: the capital rule), else
        # every form passed the stages and the source never had it.
        normalised, dropped = next(((n, d) for n, d in traced if d is not None), traced[-1])
        length = self.spelling.length(normalised) if normalised is not None else None
        return Answer(word, self.name, False, normalised, dropped, length)


def _store_of(lexicon: Lexicon) -> str | None:
    """The store folder a loaded lexicon came from (its trie's folder)."""
    return None if lexicon.path is None else str(lexicon.path.parent)


def _recipe_of(lexicon: Lexicon) -> Recipe:
    """The recipe recorded in the lexicon's manifest (what it was built with, not today's file)."""
    raw = lexicon.manifest.get("recipe")
    if not isinstance(raw, dict):
        raise BoggleI18nError(
            f"lexicon {lexicon.manifest.get('name')!r} records no recipe: cannot explain its words",
            code="lexicon.no_recipe",
            params={"name": str(lexicon.manifest.get("name"))},
        )
    return parse_recipe(raw, f"recipe of lexicon {lexicon.manifest.get('name')!r}")


def lookup(
    words: Iterable[str],
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
    loader: Callable[[str], Lexicon] | None = None,
) -> list[Answer]:
    """Answer "is this a word?" for each of `words` in lexicon `lexicon` (default: `lang`'s own).

    The lexicon is built first if it is not built yet (as `solve` does), by `loader` when given (the command
    line's, which says what it builds), else quietly.
    """
    selection = select(lang=lang, lexicon=lexicon, store=store)
    name = selection.require_lexicon()
    checker = WordChecker(loader(name) if loader is not None else ensure_lexicon(name, store=store))
    return [checker.check(w) for w in words]
