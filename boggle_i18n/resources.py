"""Where the shipped data lives: recipes (`pipelines/`) and language data (`lexicons/`).

In a wheel both folders are copied into the package as `boggle_i18n/_data/...`;
in a source checkout (or an editable install) they sit beside the package.
"""

from __future__ import annotations

from functools import cache

from .folders import data_folder

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from pathlib import Path


@cache
def data_dir(name: str) -> Path:
    """Return the folder of shipped data called `name` ("pipelines" or "lexicons")."""
    from pathlib import Path  # the cold start's read path takes `folders.data_folder`, a string

    return Path(data_folder(name))
