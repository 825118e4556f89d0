"""Load a lexicon, building it first when it is missing or its recipe changed.

Kept apart from build.py so that loading a built lexicon (every `solve`) never imports the
sources, stages and runner a build needs: those load when a build actually starts. A
lexicon built from the recipe as it is now, under its language's letter policy as it is now,
is told apart by the hash of the recipe's merged content (`pipeline/recipe_files.py`) and
the record's policy hash, so the recipe schema and its checks load only for a lexicon that
is missing or stale.
"""

from __future__ import annotations

import os

from .. import jsontext
from ..errors import BoggleI18nError, LexiconError, NoSourceError, RecipeError, SourceError
from ..folders import clean, data_folder, read_regular
from ..pipeline.recipe_files import content_sha256, merged_recipe
from .store import Lexicon, is_lexicon_name, lexicon_files, lexicon_name, lexicon_paths

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable

    Progress = Callable[[str], None]
    from pathlib import Path
    from typing import Any

    from ..pipeline.recipe import Recipe


def ensure_lexicon(
    name: str,
    *,
    store: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    on_build: Callable[[str], None] | None = None,
    on_read: Callable[[int], None] | None = None,
) -> Lexicon:
    """Load lexicon `name`, building it first from the best available source if it is not built.

    `name` may be a recipe `.toml` path: its lexicon is stored under the recipe's own name.
    A lexicon whose manifest names another recipe hash than the current recipe
    (a shipped recipe updated since, or a user's recipe edited) is rebuilt; if
    it cannot be (its source is gone), that is an error, never a silent load. A build says its language and
    source through `progress`, and how much of its list it has read through `on_read(percent)` (the web page's
    bar; a terminal's comes from the progress task).
    """
    if name.endswith(".marisa"):
        return Lexicon.load(name)  # a trie file by path: nothing to build
    if not name.endswith(".toml"):
        name = lexicon_name(name)
    current = _current_build(name, store)
    if current is not None:
        return Lexicon.load(current, store)
    recipe = _recipe_or_none(name)
    name_in_store = recipe.name if recipe else name
    _, manifest_path = lexicon_paths(name_in_store, store)
    from ..storage import check_writable_dir, store_dir  # a build or a load not current: off the cold path

    if not manifest_path.exists():  # a FIFO or a folder there is not "not built": Lexicon.load refuses it, named
        check_writable_dir(store_dir(store), "lexicon store")  # before saying "building"
        if on_build:
            on_build(name_in_store)
        return _build(name, store=store, progress=progress, on_read=on_read)
    if recipe is not None and (why := stale_reason(manifest_path, recipe)):
        check_writable_dir(store_dir(store), "lexicon store")
        if on_build:
            on_build(name_in_store)
        try:
            return _build(name, store=store, progress=progress, on_read=on_read)
        except SourceError as exc:
            raise LexiconError(f"lexicon {name_in_store!r} was {why} and cannot be rebuilt: {exc}") from None
    return Lexicon.load(name_in_store, store)


def _recipe_file(name: str) -> str | None:
    """The recipe file a lexicon name refers to: a `.toml` path, or a shipped recipe's (None for `--as` names)."""
    if name.endswith(".toml"):
        return clean(name)
    path = os.path.join(data_folder("pipelines"), f"{name}.toml")
    return path if os.path.isfile(path) else None


def _current_build(name: str, store: str | os.PathLike[str] | None) -> str | None:
    """The store name of lexicon `name` if it is built from its recipe exactly as the recipe is now, else None.

    The recipe's merged content is read and hashed, not checked field by field: it was checked when
    this very content was built. Anything else (no recipe, not built, built from other content or
    under another letter policy, a recipe that does not read) is None, and `ensure_lexicon` takes
    its full path, which says why.
    """
    path = _recipe_file(name)
    if path is None or not os.path.isfile(path):
        return None
    try:
        raw, _ = merged_recipe(path)
    except RecipeError:
        return None
    stored, language = raw.get("name"), raw.get("language")
    if not isinstance(stored, str) or not is_lexicon_name(stored) or not isinstance(language, str):
        return None
    manifest = _manifest(lexicon_files(stored, store)[1])
    if manifest is None or _recorded_recipe(manifest) != (stored, content_sha256(raw)):
        return None
    return None if _letters_differ(manifest, language) else stored


