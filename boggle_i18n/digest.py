"""sha256 hex digests of bytes in memory, without loading OpenSSL for small ones.

`hashlib.sha256` is OpenSSL's: fast (about 2 GB/s on a CPU with SHA instructions) but loading it takes
about 1.7 ms, a twentieth of a cold `solve`. Python's own sha256 (`_sha256`; `_sha2` from 3.12) loads in
microseconds and hashes at about 350 MB/s. A cold solve hashes a few kilobytes of TOML and JSON and
one trie (0.4 MiB for ENABLE2K, 2-60 MiB for most languages): below SMALL bytes the built-in hash costs
less than loading OpenSSL and hashing there (measured in docs/performance.md, "Cold start"), above it
OpenSSL wins, and once OpenSSL is loaded it always does. The digests are the same either way.
"""

from __future__ import annotations

import sys

SMALL = 512 << 10

_builtin = None
for _module in ("_sha2", "_sha256"):  # 3.12 and later, 3.11
    try:
        _builtin = __import__(_module).sha256
        break
    except (ImportError, AttributeError):
        continue


def sha256_hex(data: bytes | bytearray | memoryview) -> str:
    """The sha256 of `data`, as 64 hex digits."""
    if _builtin is not None and len(data) < SMALL and "_hashlib" not in sys.modules:
        return str(_builtin(data).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()
