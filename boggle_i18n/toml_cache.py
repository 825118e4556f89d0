"""TOML files read through a parse cache, so that a cold start does not import `tomllib`.

The language records, the scoring presets and the recipes are TOML and stay the source of
truth; parsing one needs `tomllib` (with `typing`, `datetime`, `string`: about 8 ms of a
cold `solve`). The value a file parses to is kept as JSON in the user's cache folder,
`toml/<sha256 of the file's bytes>.json`, written atomically. An entry is used only when
its first line names that same sha256 and the sha256 of the JSON after it; anything else
(missing, damaged, foreign, unreadable) parses the TOML and writes the entry again. A value
JSON cannot hold exactly (a TOML date or time) is parsed every time, never cached. The file
is read once and its bytes are both hashed and parsed, so an edit always counts.
"""

from __future__ import annotations

import os

from . import jsontext
from .digest import sha256_hex
from .folders import cache_folder, read_cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAGIC = b"boggle-i18n-toml-cache 1"


class TomlError(ValueError):
    """A file that is not valid TOML: `tomllib.TOMLDecodeError`'s message (not imported for a cached file)."""


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The TOML file at `path` as `tomllib.load` gives it; raises OSError, UnicodeDecodeError, RecursionError
    as that does, and `TomlError` for a TOMLDecodeError."""
    with open(path, "rb") as handle:
        data = handle.read()
    digest = sha256_hex(data)
    entry = os.path.join(cache_folder(), "toml", f"{digest}.json")
    cached = _cached(entry, digest)
    if cached is not None:
        return cached
    import tomllib  # only for a file not parsed before (or whose entry was damaged)

    try:
        value = tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc)) from None
    if _plain(value):
        body = jsontext.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        head = b"%s %s %s\n" % (MAGIC, digest.encode(), sha256_hex(body).encode())
        from .storage import atomic_write_bytes  # writers only: a cached file is read without pathlib

        try:
            atomic_write_bytes(entry, head + body)
        except Exception:  # an unwritable cache only means the file is parsed again next time
            pass
    return value


def _cached(entry: str, digest: str) -> dict[str, Any] | None:
    """The value entry `entry` holds for TOML bytes of sha256 `digest`, or None unless it checks out."""
    blob = read_cached(entry)
    if blob is None:
        return None
    head, _, body = blob.partition(b"\n")
    if head != b"%s %s %s" % (MAGIC, digest.encode(), sha256_hex(body).encode()):
        return None
    try:
        value = jsontext.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _plain(value: object) -> bool:
    """Whether JSON holds `value` exactly: tables, arrays, strings, numbers and booleans only."""
    if isinstance(value, dict):
        return all(_plain(item) for item in value.values())
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return isinstance(value, (str, int, float))  # bool is an int
