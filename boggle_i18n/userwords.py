"""Players correct their list: remove a word the lexicon should not have, add one it lacks.

`remove_word("kanada", lang="de")` puts the word, as the lexicon holds it (folded by its recipe,
as `lookup` folds it), on the lexicon's blocklist in the store; `add_word` on its allowlist.
The lists are applied whenever the lexicon is loaded (lexicon/userlists.py), so `solve`,
`score`, `lookup` and the web page honour them at once, with no rebuild. `export_patch` turns
them into a patch for the shipped data: the blocked words as a recipe blocklist, the added
words as a list to review. The CLI (`word`) and the web page's "not a word?" button call these.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .errors import BoggleI18nError
from .language.selection import select
from .lexicon.ensure import ensure_lexicon
from .lexicon.store import Lexicon
from .lexicon.userlists import list_path, read_list, write_list
from .limits import clip
from .lookup import WordChecker
from .record import dataclass

MAX_WORD = 64


@dataclass(frozen=True)
class Change:
    """What a change did: the word as typed and as stored, the lexicon, and what happened."""

    word: str
    normalised: str
    lexicon: str
    action: str  # "removed", "restored" (a removed word given back), "added", "unblocked-and-added"
    path: str  # the list file written

    def to_dict(self) -> dict[str, Any]:
        """JSON form (`word add|remove --json`, the web page)."""
        return {
            "word": self.word,
            "normalised": self.normalised,
            "lexicon": self.lexicon,
            "action": self.action,
            "file": self.path,
        }


def _checker(
    lang: str | None,
    lexicon: str | None,
    store: str | os.PathLike[str] | None,
    loader: Callable[[str], Lexicon] | None = None,
) -> tuple[WordChecker, str | None]:
    """The lexicon's checker, built first if need be: by `loader` when given (the command line's, which says what
    it builds), else quietly."""
    selection = select(lang=lang, lexicon=lexicon, store=store)
    name = selection.require_lexicon()
    if name.endswith((".toml", ".marisa")):
        raise BoggleI18nError(
            f"lexicon {clip(name)!r}: word lists belong to a lexicon in the store; give its name, not a file",
        )
    lexicon_ = loader(name) if loader is not None else ensure_lexicon(name, store=store)
    return WordChecker(lexicon_), (None if store is None else os.fspath(store))


def _check_word(word: str) -> str:
    text = word.strip()
    if not text:
        raise BoggleI18nError("not a word: an empty string", code="lookup.empty_word")
    if len(text) > MAX_WORD or any(ch.isspace() or ch in "/\\\0" for ch in text):
        raise BoggleI18nError(
            f"not a word: {clip(text, 40)!r} (one word of at most {MAX_WORD} letters, no spaces or slashes)",
        )
    return text


def _letters(checker: WordChecker, typed: str) -> str:
    """`typed` folded as the lexicon's recipe folds it, refused unless every letter is the language's."""
    folded = checker.fold(typed.lower())
    language = checker.language
    letters = checker.spelling.split(folded)
    units = set(language.units)
    outside = sorted({ch for letter in letters if letter not in units for ch in letter if ch not in language.alphabet})
    if not folded or (language.alphabet and outside):
        raise BoggleI18nError(
            f"{clip(typed, 40)!r} has letters outside the {language.code} alphabet ({''.join(outside)}): "
            f"{language.alphabet}",
        )
    return folded


def change_words(
    action: str,
    words: list[str],
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
    loader: Callable[[str], Lexicon] | None = None,
) -> list[Change]:
    """`action` ("remove" or "add") for every word, all checked before any list is written: a bad word
    leaves both lists as they were. Remove: the word must be a word of the lexicon now (one the player
    added comes off the allowlist, any other goes on the blocklist). Add: the word must not be one (a
    removed word comes off the blocklist, any other goes on the allowlist, if its letters are the
    language's)."""
    if action not in ("remove", "add"):
        raise BoggleI18nError(f"unknown change {action!r}: remove or add")
    typed_words = list(dict.fromkeys(_check_word(w) for w in words))
    if not typed_words:
        raise BoggleI18nError("not a word: an empty string", code="lookup.empty_word")
    checker, folder = _checker(lang, lexicon, store, loader)
    lists = {kind: read_list(checker.name, kind, folder) for kind in ("blocked", "allowed")}
    before = {kind: list(words) for kind, words in lists.items()}
    done: list[tuple[str, str, str, str]] = []  # (typed, stored, action, list kind)
    for typed in typed_words:
        answer = checker.check(typed)
        if action == "remove":
            if not answer.found or answer.normalised is None:
                raise BoggleI18nError(
                    f"{clip(typed, 40)!r} is not a word of lexicon {checker.name} ({answer.reason}): nothing to remove"
                )
            stored = answer.normalised
            if stored in lists["allowed"]:  # a word the player added: taken back
                lists["allowed"].remove(stored)
                done.append((typed, stored, "unadded", "allowed"))
            elif stored not in lists["blocked"]:
                lists["blocked"].append(stored)
                done.append((typed, stored, "removed", "blocked"))
            continue
        if answer.found:
            raise BoggleI18nError(f"{clip(typed, 40)!r} is already a word of lexicon {checker.name}: nothing to add")
        stored = _letters(checker, typed)
        if stored in lists["blocked"]:
            lists["blocked"].remove(stored)
            done.append((typed, stored, "restored", "blocked"))
        elif stored not in lists["allowed"]:
            lists["allowed"].append(stored)
            done.append((typed, stored, "added", "allowed"))
    paths = {
        kind: write_list(checker.name, kind, lists[kind], folder)
        if lists[kind] != before[kind]
        else list_path(checker.name, kind, folder)
        for kind in lists
    }
    return [Change(typed, stored, checker.name, what, paths[kind]) for typed, stored, what, kind in done]


def remove_word(
    word: str,
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
) -> Change:
    """Take `word` out of the lexicon for this store's player (see `change_words`)."""
    [change] = change_words("remove", [word], lang=lang, lexicon=lexicon, store=store)
    return change


def add_word(
    word: str,
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
) -> Change:
    """Put `word` into the lexicon for this store's player (see `change_words`)."""
    [change] = change_words("add", [word], lang=lang, lexicon=lexicon, store=store)
    return change


def word_lists(
    *, lang: str | None = None, lexicon: str | None = None, store: str | os.PathLike[str] | None = None
) -> dict[str, Any]:
    """The player's lists of a lexicon: {"lexicon", "removed": [...], "added": [...]} (file order)."""
    name = select(lang=lang, lexicon=lexicon, store=store).require_lexicon()
    folder = None if store is None else os.fspath(store)
    return {
        "lexicon": name,
        "removed": read_list(name, "blocked", folder),
        "added": read_list(name, "allowed", folder),
    }


def export_patch(
    *, lang: str | None = None, lexicon: str | None = None, store: str | os.PathLike[str] | None = None
) -> str:
    """A unified diff (`git apply` reads it) that carries the lists into the shipped data.

    Removed words go to `pipelines/lists/<lexicon>-player.txt`, a word blocklist, and the
    lexicon's recipe gains the stage that reads it (once); added words go to
    `pipelines/lists/<lexicon>-player-added.txt` for a maintainer to check against a source
    (a recipe cannot add words its source lacks). Empty lists give an empty patch.
    """
    import difflib

    from .pipeline.recipe_files import merged_recipe
    from .resources import data_dir
    from .toml_cache import read_toml

    lists = word_lists(lang=lang, lexicon=lexicon, store=store)
    name = lists["lexicon"]
    pipelines = data_dir("pipelines")
    recipe_path = pipelines / f"{name}.toml"
    if not recipe_path.is_file():
        raise BoggleI18nError(f"lexicon {name!r} has no shipped recipe: there is nothing to patch")
    pieces: list[str] = []

    def diff(relative: str, old: str, new: str) -> None:
        if old == new:
            return
        before = f"a/pipelines/{relative}" if old else "/dev/null"
        pieces.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True), before, f"b/pipelines/{relative}"
            )
        )

    def merged(relative: str, words: list[str], header: str) -> tuple[str, str]:
        path = pipelines / relative
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
        have = {line.strip() for line in old.splitlines()}
        new = old or header
        new += "".join(w + "\n" for w in words if w not in have)
        return old, new

    if lists["removed"]:
        relative = f"lists/{name}-player.txt"
        header = f"# Words players of {name} removed (boggle-i18n word remove; exported by word export)\n"
        old, new = merged(relative, lists["removed"], header)
        diff(relative, old, new)
        recipe_text = recipe_path.read_text(encoding="utf-8")
        raw, _ = merged_recipe(str(recipe_path))
        has_stage = any(st.get("file") == relative for st in raw.get("stages", []) if isinstance(st, dict))
        if not has_stage:
            stage = f'\n[[stages]]\nstage = "blocklist"\nfile = "{relative}"\nmatch = "word"\n'
            if "stages" not in read_toml(str(recipe_path)):  # the base's stages: the recipe states them all now
                inherited = "".join(_stage_toml(st) for st in raw.get("stages", []))
                note = "# The stages of its base, and the players' blocklist (boggle-i18n word export)"
                stage = f"\n{note}\n{inherited}{stage}"
            diff(f"{name}.toml", recipe_text, recipe_text.rstrip("\n") + "\n" + stage)
    if lists["added"]:
        relative = f"lists/{name}-player-added.txt"
        header = f"# Words players of {name} added (boggle-i18n word add): check each against a source\n"
        old, new = merged(relative, lists["added"], header)
        diff(relative, old, new)
    return "".join(pieces)


def _stage_toml(stage: dict[str, Any]) -> str:
    """One `[[stages]]` table as TOML text (strings, numbers, booleans, lists and tables of them)."""
    lines = ["", "[[stages]]"] + [f"{key} = {_toml_value(value)}" for key, value in stage.items()]
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    from . import jsontext

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return str(jsontext.dumps(value, ensure_ascii=False))
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise BoggleI18nError(f"cannot write {value!r} as TOML")
