"""The `Lexicon`: an immutable word set with a prefix test, backed by a MARISA trie.

On disk a lexicon NAME is `NAME.marisa` (the trie) and `NAME.json` (its manifest).
The manifest records the trie's sha256, so a damaged or half-copied trie is
refused instead of silently giving wrong answers; trie bytes this machine has not
seen verified are first read by a child process (`trust.py`), so a trie damaged
before its sha256 was recorded is reported, never a crash.
"""

from __future__ import annotations

import os
import time

import marisa_trie

from .. import jsontext
from ..digest import sha256_hex
from ..errors import LexiconError
from ..folders import clean, parent, read_regular, store_folder, store_lock, with_suffix
from ..limits import clip
from ..record import dataclass
from .trust import CheckNotRun, trie_problem

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from pathlib import Path
    from typing import Any

FORMAT = "boggle-i18n-lexicon"
FORMAT_VERSION = 1

# A lexicon name becomes two file names in the store, so it is one safe pattern, checked
# wherever a name enters (--as, --lexicon, a recipe's `name`): no path separators, no dots,
# no leading '-', never empty.
# Set tests, not a pattern: `re` (with `enum`) is not loaded on a cold solve's path.
_NAME_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NAME_CHARS = _NAME_FIRST | {"-", "_"}
NAME_RULE = "1-64 characters from a-z, 0-9, '-' and '_', starting with a letter or digit"

# Manifest fields that commands read, with the JSON types they must have.
_FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "language": (str,),
    "word_count": (int,),
    "trie_sha256": (str,),
    "source": (dict,),
    "built_at": (str,),
    "recipe_sha256": (str,),
    "alphabet": (str,),
    "letter_counts": (dict,),
}
_SOURCE_FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "kind": (str,),
    "path": (str,),
    "sha256": (str,),
    "version": (str, type(None)),
}


def is_lexicon_name(name: str) -> bool:
    """Whether `name` is a lexicon name (NAME_RULE)."""
    return 0 < len(name) <= 64 and name[0] in _NAME_FIRST and _NAME_CHARS.issuperset(name)


def check_lexicon_name(name: str, where: str = "lexicon name") -> str:
    """Return `name` if it is a valid lexicon name, else raise one clear error."""
    if not isinstance(name, str) or not is_lexicon_name(name):
        shown = clip(name, 70) if isinstance(name, str) else repr(name)
        raise LexiconError(
            f"bad {where} {clip(name, 70) if isinstance(name, str) else name!r}: a lexicon name is {NAME_RULE}",
            code="lexicon.bad_name",
            params={"name": shown},
        )
    return name


def lexicon_name(text: str) -> str:
    """A lexicon name as a user typed it (`--as`, `--lexicon`): case-insensitive, then checked."""
    return check_lexicon_name(text.lower() if isinstance(text, str) else text)


