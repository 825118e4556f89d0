"""Built lexicons: a MARISA trie plus a JSON manifest, kept in a store folder."""

from .build import build_lexicon, ensure_lexicon
from .store import FORMAT, FORMAT_VERSION, Lexicon, built_lexicons, lexicon_paths

__all__ = ["FORMAT", "FORMAT_VERSION", "Lexicon", "build_lexicon", "built_lexicons", "ensure_lexicon", "lexicon_paths"]
