"""Where the shipped data lives: recipes (`pipelines/`) and language data (`lexicons/`).

In a wheel both folders are copied into the package as `boggle_i18n/_data/...`;
in a source checkout (or an editable install) they sit beside the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .errors import BoggleI18nError

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder of shipped data called `name` ("pipelines" or "lexicons")."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise BoggleI18nError(f"shipped data folder {name!r} is missing; reinstall boggle-i18n")
