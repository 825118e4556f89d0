"""Whether a trie file's bytes can be handed to MARISA: checked once in a child process, then remembered.

MARISA trusts its input: a damaged trie can crash the process that reads it
(a segfault in C), loop, or answer with other words. A sha256 in the manifest
catches damage *after* a build; a trie damaged before its sha256 was recorded
(a store copied from elsewhere, a bad writer) matches its manifest and is still
wrong. So the first time a process meets trie bytes it has not seen verified,
a child process (`_CHILD`, which imports nothing but marisa_trie) loads them,
walks every key, looks each one up again and hashes the sorted keys: a crash,
a hang or a memory blow-up kills the child, never the caller, and the words
must be the ones the manifest records (`word_count`, and `keys_sha256` for
lexicons built since it was added). A trie that passes is remembered by its
sha256 in the user's cache folder (`verified/`), so the check runs once per
trie per machine; a build records its own trie there, made by MARISA from the
words it was given.
"""

from __future__ import annotations

import os
import sys
from itertools import islice

from .. import jsontext
from ..folders import cache_folder, read_cached

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    import marisa_trie

CHECK_SECONDS = 300  # a trie whose check runs longer is called damaged (nl's 16 MiB check takes about 1 s)
CHECK_MEMORY = 4 << 30  # bytes of address space beyond the trie itself that the checking child may take

# Runs in a fresh interpreter: reads the trie from stdin, prints what it holds.
_CHILD = r"""
import hashlib, json, resource, sys
data = sys.stdin.buffer.read()
limit = int(sys.argv[1]) + 8 * len(data)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import marisa_trie
trie = marisa_trie.Trie().frombytes(data)
keys = trie.keys()
missing = sum(1 for k in keys if k not in trie)
digest = hashlib.sha256("\n".join(sorted(keys)).encode("utf-8")).hexdigest()
print(json.dumps({"count": len(keys), "len": len(trie), "missing": missing, "keys_sha256": digest}))
"""

_VERIFIED: set[tuple[str, int, str | None]] = set()  # this process's verified (trie sha256, words, keys sha256)


def keys_digest(keys: Iterable[str]) -> str:
    """The manifest's `keys_sha256`: sha256 of the sorted words joined by newlines (UTF-8)."""
    import hashlib  # a build's and a check's: OpenSSL is not loaded on a cold solve's path (digest.py)

    return hashlib.sha256("\n".join(sorted(keys)).encode("utf-8")).hexdigest()


BATCH = 1 << 16  # words sorted at a time by trie_keys_digest: its memory, whatever the lexicon's size


def trie_keys_digest(trie: marisa_trie.Trie, chars: Iterable[str] | None = None) -> str:
    """`keys_digest(trie.keys())` without holding every word at once (a build's peak memory).

    The words come out in sorted order prefix by prefix: a prefix with at most BATCH words
    is read and sorted whole; a larger one yields itself (if a word) and then each longer
    prefix in code-point order, which is the order `sorted` gives. `chars`: every character
    the words use, if known (else found by one pass over the trie).
    """
    import hashlib

    alphabet = sorted(set(chars) if chars is not None else {ch for word in _sample_chars(trie) for ch in word})
    digest = hashlib.sha256()
    first = True

    def words(prefix: str) -> Iterator[str]:
        batch = list(islice(trie.iterkeys(prefix), BATCH + 1))
        if len(batch) <= BATCH:
            yield from sorted(batch)
            return
        del batch
        if prefix and prefix in trie:
            yield prefix
        for ch in alphabet:
            yield from words(prefix + ch)  # an empty batch for a prefix no word has

    count = 0
    for word in words(""):
        digest.update(word.encode("utf-8") if first else b"\n" + word.encode("utf-8"))
        first = False
        count += 1
    if count != len(trie):  # a character missing from `chars` skipped some words: take the plain way
        return keys_digest(trie.keys())
    return digest.hexdigest()


def _sample_chars(trie: marisa_trie.Trie) -> Iterator[str]:
    """Every character of every word, one word at a time (the trie's alphabet, found without a word list)."""
    seen: set[str] = set()
    for word in trie.iterkeys():
        if not seen.issuperset(word):
            seen.update(word)
            yield word


