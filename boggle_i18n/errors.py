"""One exception family, so the CLI can turn any library error into one clean line."""

from __future__ import annotations


class BoggleI18nError(Exception):
    """Base class of every error a user can cause (bad input, missing data)."""


class RecipeError(BoggleI18nError):
    """A pipeline recipe is missing, malformed or names an unknown stage."""


class SourceError(BoggleI18nError):
    """A raw word list cannot be found, fetched, verified or decoded."""


class LexiconError(BoggleI18nError):
    """A built lexicon is missing, corrupt or of an unknown format."""


class BoardError(BoggleI18nError):
    """A board string or file cannot be parsed, or does not fit the rules."""


class DiceError(BoggleI18nError):
    """A dice set is unknown or its data is malformed."""


class LanguageError(BoggleI18nError):
    """A language code is unknown."""


class ScoringError(BoggleI18nError):
    """A scoring preset is unknown or a custom table is malformed."""


class OutputError(BoggleI18nError):
    """An output file, or the lexicon store, cannot be written."""


class EngineError(BoggleI18nError):
    """An engine cannot run at all here (a kernel not built or not installed): fatal, never one board's error."""


class LimitError(BoggleI18nError):
    """A number outside its documented range (`limits.py`): a usage error, exit 2 on the command line."""
