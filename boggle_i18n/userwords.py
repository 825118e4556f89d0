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
from typing import Any

from .errors import BoggleI18nError
from .language.selection import select
from .lexicon.ensure import ensure_lexicon
from .lexicon.userlists import read_list, write_list
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
    lang: str | None, lexicon: str | None, store: str | os.PathLike[str] | None
) -> tuple[WordChecker, str | None]:
    selection = select(lang=lang, lexicon=lexicon, store=store)
    name = selection.require_lexicon()
    if name.endswith((".toml", ".marisa")):
        raise BoggleI18nError(
            f"lexicon {clip(name)!r}: word lists belong to a lexicon in the store; give its name, not a file",
        )
    return WordChecker(ensure_lexicon(name, store=store)), (None if store is None else os.fspath(store))


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


def remove_word(
    word: str,
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
) -> Change:
    """Take `word` out of the lexicon for this store's player (its blocklist); it must be a word of it now."""
    typed = _check_word(word)
    checker, folder = _checker(lang, lexicon, store)
    answer = checker.check(typed)
    if not answer.found or answer.normalised is None:
        raise BoggleI18nError(
            f"{clip(typed, 40)!r} is not a word of lexicon {checker.name} ({answer.reason}): nothing to remove",
        )
    stored = answer.normalised
    allowed = read_list(checker.name, "allowed", folder)
    if stored in allowed:  # a word the player added: taking it back
        path = write_list(checker.name, "allowed", [w for w in allowed if w != stored], folder)
        return Change(typed, stored, checker.name, "unadded", path)
    blocked = read_list(checker.name, "blocked", folder)
    path = write_list(checker.name, "blocked", [*blocked, stored], folder)
    return Change(typed, stored, checker.name, "removed", path)


def add_word(
    word: str,
    *,
    lang: str | None = None,
    lexicon: str | None = None,
    store: str | os.PathLike[str] | None = None,
) -> Change:
    """Put `word` into the lexicon for this store's player: a removed word comes back, a new one is allowlisted."""
    typed = _check_word(word)
    checker, folder = _checker(lang, lexicon, store)
    answer = checker.check(typed)
    if answer.found:
        raise BoggleI18nError(
            f"{clip(typed, 40)!r} is already a word of lexicon {checker.name}: nothing to add",
        )
    stored = _letters(checker, typed)
    blocked = read_list(checker.name, "blocked", folder)
    if stored in blocked:
        path = write_list(checker.name, "blocked", [w for w in blocked if w != stored], folder)
        return Change(typed, stored, checker.name, "restored", path)
    allowed = read_list(checker.name, "allowed", folder)
    path = write_list(checker.name, "allowed", [*allowed, stored], folder)
    return Change(typed, stored, checker.name, "added", path)


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
