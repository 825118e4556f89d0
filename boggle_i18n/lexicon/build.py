"""Build a lexicon: resolve the source, run the recipe's stages, write trie + manifest atomically."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import marisa_trie

from ..errors import BoggleI18nError, SourceError
from ..languages import get_language
from ..pipeline.recipe import Recipe, load_recipe
from ..pipeline.runner import run_stages
from ..pipeline.sources import ResolvedSource, decode, resolve_source
from ..pipeline.stages import StageContext
from ..resources import data_dir
from ..storage import atomic_write_bytes, atomic_write_text, check_writable_dir, store_dir
from .store import FORMAT, FORMAT_VERSION, Lexicon, check_lexicon_name, lexicon_name, lexicon_paths

Progress = Callable[[str], None]


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


def _manifest(
    recipe: Recipe, source: ResolvedSource, words: list[str], reports: list, trie_bytes: bytes, seconds: float
) -> dict[str, Any]:
    letters = Counter(ch for w in words for ch in w)
    lengths = [len(w) for w in words]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": recipe.name,
        "language": recipe.language,
        "description": recipe.description,
        "source": source.to_dict(),
        "licence": recipe.licence,
        "attribution": recipe.attribution,
        "recipe": recipe.raw,
        "recipe_sha256": recipe.sha256,
        "stages": [r.to_dict() for r in reports],
        "raw_entries": reports[0].entries_in if reports else len(words),
        "word_count": len(words),
        "alphabet": "".join(sorted(letters)),
        "letter_counts": dict(sorted(letters.items())),
        "min_length": min(lengths, default=0),
        "longest_word": max(words, key=lambda w: (len(w), w)) if words else "",
        "trie_sha256": hashlib.sha256(trie_bytes).hexdigest(),
        "trie_bytes": len(trie_bytes),
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "build_seconds": round(seconds, 3),
        "built_with": {
            "boggle_i18n": _version("boggle-i18n"),
            "marisa_trie": _version("marisa-trie"),
            "python": platform.python_version(),
        },
    }


def build_lexicon(
    name: str,
    *,
    source: str | os.PathLike[str] | None = None,
    store: str | os.PathLike[str] | None = None,
    save_as: str | None = None,
    encoding: str | None = None,
    download: bool = True,
    progress: Progress | None = None,
) -> Lexicon:
    """Build lexicon `name` (a recipe name or `.toml` path) and save it into the store."""
    started = time.perf_counter()
    say = progress or (lambda _msg: None)
    recipe = load_recipe(name)
    if save_as is not None:
        recipe = recipe.renamed(lexicon_name(save_as))
    check_lexicon_name(recipe.name, f"lexicon name in recipe {name}")
    # Before any download or stage: a store that cannot take the result is reported first.
    check_writable_dir(store_dir(store), "lexicon store")
    language = get_language(recipe.language)
    ctx = StageContext(
        vowels=language.vowels,
        language_dice=language.dice,
        base_dir=recipe.path.parent if recipe.path else data_dir("pipelines"),
    )
    resolved = resolve_source(recipe, source, download=download)
    say(f"source: {resolved.kind} {resolved.path} ({len(resolved.data):,} bytes)")
    lines = decode(resolved.data, encoding or recipe.encoding, f"source {resolved.path}")
    if not any(line.strip() for line in lines):
        raise SourceError(f"source {resolved.path} is empty")
    words, reports = run_stages(lines, recipe.stages, ctx, lambda i, st: say(f"stage {i + 1}: {st}"))
    if not words:
        raise BoggleI18nError(f"recipe {recipe.name!r} kept no words from {resolved.path}; is it the right list?")
    trie_bytes = marisa_trie.Trie(words).tobytes()
    manifest = _manifest(recipe, resolved, words, reports, trie_bytes, time.perf_counter() - started)
    trie_path, manifest_path = lexicon_paths(recipe.name, store)
    # Trie first, manifest last: a reader trusts a trie only through a manifest naming its sha256.
    atomic_write_bytes(trie_path, trie_bytes)
    manifest_text = json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(manifest_path, manifest_text)
    lexicon = Lexicon(
        marisa_trie.Trie().frombytes(trie_bytes), manifest, hashlib.sha256(manifest_text.encode("utf-8")).hexdigest()
    )
    say(f"built {recipe.name}: {len(words):,} words -> {trie_path}")
    return lexicon


def ensure_lexicon(
    name: str,
    *,
    store: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    on_build: Callable[[str], None] | None = None,
) -> Lexicon:
    """Load lexicon `name`, building it first from the best available source if it is not built.

    `name` may be a recipe `.toml` path: its lexicon is stored under the recipe's own name.
    """
    if name.endswith(".marisa"):
        return Lexicon.load(name)  # a trie file by path: nothing to build
    recipe = load_recipe(name) if name.endswith(".toml") else None
    name_in_store = recipe.name if recipe else lexicon_name(name)
    _, manifest_path = lexicon_paths(name_in_store, store)
    missing = not manifest_path.is_file()
    if missing or (recipe is not None and _recipe_changed(manifest_path, recipe)):
        check_writable_dir(store_dir(store), "lexicon store")  # before saying "building"
        if on_build:
            on_build(name_in_store)
        return build_lexicon(name if recipe else name_in_store, store=store, progress=progress)
    return Lexicon.load(name_in_store, store)


def _recipe_changed(manifest_path: Path, recipe: Recipe) -> bool:
    """True if a user's recipe file was edited since its lexicon was built (so it must be rebuilt)."""
    try:
        return json.loads(manifest_path.read_text(encoding="utf-8")).get("recipe_sha256") != recipe.sha256
    except (OSError, ValueError, AttributeError):
        return False  # missing or broken: Lexicon.load reports it
