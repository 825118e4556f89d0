"""Built lexicons: a MARISA trie plus a JSON manifest, kept in a store folder.

The builder (and with it the whole pipeline) loads on first use: reading a
built lexicon should not pay for the code that builds one.
"""

from __future__ import annotations

from .store import FORMAT, FORMAT_VERSION, Lexicon, built_lexicons, lexicon_paths

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FORMAT", "FORMAT_VERSION", "Lexicon", "build_lexicon", "built_lexicons", "ensure_lexicon", "lexicon_paths"]

if TYPE_CHECKING:
    from .build import build_lexicon
    from .ensure import ensure_lexicon


def __getattr__(name: str) -> Any:
    if name == "build_lexicon":
        from .build import build_lexicon

        return build_lexicon
    if name == "ensure_lexicon":
        from .ensure import ensure_lexicon

        return ensure_lexicon
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
