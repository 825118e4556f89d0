"""The `Lexicon`: an immutable word set with a prefix test, backed by a MARISA trie.

On disk a lexicon NAME is `NAME.marisa` (the trie) and `NAME.json` (its manifest).
The manifest records the trie's sha256, so a damaged or half-copied trie is
refused instead of silently giving wrong answers.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import marisa_trie

from ..errors import LexiconError
from ..storage import store_dir

FORMAT = "boggle-i18n-lexicon"
FORMAT_VERSION = 1


def lexicon_paths(name: str, store: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """(trie path, manifest path) of lexicon `name` in the store."""
    root = store_dir(store)
    return root / f"{name}.marisa", root / f"{name}.json"


class Lexicon:
    """A set of words with a fast prefix test. Words are NFC strings of letters.

    Build one from words (`Lexicon.from_words`) or load a built one (`Lexicon.load`).
    The solver needs only `in` and `has_prefix`, so any backing store that offers
    those two can stand in.
    """

    def __init__(
        self,
        trie: marisa_trie.Trie,
        manifest: dict[str, Any],
        manifest_sha256: str | None = None,
        path: Path | None = None,
    ):
        self._trie = trie
        self.manifest = manifest
        self.manifest_sha256 = manifest_sha256
        self.path = path  # the trie file, for a stored lexicon: compiled caches live beside it

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "custom") -> Lexicon:
        """An in-memory lexicon, e.g. for tests or a word list you already hold."""
        trie = marisa_trie.Trie(list(words))
        return cls(trie, {"name": name, "word_count": len(trie)})

    @classmethod
    def load(cls, name: str, store: str | os.PathLike[str] | None = None) -> Lexicon:
        """Load lexicon `name` from the store (or a `.marisa` path), checking its manifest."""
        if name.endswith(".marisa"):
            trie_path = Path(name)
            manifest_path = trie_path.with_suffix(".json")
        else:
            trie_path, manifest_path = lexicon_paths(name, store)
        if not manifest_path.is_file():
            raise LexiconError(
                f"lexicon {name!r} is not built (no {manifest_path}); run: boggle-i18n build-lexicon {name}"
            )
        raw_manifest = manifest_path.read_bytes()
        try:
            manifest = json.loads(raw_manifest)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise LexiconError(
                f"manifest {manifest_path} is corrupt; rebuild with: boggle-i18n build-lexicon {name}"
            ) from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise LexiconError(f"{manifest_path} is not a boggle-i18n lexicon manifest")
        if manifest.get("format_version") != FORMAT_VERSION:
            raise LexiconError(
                f"lexicon {name!r} has format version {manifest.get('format_version')}, this boggle-i18n reads "
                f"{FORMAT_VERSION}; rebuild it with: boggle-i18n build-lexicon {name}"
            )
        try:
            data = trie_path.read_bytes()
        except FileNotFoundError:
            raise LexiconError(
                f"trie file {trie_path} is missing; rebuild with: boggle-i18n build-lexicon {name}"
            ) from None
        if hashlib.sha256(data).hexdigest() != manifest.get("trie_sha256"):
            raise LexiconError(
                f"trie file {trie_path} is corrupt (sha256 differs from its manifest); "
                f"rebuild with: boggle-i18n build-lexicon {name}"
            )
        try:
            trie = marisa_trie.Trie().frombytes(data)
        except Exception:
            raise LexiconError(
                f"trie file {trie_path} is corrupt; rebuild with: boggle-i18n build-lexicon {name}"
            ) from None
        return cls(trie, manifest, hashlib.sha256(raw_manifest).hexdigest(), trie_path)

    @property
    def name(self) -> str:
        """The lexicon's name, as in its manifest."""
        return str(self.manifest.get("name", "custom"))

    def __contains__(self, word: object) -> bool:
        return word in self._trie

    def has_prefix(self, prefix: str) -> bool:
        """True if some word starts with `prefix` (the word itself included)."""
        return next(self._trie.iterkeys(prefix), None) is not None

    def words_with_prefix(self, prefix: str = "") -> list[str]:
        """All words starting with `prefix`, sorted."""
        return sorted(self._trie.keys(prefix))

    def keys(self) -> list[str]:
        """All words, in the trie's own (unsorted) order: the cheap way to read every word."""
        return self._trie.keys()

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._trie.keys()))

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words)"

    def to_bytes(self) -> bytes:
        """The trie's bytes: deterministic for a given word set."""
        return self._trie.tobytes()


def built_lexicons(store: str | os.PathLike[str] | None = None) -> dict[str, dict[str, Any]]:
    """Manifests of every lexicon in the store, by name (unreadable ones are skipped)."""
    root = store_dir(store)
    out = {}
    if root.is_dir():
        for path in sorted(root.glob("*.json")):
            try:
                manifest = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(manifest, dict) and manifest.get("format") == FORMAT:
                out[path.stem] = manifest
    return out