def lexicon_paths(name: str, store: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """(trie path, manifest path) of lexicon `name` in the store; the name is checked first."""
    from pathlib import Path  # `lexicon_files` (strings) is the cold start's read path

    trie, manifest = lexicon_files(name, store)
    return Path(trie), Path(manifest)


def lexicon_files(name: str, store: str | os.PathLike[str] | None = None) -> tuple[str, str]:
    """`lexicon_paths` as strings."""
    name = lexicon_name(name)
    root = store_folder(store)
    return os.path.join(root, f"{name}.marisa"), os.path.join(root, f"{name}.json")


def manifest_problem(manifest: Any) -> str | None:
    """Why a parsed manifest cannot be used (wrong format, version or field types), or None."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return "not a boggle-i18n lexicon manifest"
    version = manifest.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        return f"format_version is {version!r} ({_json_type(version)}), this boggle-i18n reads {FORMAT_VERSION!r}"
    for key, types in _FIELDS.items():
        if key not in manifest:
            return f"field {key!r} is missing"
        if not _typed(manifest[key], types):
            return f"field {key!r} is {_json_type(manifest[key])}, not {_json_type_name(types)}"
    if "keys_sha256" in manifest and not isinstance(manifest["keys_sha256"], str):
        return f"field 'keys_sha256' is {_json_type(manifest['keys_sha256'])}, not a string"
    for key, types in _SOURCE_FIELDS.items():
        value = manifest["source"].get(key)
        if not _typed(value, types):
            return f"field 'source.{key}' is {_json_type(value)}, not {_json_type_name(types)}"
    return None


def _typed(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool):  # JSON true/false is not a number
        return bool in types
    return isinstance(value, types)


def _json_type(value: Any) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list", dict: "an object"}
    return names.get(type(value), "null")


def _json_type_name(types: tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", dict: "an object", type(None): "null"}
    return " or ".join(names.get(t, t.__name__) for t in types)


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
        path: str | os.PathLike[str] | None = None,
    ):
        self._trie = trie
        self.manifest = manifest
        self.manifest_sha256 = manifest_sha256
        self._path = None if path is None else os.fspath(path)
        # A player's corrections applied at load (lexicon/userlists.py): words removed, words added.
        self.user_blocked: frozenset[str] = frozenset()
        self.user_allowed: frozenset[str] = frozenset()
        # The sha256 of the manifest file it was loaded from (a corrected lexicon's own differs from it).
        self.stored_manifest_sha256: str | None = manifest_sha256

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "custom") -> Lexicon:
        """An in-memory lexicon, e.g. for tests or a word list you already hold."""
        trie = marisa_trie.Trie(list(words))
        return cls(trie, {"name": name, "word_count": len(trie)})

    @classmethod
    def load(cls, name: str, store: str | os.PathLike[str] | None = None) -> Lexicon:
        """Load lexicon `name` from the store (or a `.marisa` path), checking its manifest and trie (`read_checked`).

        A stored lexicon comes with the player's word lists applied (lexicon/userlists.py).
        """
        if name.endswith(".marisa"):
            trie_path = clean(name)
            manifest_path = with_suffix(trie_path, ".json")
        else:
            trie_path, manifest_path = lexicon_files(name, store)
        if not os.path.exists(manifest_path):  # anything else there (a FIFO, a folder) is read_checked's to refuse
            raise LexiconError(
                f"lexicon {name!r} is not built (no {manifest_path}); {build_hint(name, store)}",
                code="lexicon.not_built",
                params={"name": str(name)},
            )
        for attempt in range(3):
            try:
                with store_lock(parent(manifest_path), shared=True):  # writers replace the pair under the lock
                    manifest, raw_manifest, trie = read_checked(manifest_path, trie_path)
                break
            except StoreProblem as exc:
                # A build of this name may have replaced the trie between our two reads (trie first,
                # manifest last): read the pair again before calling it corrupt.
                if exc.retry and attempt < 2:
                    time.sleep(0.05)
                    continue
                if not exc.rebuild:
                    raise LexiconError(str(exc)) from None
                raise LexiconError(f"{exc}; rebuild with: {rebuild_command(name, store, exc.manifest)}") from None
        lexicon = cls(trie, manifest, sha256_hex(raw_manifest), trie_path)
        if name.endswith(".marisa"):
            return lexicon
        from .userlists import corrected  # a stat of the store's user-lists folder when there is none

        return corrected(lexicon, store)

    @property
    def path(self) -> Path | None:
        """The trie file, for a stored lexicon: compiled caches live beside it."""
        from pathlib import Path

        return None if self._path is None else Path(self._path)

    @property
    def name(self) -> str:
        """The lexicon's name, as in its manifest."""
        return str(self.manifest.get("name", "custom"))

    def __contains__(self, word: object) -> bool:
        return word in self._trie

    def has_prefix(self, prefix: str) -> bool:
        """True if some word starts with `prefix` (the word itself included)."""
        return next(self._trie.iterkeys(prefix), None) is not None

    def probes(self) -> tuple[Callable[[str], bool], Callable[[str], Iterator[str]]]:
        """The trie's own membership test and prefix iterator, for a solver's inner loop.

        `contains(word)` is `word in self`; `next(starting(prefix), None) is not None` is
        `has_prefix(prefix)`, and that first word is `prefix` itself when it is a word (MARISA's
        predictive search returns a node's own key before its children's; tests/test_lexicon_store.py
        checks it on real lexicons), so one call tells both. Called directly they skip a Python call
        per step (thousands in a 4x4 solve): 8-10% of the reference solver's time.
        """
        return self._trie.__contains__, self._trie.iterkeys

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


class StoreProblem(Exception):
    """Why a stored lexicon cannot be used (one line); `manifest` if it parsed, `retry` if a rebuild may be mid-way."""

    def __init__(
        self, message: str, manifest: dict[str, Any] | None = None, retry: bool = False, rebuild: bool = True
    ) -> None:
        super().__init__(message)
        self.manifest = manifest
        self.retry = retry
        self.rebuild = rebuild  # False when the lexicon is not known to be damaged: the message says what to do


def read_checked(
    manifest_path: str | os.PathLike[str], trie_path: str | os.PathLike[str]
) -> tuple[dict[str, Any], bytes, marisa_trie.Trie]:
    """The one health check of a stored lexicon, used by `Lexicon.load` and by `lexicons` (`scan_store`).

    Returns (manifest, its raw bytes, the trie), or raises `StoreProblem`: an
    unreadable or corrupt manifest, a field of the wrong type, a missing trie,
    a trie whose sha256 is not the manifest's (truncated, swapped, edited) or
    that MARISA cannot read.
    """
    try:
        raw_manifest = _read_bytes(manifest_path)
    except OSError as exc:
        raise StoreProblem(f"manifest {manifest_path} is unreadable ({exc.strerror or exc})") from None
    try:
        manifest = jsontext.loads(raw_manifest)
    except ValueError:
        raise StoreProblem(f"manifest {manifest_path} is corrupt (not valid JSON)") from None
    problem = manifest_problem(manifest)
    if problem is not None:
        raise StoreProblem(f"manifest {manifest_path}: {problem}", manifest if isinstance(manifest, dict) else None)
    data: bytes | None
    try:
        data = _read_bytes(trie_path)
    except FileNotFoundError:
        data = _backup_matching(trie_path, manifest)
        if data is None:
            raise StoreProblem(f"trie file {trie_path} is missing", manifest, retry=True) from None
    except OSError as exc:
        raise StoreProblem(f"trie file {trie_path} is unreadable ({exc.strerror or exc})", manifest) from None
    sha = sha256_hex(data)
    if sha != manifest.get("trie_sha256"):
        # A build killed between renaming its trie and its manifest leaves the old trie as a backup (storage.py).
        data = _backup_matching(trie_path, manifest)
        if data is None:
            raise StoreProblem(
                f"trie file {trie_path} is corrupt (sha256 differs from its manifest)", manifest, retry=True
            )
        sha = str(manifest["trie_sha256"])
    assert data is not None
    # Before MARISA sees the bytes: a trie damaged before its sha256 was recorded must not crash this process.
    try:
        problem = trie_problem(data, sha, manifest)
    except CheckNotRun as exc:
        raise StoreProblem(f"trie file {trie_path} was not loaded: {exc}", manifest, rebuild=False) from None
    if problem is not None:
        raise StoreProblem(f"trie file {trie_path} is corrupt: {problem}", manifest)
    try:
        trie = marisa_trie.Trie().frombytes(data)
    except Exception:
        raise StoreProblem(f"trie file {trie_path} is corrupt", manifest) from None
    return manifest, raw_manifest, trie


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    return read_regular(path)  # a FIFO or /dev/zero planted in the store is refused, never waited on


def _backup_matching(trie_path: str | os.PathLike[str], manifest: dict[str, Any]) -> bytes | None:
    """The backup trie a swap left (`storage.backup_path`), if its sha256 is the manifest's."""
    from pathlib import Path  # a damaged or half-swapped pair only: not on a cold start's path

    from ..storage import backup_path

    try:
        data = read_regular(backup_path(Path(trie_path)))
    except OSError:
        return None
    return data if sha256_hex(data) == manifest.get("trie_sha256") else None


def rebuild_command(name: str, store: str | os.PathLike[str] | None, manifest: dict[str, Any] | None) -> str:
    """A command that builds lexicon `name` again: the one its manifest records, else its shipped recipe's.

    A lexicon stored under another name (`--as`) can only be rebuilt from its
    recipe and source, which its manifest records (`build_command`); if the
    manifest is unreadable too, the command that removes it is what works.
    """
    import shlex

    from ..resources import data_dir

    extra = ["--store", str(store)] if store else []
    recorded = manifest.get("build_command") if isinstance(manifest, dict) else None
    if isinstance(recorded, list) and recorded and all(isinstance(a, str) for a in recorded):
        return shlex.join(["boggle-i18n", *recorded, *extra])
    if name.endswith(".marisa") or not is_lexicon_name(name):
        return shlex.join(["boggle-i18n", "build-lexicon", "RECIPE"])
    if (data_dir("pipelines") / f"{name}.toml").is_file():
        return shlex.join(["boggle-i18n", "build-lexicon", name, *extra])
    return (
        shlex.join(["boggle-i18n", "remove-lexicon", name, *extra])
        + f", then build it again from its recipe with --as {name}"
    )


def build_hint(name: str, store: str | os.PathLike[str] | None) -> str:
    """How to build a lexicon that is not built: its shipped recipe, else a recipe of the user's stored `--as` it."""
    import shlex

    from ..resources import data_dir

    extra = ["--store", str(store)] if store else []
    if is_lexicon_name(name) and (data_dir("pipelines") / f"{name}.toml").is_file():
        return "run: " + shlex.join(["boggle-i18n", "build-lexicon", name, *extra])
    return f"build it from a recipe with: boggle-i18n build-lexicon RECIPE --as {shlex.quote(name)}"


@dataclass(frozen=True)
class StoreEntry:
    """One `*.json` in the store: its manifest if usable, else the problem that stops it being used."""

    name: str
    path: Path
    manifest: dict[str, Any] | None
    problem: str | None = None
    damaged: bool = True  # False: it could not be checked here, which says nothing against it


def scan_store(store: str | os.PathLike[str] | None = None) -> list[StoreEntry]:
    """Every manifest in the store, good or bad, so a listing can show the broken ones too."""
    from ..storage import store_dir

    root = store_dir(store)
    out: list[StoreEntry] = []
    if root.exists() and not root.is_dir():
        raise LexiconError(f"lexicon store {root} is not a folder")
    if not root.is_dir():
        return out
    for path in sorted(root.glob("*.json")):
        if path.name.startswith("."):
            continue
        try:
            manifest, _, _ = read_checked(path, path.with_suffix(".marisa"))
        except StoreProblem as exc:
            out.append(StoreEntry(path.stem, path, None, _short_problem(str(exc), path), exc.rebuild))
            continue
        out.append(StoreEntry(path.stem, path, manifest, None))
    return out


def _short_problem(message: str, manifest_path: Path) -> str:
    """A problem as `lexicons` lists it, without the paths it already shows."""
    trie_path = manifest_path.with_suffix(".marisa")
    message = message.replace(f"manifest {manifest_path}: ", "").replace(f"manifest {manifest_path} is ", "")
    return message.replace(f"trie file {trie_path} is", "its trie file is").replace(
        f"trie file {trie_path} was", "its trie file was"
    )


def built_lexicons(store: str | os.PathLike[str] | None = None) -> dict[str, dict[str, Any]]:
    """Usable manifests of every lexicon in the store, by name (see `scan_store` for the broken ones)."""
    return {e.name: e.manifest for e in scan_store(store) if e.manifest is not None}
