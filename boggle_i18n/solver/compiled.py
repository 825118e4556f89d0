"""The compiled lexicon: a popcount trie in flat arrays, derived from the MARISA key set.

Each node has a 64-bit mask of the letters it has children for and the index of
its first child; children are stored together in letter order, so the child for
letter `l` is `first_child + popcount(mask & ((1 << l) - 1))`. A node is one
16-byte record, `nodes[i] = (mask, first_child | terminal << 32)`, so a step
touches one cache line: about 6 MiB for ENABLE2K, 16 MiB for Dutch, where a
26-pointer trie would need 100+ bytes a node.

Built with numpy level by level from the sorted words (no Python object per
node), then cached in the store as `compiled/<trie sha256>.bgc` beside the trie,
so a second process maps it in milliseconds instead of rebuilding it. The
file is memory-mapped read-only: worker processes share its pages. It carries
a sha256 over its header and all of its arrays, checked when it is mapped: a
damaged cache (one changed byte anywhere) is compiled again, never scored.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BoggleI18nError, LexiconError
from ..folders import open_regular
from ..progress import task
from ..spelling import PLAIN, Spelling, spelling, spelling_of
from ..storage import atomic_write_bytes, cache_dir

if TYPE_CHECKING:
    import numpy as np


MAGIC = b"BGLXC003"
_DIGEST = 32  # sha256 of everything after it (header and arrays), right after the magic
_ALIGN = 64
_LOCK = threading.Lock()


@dataclass(frozen=True)
class CompiledLexicon:
    """Flat popcount trie: `records[node] = (letter mask, first child | terminal << 32)`; the root is node 0."""

    letters: tuple[str, ...]
    records: np.ndarray  # uint64[nodes, 2]
    word_count: int
    max_length: int

    @property
    def nodes(self) -> int:
        """Number of trie nodes."""
        return int(self.records.shape[0])

    @property
    def nbytes(self) -> int:
        """Bytes held by the node records."""
        return int(self.records.nbytes)

    @property
    def masks(self) -> np.ndarray:
        """Letters each node has a child for, as bits."""
        return self.records[:, 0]

    @property
    def first_child(self) -> np.ndarray:
        """Index of each node's first child."""
        return self.records[:, 1] & 0xFFFFFFFF

    @property
    def terminal(self) -> np.ndarray:
        """1 where a word ends."""
        return self.records[:, 1] >> 32

    def contains(self, word: str) -> bool:
        """Whether `word` is in the trie (a slow, plain walk for checks and tests)."""
        node = self._walk(word)
        return node >= 0 and bool(int(self.records[node, 1]) >> 32)

    def _walk(self, text: str) -> int:
        index = {ch: i for i, ch in enumerate(self.letters)}
        node = 0
        units = [letter for letter in self.letters if len(letter) > 1]
        for ch in spelling(units).split(text) if units else text:
            letter = index.get(ch)
            if letter is None:
                return -1
            mask = int(self.records[node, 0])
            bit = 1 << letter
            if not mask & bit:
                return -1
            node = (int(self.records[node, 1]) & 0xFFFFFFFF) + (mask & (bit - 1)).bit_count()
        return node


