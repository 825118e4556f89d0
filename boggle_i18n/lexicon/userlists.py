"""A player's corrections to a lexicon: words removed (a blocklist) and added (an allowlist), kept in the store.

Each list is plain text, one word a line, per lexicon: `<store>/user-lists/<name>.blocked.txt` and
`<name>.allowed.txt`, words as the lexicon holds them (folded). They are applied when the lexicon
is loaded (`Lexicon.load`), never by a rebuild: the loaded lexicon's words are the built ones
without the blocked and with the allowed, in one trie, so every engine (the reference walk of the
MARISA trie, the fast engine's compiled trie made from its keys), `lookup`, `score` and the web
page see the same words. The loaded manifest carries a `trie_sha256` of the corrected trie and a
`user_lists` entry, so whatever is keyed on that checksum (the compiled trie cache, `solve --json`'s
lexicon identity, a result's staleness) tells a corrected lexicon from the built one.
"""

from __future__ import annotations

import os

from ..digest import sha256_hex
from ..errors import BoggleI18nError
from ..folders import store_folder
from .store import lexicon_name

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .store import Lexicon

KINDS = ("blocked", "allowed")
FOLDER = "user-lists"
MAX_WORD = 64  # characters: a longer line is no word a board could spell
MAX_WORDS = 100_000  # per list


def list_path(name: str, kind: str, store: str | os.PathLike[str] | None = None) -> str:
    """The file of lexicon `name`'s `kind` list ("blocked" or "allowed"); the name is checked (it becomes a path)."""
    if kind not in KINDS:
        raise BoggleI18nError(f"unknown word list {kind!r}: {' or '.join(KINDS)}")
    return os.path.join(store_folder(store), FOLDER, f"{lexicon_name(name)}.{kind}.txt")


def read_list(name: str, kind: str, store: str | os.PathLike[str] | None = None) -> list[str]:
    """The words of one list, in file order (missing file: none). `#` lines and blank lines are skipped."""
    path = list_path(name, kind, store)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise BoggleI18nError(f"cannot read your word list {path}: {getattr(exc, 'strerror', None) or exc}") from None
    words = [line.strip().lstrip("\ufeff") for line in text.splitlines()]
    # A line edited by hand into no word (a sentence, a 10,000-letter line) is passed over: no board spells it.
    kept = (w for w in words if w and not w.startswith("#") and len(w) <= MAX_WORD and not any(c.isspace() for c in w))
    return list(dict.fromkeys(kept))[:MAX_WORDS]


def write_list(name: str, kind: str, words: Iterable[str], store: str | os.PathLike[str] | None = None) -> str:
    """Replace one list (atomically, the user's umask); an empty list removes its file. Returns the path."""
    from pathlib import Path

    from ..storage import atomic_write_text

    path = list_path(name, kind, store)
    unique = list(dict.fromkeys(words))
    if len(unique) > MAX_WORDS:
        raise BoggleI18nError(f"your {kind} list of {name} would hold over {MAX_WORDS:,} words")
    if not unique:
        Path(path).unlink(missing_ok=True)
        return path
    header = f"# {kind} words of lexicon {name}: one a line (boggle-i18n word add/remove)\n"
    atomic_write_text(Path(path), header + "".join(w + "\n" for w in unique))
    return path


def has_lists(name: str, store: str | os.PathLike[str] | None = None) -> bool:
    """Whether lexicon `name` has a list file (one stat of the folder for a store without any)."""
    folder = os.path.join(store_folder(store), FOLDER)
    if not os.path.isdir(folder):
        return False
    return any(os.path.isfile(list_path(name, kind, store)) for kind in KINDS)


_MEMO: dict[tuple[str, str], tuple[object, dict[str, object]]] = {}


def corrected(lexicon: Lexicon, store: str | os.PathLike[str] | None = None) -> Lexicon:
    """`lexicon` with its user lists applied (itself when it has none), the words in one new trie.

    The corrected trie is made once per process for a given built trie and lists (a memo keyed on
    both checksums): a server loads it once, a command once per run.
    """
    import marisa_trie

    from .store import Lexicon as _Lexicon

    name = str(lexicon.manifest.get("name", ""))
    if not name or not has_lists(name, store):
        return lexicon
    blocked, allowed = read_list(name, "blocked", store), read_list(name, "allowed", store)
    lists_sha = sha256_hex(("\n".join(blocked) + "\0" + "\n".join(allowed)).encode("utf-8"))
    base_sha = str(lexicon.manifest.get("trie_sha256", ""))
    key = (base_sha, lists_sha)
    if key not in _MEMO:
        words = set(lexicon.keys())
        words.difference_update(blocked)
        words.update(allowed)
        trie = marisa_trie.Trie(list(words))
        manifest = dict(lexicon.manifest)
        manifest["trie_sha256"] = sha256_hex(trie.tobytes())
        manifest["word_count"] = len(trie)
        manifest["user_lists"] = {
            "base_trie_sha256": base_sha,
            "lists_sha256": lists_sha,
            "blocked": len(blocked),
            "allowed": len(allowed),
        }
        if len(_MEMO) > 16:
            _MEMO.clear()
        _MEMO[key] = (trie, manifest)
    trie, manifest = _MEMO[key]
    from .. import jsontext

    raw = jsontext.dumps(manifest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    fixed = _Lexicon(trie, dict(manifest), sha256_hex(raw.encode("utf-8")), lexicon.path)
    fixed.user_blocked = frozenset(blocked)
    fixed.user_allowed = frozenset(allowed)
    fixed.stored_manifest_sha256 = lexicon.stored_manifest_sha256  # a server's "rebuilt since?" check reads the file
    return fixed