def _record_path(trie_sha: str) -> str:
    return os.path.join(cache_folder(), "verified", f"{trie_sha}.json")


def remember(trie_sha: str, word_count: int, keys_sha: str) -> None:
    """Record that the trie with sha256 `trie_sha` holds `word_count` words hashing to `keys_sha` (best effort)."""
    _VERIFIED.add((trie_sha, word_count, keys_sha))
    record = jsontext.dumps({"trie_sha256": trie_sha, "word_count": word_count, "keys_sha256": keys_sha})
    from ..storage import atomic_write_bytes  # writers only: reading a record needs no pathlib

    try:
        atomic_write_bytes(_record_path(trie_sha), record.encode("utf-8") + b"\n")
    except Exception:  # an unwritable cache only means the check runs again next time
        pass


def _recorded(trie_sha: str) -> dict[str, Any] | None:
    blob = read_cached(_record_path(trie_sha))
    try:
        data = jsontext.loads(blob) if blob is not None else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


class CheckNotRun(Exception):
    """The check itself could not run here (the interpreter cannot be started, marisa_trie is not importable by
    a child): nothing is known about the trie, so it is neither loaded nor called damaged. The message says
    what failed, and what to do about it."""


def trie_problem(data: bytes, trie_sha: str, manifest: dict[str, Any]) -> str | None:
    """Why these trie bytes must not be loaded (one phrase), or None once they are known good; `CheckNotRun`
    when the check cannot be run at all.

    `trie_sha` is the bytes' sha256 (already compared with the manifest's);
    `manifest` gives `word_count` and, if recorded, `keys_sha256`.
    """
    words = manifest.get("word_count")
    claimed = manifest.get("keys_sha256")
    claimed = claimed if isinstance(claimed, str) else None
    if (trie_sha, words, claimed) in _VERIFIED:
        return None
    record = _recorded(trie_sha)
    if record is not None and record.get("word_count") == words and claimed in (None, record.get("keys_sha256")):
        _VERIFIED.add((trie_sha, words, claimed))  # type: ignore[arg-type]
        return None
    found, problem = _check_in_child(data)
    if problem is not None:
        return problem
    assert found is not None
    if found["count"] != found["len"] or found["missing"]:
        return "its keys do not read back (MARISA's structure is damaged)"
    if found["count"] != words:
        return f"it holds {found['count']:,} words, its manifest says {words:,}"
    if claimed is not None and found["keys_sha256"] != claimed:
        return "its words differ from the ones it was built with (keys_sha256 differs from its manifest)"
    remember(trie_sha, int(found["count"]), str(found["keys_sha256"]))
    return None


def _check_in_child(data: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """Run `_CHILD` on `data`: (what it found, None) or (None, why it failed)."""
    import signal  # a check runs once per trie (then it is remembered): not on a cold start's path
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(CHECK_MEMORY)],
            input=data,
            capture_output=True,
            timeout=CHECK_SECONDS,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return None, f"MARISA did not finish reading it in {CHECK_SECONDS} s"
    except OSError as exc:
        raise CheckNotRun(
            f"cannot start a check process ({sys.executable}: {exc.strerror or exc}); the trie itself may be "
            "sound: let this user run that interpreter, then try again"
        ) from None
    if proc.returncode < 0:
        try:
            name = signal.Signals(-proc.returncode).name
        except ValueError:
            name = f"signal {-proc.returncode}"
        return None, f"MARISA cannot read it (reading it crashed a check process with {name})"
    if proc.returncode != 0:
        last = (proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
        if "No module named 'marisa_trie'" in last:
            raise CheckNotRun(
                f"a check process ({sys.executable}) cannot import marisa_trie; the trie itself may be sound: "
                "install marisa-trie for that interpreter, then try again"
            )
        return None, f"MARISA cannot read it ({last[:100]})"
    try:
        found = jsontext.loads(proc.stdout)
        if not isinstance(found, dict):
            raise ValueError
        for key in ("count", "len", "missing"):
            if type(found.get(key)) is not int:
                raise ValueError
    except ValueError:
        return None, "it could not be checked (the check process answered nothing readable)"
    return found, None