def _manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """A built lexicon's manifest, or None if it is missing or broken (Lexicon.load reports that)."""
    try:
        manifest = jsontext.loads(read_regular(path))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _recorded_recipe(manifest: dict[str, Any]) -> tuple[Any, Any]:
    """(recipe name, recipe sha256) a manifest records.

    A shipped recipe stored `--as` another name (`build-lexicon en-us --as en`, what a machine without ENABLE is
    told to run) records the name it was stored under in its recipe, and the recipe it came from in its
    `build_command`: that one counts, so the result is not taken for a stale build of the recipe it stands in for.
    """
    recipe = manifest.get("recipe")
    name = recipe.get("name") if isinstance(recipe, dict) else None
    command = manifest.get("build_command")
    if isinstance(command, list) and "--as" in command and len(command) > 1:
        origin = command[1]
        if isinstance(origin, str) and not origin.endswith(".toml"):
            name = origin
    return name, manifest.get("recipe_sha256")


def _recipe_or_none(name: str) -> Recipe | None:
    """The recipe a lexicon name refers to: a `.toml` path, or a shipped recipe of that name (None for `--as` names)."""
    if _recipe_file(name) is None:
        return None
    from ..pipeline.recipe import load_recipe  # the schema: only for a lexicon not built from its current recipe

    return load_recipe(name)


def stale_recipe(manifest_path: Path, recipe: Recipe) -> str | None:
    """The recipe hash a built lexicon records, if it differs from `recipe`'s (None if current or unknown).

    Only a lexicon built from this very recipe counts: one stored under the same
    name from another recipe (`--as`) records that recipe's name and is left alone.
    """
    manifest = _manifest(manifest_path)
    if manifest is None:
        return None  # missing or broken: Lexicon.load reports it
    recorded_name, recorded = _recorded_recipe(manifest)
    if recorded_name != recipe.name or recorded == recipe.sha256:
        return None
    return str(recorded)