def compile_words(words: list[str], spelled: Spelling = PLAIN) -> CompiledLexicon:
    """Build the popcount trie of `words` (any order; duplicates and empty strings ignored).

    With a `spelled` rule that has multi-letter letters (Welsh `ll`), each trie step is one
    letter of that rule, so a path of two `l` faces never spells `ll`, and a word's depth is
    its length in letters.
    """
    import numpy as np

    if spelled:
        split = spelled.split
        units = sorted({u for w in words if w for u in split(w)})
        code = {u: chr(i) for i, u in enumerate(units)}  # one character per letter, in letter order
        compiled = compile_words(["".join(code[u] for u in split(w)) for w in words if w])
        return CompiledLexicon(tuple(units), compiled.records, compiled.word_count, compiled.max_length)
    words = sorted({w for w in words if w})
    letters = tuple(sorted({ch for w in words for ch in w}))
    if len(letters) > 64:
        raise LexiconError(f"the lexicon has {len(letters)} distinct letters; the compiled form holds at most 64")
    n = len(words)
    if n == 0:
        return CompiledLexicon(letters, np.zeros((1, 2), np.uint64), word_count=0, max_length=0)
    # Python's string order is code-point order, the same as letter-index order, prefixes first.
    table = {ord(ch): i for i, ch in enumerate(letters)}
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=n)
    flat = np.frombuffer(bytes("".join(words).translate(table), "latin-1"), dtype=np.uint8)
    max_length = int(lengths.max())
    grid = np.zeros((n, max_length), dtype=np.uint8)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    rows = np.repeat(np.arange(n), lengths)
    cols = np.arange(flat.size) - np.repeat(starts, lengths)
    grid[rows, cols] = flat

    node_of = np.zeros(n, dtype=np.int64)  # each word's node for its prefix so far (root = 0)
    parents: list[np.ndarray] = []
    child_letters: list[np.ndarray] = []
    terminals: list[np.ndarray] = []
    next_id = 1
    for depth in range(max_length):
        live = np.flatnonzero(lengths > depth)
        parent = node_of[live]
        letter = grid[live, depth]
        # Words are sorted, so (parent, letter) pairs come sorted: a new node wherever the pair changes.
        new = np.ones(live.size, dtype=bool)
        new[1:] = (parent[1:] != parent[:-1]) | (letter[1:] != letter[:-1])
        ids = next_id + np.cumsum(new) - 1
        firsts = np.flatnonzero(new)
        parents.append(parent[firsts])
        child_letters.append(letter[firsts])
        node_of[live] = ids
        next_id += firsts.size
        terminals.append(node_of[live[lengths[live] == depth + 1]])

    total = next_id
    parent_all = np.concatenate(parents)
    letter_all = np.concatenate(child_letters).astype(np.uint64)
    masks = np.zeros(total, dtype=np.uint64)
    np.bitwise_or.at(masks, parent_all, np.left_shift(np.uint64(1), letter_all))
    if total >= 2**32:
        raise LexiconError(f"the lexicon's trie has {total:,} nodes; the compiled form holds fewer than 2**32")
    records = np.zeros((total, 2), dtype=np.uint64)
    records[:, 0] = masks
    unique_parents, first_index = np.unique(parent_all, return_index=True)
    records[unique_parents, 1] = (first_index + 1).astype(np.uint64)  # child k (0-based) is node k + 1
    records[np.concatenate(terminals), 1] |= np.uint64(1 << 32)
    return CompiledLexicon(letters, records, word_count=n, max_length=max_length)


