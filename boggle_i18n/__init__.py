"""boggle-i18n: build Boggle lexicons from raw word lists and solve boards in any language.

The public names load on first use (PEP 562), so a command that only scores
boards does not pay for the build pipeline, and `import boggle_i18n` stays cheap.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_HOMES = {
    ".api": ("RolledBoard", "face_counts", "load_lexicon", "parse_board", "roll", "roll_board", "rules_for", "solve"),
    ".board": ("Board", "DiceSet", "dice_sets", "get_dice"),
    ".errors": ("BoggleI18nError",),
    ".language.records": ("Language", "get_language", "languages"),
    ".lexicon": ("Lexicon", "build_lexicon"),
    ".scoring": ("Scoring", "get_scoring"),
    ".language.selection": ("Selection", "select"),
    ".solver": ("FoundWord", "ReferenceSolver", "Rules", "SolveResult"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
__all__ = [
    "Board",
    "BoggleI18nError",
    "DiceSet",
    "FoundWord",
    "Language",
    "Lexicon",
    "ReferenceSolver",
    "RolledBoard",
    "Rules",
    "Scoring",
    "Selection",
    "SolveResult",
    "build_lexicon",
    "dice_sets",
    "face_counts",
    "get_dice",
    "get_language",
    "get_scoring",
    "languages",
    "load_lexicon",
    "parse_board",
    "roll",
    "roll_board",
    "rules_for",
    "select",
    "solve",
]


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    __import__(__name__ + module)  # not importlib.import_module: `importlib` stays off a cold command's path
    value = getattr(sys.modules[__name__ + module], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from .api import RolledBoard, face_counts, load_lexicon, parse_board, roll, roll_board, rules_for, solve
    from .board import Board, DiceSet, dice_sets, get_dice
    from .errors import BoggleI18nError
    from .language.records import Language, get_language, languages
    from .language.selection import Selection, select
    from .lexicon import Lexicon, build_lexicon
    from .scoring import Scoring, get_scoring
    from .solver import FoundWord, ReferenceSolver, Rules, SolveResult