def _build(
    name: str,
    *,
    store: str | os.PathLike[str] | None,
    progress: Progress | None,
    on_read: Callable[[int], None] | None = None,
) -> Lexicon:
    """Build on first use: say which language and source, show how far the read is, and when the source cannot
    be had, name what is installed instead (`no_source_hint`) -- decided here for every command and the web."""
    from ..progress import task
    from .build import build_lexicon  # the pipeline: only when something is built

    recipe = _recipe_or_none(name)
    say = progress or (lambda _msg: None)
    title = f"building lexicon {recipe.name if recipe else name}"
    if recipe is not None:
        title += f" ({language_name(recipe.language)})"
        plan = planned_source(recipe)
        if plan is not None:  # else the build stops at once, with the hint below as its one line
            say(f"{title}, first use: source {plan}")
    shown = [0]
    # An expanded dictionary streams a tool's output, whose length nobody knows before: a bar without an end.
    measured = recipe is None or not recipe.source.expand
    with task(title, total=100 if measured else None) as advance:

        def on_bytes(done: int, total: int) -> None:
            percent = min(100, 100 * done // total) if total else 0
            if percent > shown[0]:
                advance(percent - shown[0])
                shown[0] = percent
                if on_read is not None:
                    on_read(percent)

        try:
            return build_lexicon(name, store=store, progress=progress, on_bytes=on_bytes)
        except NoSourceError as exc:
            if recipe is None:
                raise
            why = "; ".join(exc.tried) or "not found"
            raise NoSourceError(
                f"lexicon {recipe.name!r} cannot be built: its list, {recipe.source.name}, is not here ({why}). "
                + no_source_hint(recipe, store)
            ) from None


def language_name(code: str) -> str:
    """A language's English name for notes (`he` -> Hebrew), or its code if it has no record."""
    from ..language.records import get_language

    try:
        return get_language(code).name
    except BoggleI18nError:
        return code


def planned_source(recipe: Recipe) -> str | None:
    """Which list a build of `recipe` will read, said before it starts (the order is `resolve_source`'s), or None
    when there is none to read (not here, and no download: offline, or the recipe has no URL)."""
    from ..pipeline.sources import OFFLINE_ENV, source_at_hand

    here = source_at_hand(recipe)
    if here is not None:
        path = here.split(" ", 1)[0]
        return f"{recipe.source.name} (installed)" if path in recipe.source.name else f"{recipe.source.name}, {here}"
    if recipe.source.url and recipe.source.sha256 and not os.environ.get(OFFLINE_ENV):
        return f"{recipe.source.name}, to be downloaded from {recipe.source.url}"
    return None


def installed_alternatives(recipe: Recipe, store: str | os.PathLike[str] | None) -> list[tuple[str, str]]:
    """Other lexicons of `recipe`'s language that work without a download: (name, where), built ones first.

    The language record's own order (its default first) decides among each kind.
    """
    from ..language.records import get_language
    from ..pipeline.recipe import load_recipe, recipe_names
    from ..pipeline.sources import source_at_hand

    try:
        names = list(get_language(recipe.language).lexicons)
    except BoggleI18nError:
        names = []
    shipped = set(recipe_names())
    built, at_hand = [], []
    for other in names:
        if other == recipe.name or other not in shipped:
            continue
        if _current_build(other, store) is not None:
            built.append((other, "built"))
            continue
        here = source_at_hand(load_recipe(other))
        if here is not None:
            at_hand.append((other, here))
    return built + at_hand


def no_source_hint(recipe: Recipe, store: str | os.PathLike[str] | None) -> str:
    """What to do when `recipe`'s list cannot be had here: the commands that make its name work, best first.

    Every command that loads lexicons by name (`solve`, `compare`, the web) works once a lexicon of that name is
    built, so each way is a command, never an option some command lacks: install the recipe's Debian package if
    it has one; with an installed list of the same language, `build-lexicon OTHER --as NAME` (the manifest records
    the list it really is); `build-lexicon NAME --source FILE` with a copy of the recipe's list.
    """
    language = language_name(recipe.language)
    ways = []
    if recipe.source.system and recipe.source.system_package:
        ways.append(f"install its list: apt-get install {recipe.source.system_package}")
    others = installed_alternatives(recipe, store)
    if others:
        best, where = others[0]
        kind = "is built" if where == "built" else f"can be built from {where}"
        also = ", ".join(n for n, _ in others[1:])
        ways.append(
            f"the {language} lexicon {best} {kind}: pass --lexicon {best} where a command takes one, or make "
            f"{recipe.name!r} that list for every command: boggle-i18n build-lexicon {best} --as {recipe.name}"
            + (f" (also at hand: {also})" if also else "")
        )
    copy = f"with a copy of {recipe.source.name}: boggle-i18n build-lexicon {recipe.name} --source FILE"
    if recipe.source.url:
        copy += f" (the list is at {recipe.source.url})"
    ways.append(copy)
    if not others:
        ways[-1] += f" (no other {language} list is installed here)"
    text = "; or ".join(ways)
    return text[0].upper() + text[1:]


def stale_letters(manifest_path: Path, recipe: Recipe) -> bool:
    """Whether the recipe's language record now has another letter policy than the lexicon was built with."""
    manifest = _manifest(manifest_path)
    if manifest is None or _recorded_recipe(manifest)[0] != recipe.name:
        return False  # missing or broken (Lexicon.load reports it), or stored from another recipe (`--as`)
    return _letters_differ(manifest, recipe.language)


def _letters_differ(manifest: dict[str, Any], code: str) -> bool:
    """Whether language `code`'s record now has another letter policy than the manifest records (the one rule).

    A manifest from before the policy hash was recorded is compared by its spelling (units and
    apart words), the part of the policy that solving reads back from the manifest.
    """
    from ..language.records import get_language

    try:
        language = get_language(code)
    except BoggleI18nError:
        return False  # no such record: nothing to compare with
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