def to_bytes(compiled: CompiledLexicon, key: str) -> bytes:
    """The cache file: magic, sha256 of the rest, header length, JSON header, then the arrays 64-byte aligned."""
    arrays = {"records": compiled.records}
    layout: dict[str, list[Any]] = {}
    offset = 0
    for name, array in arrays.items():
        layout[name] = [offset, array.dtype.str, list(array.shape)]
        offset += -(-array.nbytes // _ALIGN) * _ALIGN
    header = json.dumps(
        {
            "key": key,
            "letters": list(compiled.letters),
            "word_count": compiled.word_count,
            "max_length": compiled.max_length,
            "arrays": layout,
        },
        ensure_ascii=False,
    ).encode("utf-8")
    head = len(header).to_bytes(8, "little") + header
    head += b"\0" * (-(len(MAGIC) + _DIGEST + len(head)) % _ALIGN)
    body = bytearray(offset)
    for name, array in arrays.items():
        start = layout[name][0]
        body[start : start + array.nbytes] = array.tobytes()
    digest = hashlib.sha256(head)
    digest.update(body)
    return MAGIC + digest.digest() + head + bytes(body)


def from_file(path: Path, key: str) -> CompiledLexicon | None:
    """Map a cache file read-only; None if it is missing, damaged or for another trie."""
    import numpy as np

    try:
        fd = open_regular(path)  # a FIFO or a device planted at the cache path: passed over, never waited on
    except OSError:
        return None
    try:
        buffer = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    try:
        start = len(MAGIC) + _DIGEST
        if buffer[: len(MAGIC)] != MAGIC:
            return None
        # Every byte after the digest is checked before any is used: a damaged cache is rebuilt, never scored.
        with memoryview(buffer) as view:
            if hashlib.sha256(view[start:]).digest() != buffer[len(MAGIC) : start]:
                return None
        size = int.from_bytes(buffer[start : start + 8], "little")
        header = json.loads(buffer[start + 8 : start + 8 + size].decode("utf-8"))
        if not isinstance(header, dict) or header.get("key") != key:
            return None
        base = start + 8 + size + (-(start + 8 + size) % _ALIGN)
        arrays = {}
        for name, (offset, dtype, shape) in header["arrays"].items():
            count = int(np.prod(shape))
            array = np.frombuffer(buffer, dtype=np.dtype(dtype), count=count, offset=base + offset)
            arrays[name] = array.reshape(shape)
        records = arrays["records"]
        if records.ndim != 2 or records.shape[1] != 2 or records.dtype != np.uint64 or not links_inside(records):
            return None
        return CompiledLexicon(
            tuple(header["letters"]),
            records,
            word_count=int(header["word_count"]),
            max_length=int(header["max_length"]),
        )
    except Exception:  # any other damage (a forged header of the wrong shapes): rebuilt, never scored
        return None


def links_inside(records: np.ndarray, chunk: int = 1 << 18) -> bool:
    """Whether every node's children lie inside `records`: the one check that keeps the kernels' walks in bounds.

    A file read from the cache is the only trie not built by this module, so it
    is checked here, once per process; the kernels' hot loops then need none.
    Chunked, so the temporaries stay a few MiB however large the trie.
    """
    import numpy as np

    nodes = len(records)
    for start in range(0, nodes, chunk):
        part = records[start : start + chunk]
        children = np.bitwise_count(part[:, 0])
        ends = (part[:, 1] & np.uint64(0xFFFFFFFF)) + children
        if not bool(((children == 0) | (ends <= nodes)).all()):
            return False
    return nodes > 0


def cache_path(lexicon: Any) -> Path | None:
    """Where a stored lexicon's compiled form lives: `<store>/compiled/<trie sha256>.bgc`."""
    trie_path = getattr(lexicon, "path", None)
    sha = lexicon.manifest.get("trie_sha256")
    if trie_path is None or not isinstance(sha, str):
        return None
    return Path(trie_path).parent / "compiled" / f"{sha}.bgc"


_MEMO: dict[str, CompiledLexicon] = {}
_MEMO_IN_MEMORY: weakref.WeakKeyDictionary[Any, CompiledLexicon] = weakref.WeakKeyDictionary()


def compile_lexicon(lexicon: Any, use_cache: bool = True) -> CompiledLexicon:
    """The compiled form of `lexicon`: from this process's memo, the store's cache, or built (and cached).

    Any object with `keys()` (all words) works; a stored `Lexicon` is cached on disk
    beside its trie, an in-memory one only for as long as it lives. Thread-safe:
    score's worker threads asking at once compile it once.
    """
    with _LOCK:
        return _compile_lexicon(lexicon, use_cache)


def _compile_lexicon(lexicon: Any, use_cache: bool) -> CompiledLexicon:
    path = cache_path(lexicon) if use_cache else None
    if path is None:
        try:
            return _MEMO_IN_MEMORY[lexicon]
        except (KeyError, TypeError):
            compiled = compile_words(list(lexicon.keys()), spelling_of(lexicon))
            try:
                _MEMO_IN_MEMORY[lexicon] = compiled
            except TypeError:
                pass  # not weak-referenceable: compile per call
            return compiled
    key = str(lexicon.manifest.get("trie_sha256", ""))
    spelled = spelling_of(lexicon)
    if spelled:  # the same words split another way are another trie: never mapped for this one
        key += " " + json.dumps(spelled.to_dict(), ensure_ascii=False, sort_keys=True)
    memo_key = f"{path} {key}"
    if memo_key in _MEMO:
        return _MEMO[memo_key]
    places = [path, user_cache_path(str(lexicon.manifest.get("trie_sha256", "")))]
    mapped = None
    for place in places:
        mapped = from_file(place, key)
        if mapped is not None:
            break
    if mapped is None:
        with task(f"compiling lexicon {getattr(lexicon, 'name', '')} for the fast engine (once: cached in the store)"):
            built = compile_words(list(lexicon.keys()), spelled)
        data = to_bytes(built, key)
        for place in places:  # the store beside the trie; a store we cannot write: this user's cache folder
            try:
                atomic_write_bytes(place, data)
            except BoggleI18nError:
                continue
            mapped = from_file(place, key)  # mapped, so worker processes share its pages
            if mapped is not None:
                break
        mapped = mapped or built  # nowhere to write: kept in memory for this process, same results
    _MEMO[memo_key] = mapped
    return mapped


def user_cache_path(key: str) -> Path:
    """Where a compiled trie goes when its store cannot be written (a shared or read-only store): per user."""
    return cache_dir() / "compiled" / f"{key}.bgc"
