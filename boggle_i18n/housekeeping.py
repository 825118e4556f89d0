"""What a store holds beyond its lexicons, and removing it: compiled caches, their sizes, orphans.

A compiled trie (`compiled/<trie sha256>.bgc`, see `solver.compiled`) is about
14x its MARISA trie and outlives a lexicon that is rebuilt or removed. `lexicons`
shows each lexicon's cache size; `remove-lexicon` removes a lexicon with its
caches and prunes the store's caches of tries no manifest names any more.
Caches in the user cache folder (for read-only stores) may serve other stores,
so only a removed lexicon's own cache is taken from there, never pruned by guess.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import LexiconError
from .folders import read_regular
from .lexicon.store import lexicon_paths
from .solver.compiled import user_cache_path
from .storage import cache_dir, check_writable_dir, store_dir, store_lock, sweep_temps


def compiled_dir(store: str | os.PathLike[str] | None = None) -> Path:
    """The store's folder of compiled tries."""
    return store_dir(store) / "compiled"


def cache_files(sha: str, store: str | os.PathLike[str] | None = None) -> list[Path]:
    """The compiled caches of the trie with sha256 `sha`: in the store, and in this user's cache folder."""
    places = [compiled_dir(store) / f"{sha}.bgc", user_cache_path(sha)]
    return [p for p in places if p.is_file() and not p.is_symlink()]


def cache_bytes(sha: str | None, store: str | os.PathLike[str] | None = None) -> int:
    """Bytes on disk of a trie's compiled caches (0 if it has none yet)."""
    return sum(p.stat().st_size for p in cache_files(sha, store)) if isinstance(sha, str) else 0


def _named_shas(root: Path) -> set[str]:
    """Every trie sha256 a manifest in the store names (broken manifests that still parse count too)."""
    shas = set()
    for path in root.glob("*.json"):
        try:
            sha = json.loads(read_regular(path)).get("trie_sha256")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(sha, str):
            shas.add(sha)
    return shas


@dataclass
class Removed:
    """What a removal took away, and the bytes it freed."""

    files: list[Path] = field(default_factory=list)
    bytes: int = 0

    def add(self, path: Path) -> None:
        try:
            size = path.lstat().st_size
            path.unlink()
        except FileNotFoundError:
            return
        self.files.append(path)
        self.bytes += size


def sweep_store(store: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the temp files killed writers left in the store, its compiled caches and this user's caches
    (`storage.sweep_temps`: never a live writer's); the paths removed."""
    root = store_dir(store)
    folders = [root, compiled_dir(store), cache_dir() / "compiled", cache_dir() / "verified", cache_dir() / "toml"]
    return [path for folder in folders for path in sweep_temps(folder)]


def prune_caches(store: str | os.PathLike[str] | None = None) -> Removed:
    """Remove the store's compiled caches of tries that no manifest in the store names."""
    root = store_dir(store)
    removed = Removed()
    folder = compiled_dir(store)
    if not folder.is_dir() or folder.is_symlink():
        return removed
    check_writable_dir(folder, "compiled cache folder")
    sweep_store(store)
    with store_lock(root):
        named = _named_shas(root)
        for path in sorted(folder.glob("*.bgc")):
            if path.stem not in named:
                removed.add(path)
    return removed


def remove_lexicon(name: str, store: str | os.PathLike[str] | None = None) -> Removed:
    """Remove lexicon `name` (trie, manifest, compiled caches), then prune orphaned caches.

    Works on a broken lexicon too (a corrupt manifest, a missing trie): whatever
    of it is there goes. A trie another lexicon still shares keeps its cache.
    """
    trie_path, manifest_path = lexicon_paths(name, store)
    if not trie_path.exists() and not manifest_path.exists() and not trie_path.is_symlink():
        raise LexiconError(f"no lexicon {name!r} in {store_dir(store)}")
    check_writable_dir(store_dir(store), "lexicon store")
    try:
        sha = json.loads(read_regular(manifest_path)).get("trie_sha256")
    except (OSError, ValueError, AttributeError):
        sha = None
    removed = Removed()
    with store_lock(store_dir(store)):
        removed.add(manifest_path)
        removed.add(trie_path)
        if isinstance(sha, str) and sha not in _named_shas(store_dir(store)):
            for path in cache_files(sha, store):
                removed.add(path)
    pruned = prune_caches(store)
    removed.files += pruned.files
    removed.bytes += pruned.bytes
    return removed
