"""boggle-i18n: build Boggle lexicons from raw word lists and solve boards in any language."""

from .api import RolledBoard, face_counts, load_lexicon, parse_board, roll, roll_board, rules_for, solve
from .board import Board, DiceSet, dice_sets, get_dice
from .errors import BoggleI18nError
from .languages import Language, get_language, languages
from .lexicon import Lexicon, build_lexicon
from .scoring import Scoring, get_scoring
from .selection import Selection, select
from .solver import FoundWord, ReferenceSolver, Rules, SolveResult

__version__ = "0.1.0"

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
