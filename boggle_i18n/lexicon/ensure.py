"""Load a lexicon, building it first when it is missing or its recipe changed.

Kept apart from build.py so that loading a built lexicon (every `solve`) imports only the
recipe parser, never the sources, stages and runner a build needs: those load when a
build actually starts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from ..errors import BoggleI18nError, LexiconError, SourceError
from ..pipeline.recipe import Recipe, load_recipe
from ..resources import data_dir
from ..storage import check_writable_dir, store_dir
from .store import Lexicon, lexicon_name, lexicon_paths

Progress = Callable[[str], None]


def ensure_lexicon(
    name: str,
    *,
    store: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    on_build: Callable[[str], None] | None = None,
) -> Lexicon:
    """Load lexicon `name`, building it first from the best available source if it is not built.

    `name` may be a recipe `.toml` path: its lexicon is stored under the recipe's own name.
    A lexicon whose manifest names another recipe hash than the current recipe
    (a shipped recipe updated since, or a user's recipe edited) is rebuilt; if
    it cannot be (its source is gone), that is an error, never a silent load.
    """
    if name.endswith(".marisa"):
        return Lexicon.load(name)  # a trie file by path: nothing to build
    if not name.endswith(".toml"):
        name = lexicon_name(name)
    recipe = _recipe_or_none(name)
    name_in_store = recipe.name if recipe else name
    _, manifest_path = lexicon_paths(name_in_store, store)
    if not manifest_path.is_file():
        check_writable_dir(store_dir(store), "lexicon store")  # before saying "building"
        if on_build:
            on_build(name_in_store)
        return _build(name, store=store, progress=progress)
    if recipe is not None and (why := stale_reason(manifest_path, recipe)):
        check_writable_dir(store_dir(store), "lexicon store")
        if on_build:
            on_build(name_in_store)
        try:
            return _build(name, store=store, progress=progress)
        except SourceError as exc:
            raise LexiconError(f"lexicon {name_in_store!r} was {why} and cannot be rebuilt: {exc}") from None
    return Lexicon.load(name_in_store, store)


def _recipe_or_none(name: str) -> Recipe | None:
    """The recipe a lexicon name refers to: a `.toml` path, or a shipped recipe of that name (None for `--as` names)."""
    if name.endswith(".toml"):
        return load_recipe(name)
    if (data_dir("pipelines") / f"{name}.toml").is_file():
        return load_recipe(name)
    return None


def stale_recipe(manifest_path: Path, recipe: Recipe) -> str | None:
    """The recipe hash a built lexicon records, if it differs from `recipe`'s (None if current or unknown).

    Only a lexicon built from this very recipe counts: one stored under the same
    name from another recipe (`--as`) records that recipe's name and is left alone.
    """
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        recorded = manifest.get("recipe_sha256")
        recorded_name = manifest.get("recipe", {}).get("name")
    except (OSError, ValueError, AttributeError):
        return None  # missing or broken: Lexicon.load reports it
    if recorded_name != recipe.name or recorded == recipe.sha256:
        return None
    return str(recorded)


def _build(name: str, *, store: str | os.PathLike[str] | None, progress: Progress | None) -> Lexicon:
    from .build import build_lexicon  # the pipeline: only when something is built

    return build_lexicon(name, store=store, progress=progress)


def stale_letters(manifest_path: Path, recipe: Recipe) -> bool:
    """Whether the recipe's language record now has another letter policy than the lexicon was built with.

    A manifest from before the policy hash was recorded is compared by its spelling (units and
    apart words), the part of the policy that solving reads back from the manifest.
    """
    from ..language.records import get_language  # the record: only when a built lexicon is checked

    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("recipe", {}).get("name") != recipe.name:
            return False  # stored under this name from another recipe (`--as`): left alone
        language = get_language(recipe.language)
    except (OSError, ValueError, AttributeError, BoggleI18nError):
        return False  # missing or broken manifest (Lexicon.load reports it), or no such record
    recorded = manifest.get("letter_policy_sha256")
    if isinstance(recorded, str):
        return recorded != language.policy_sha256
    return bool(manifest.get("spelling", {"units": [], "apart": []}) != language.spelling.to_dict())


def stale_reason(manifest_path: Path, recipe: Recipe) -> str | None:
    """Why a built lexicon must be rebuilt before use (None when it is current)."""
    if built_with := stale_recipe(manifest_path, recipe):
        return f"built from an older recipe (sha256 {built_with[:12]}, now {recipe.sha256[:12]})"
    if stale_letters(manifest_path, recipe):
        return f"built under an older letter policy of language {recipe.language!r} (its record changed since)"
    return None


def lexicon_state(recipe: Recipe, store: str | os.PathLike[str] | None, built: bool) -> str:
    """What `languages` and `lexicons` say of a recipe's lexicon: not built, built, or stale and why."""
    if not built:
        return "not built"
    path = lexicon_paths(recipe.name, store)[1]
    if stale_recipe(path, recipe):
        return "stale (built from an older recipe)"
    if stale_letters(path, recipe):
        return "stale (built under an older letter policy)"
    return "built"
