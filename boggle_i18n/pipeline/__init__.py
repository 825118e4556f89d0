"""The lexicon pipeline: a recipe (data) names a source and an ordered chain of stages.

Names load from their modules on first use, so code that needs one stage table
(the language records read `policies.CASE_POLICIES`) does not load the runner,
the downloader and the recipe reader too.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

_HOMES = {
    "Recipe": ".recipe",
    "load_recipe": ".recipe",
    "recipe_names": ".recipe",
    "StageReport": ".runner",
    "run_stages": ".runner",
    "ResolvedSource": ".sources",
    "resolve_source": ".sources",
    "STAGES": ".stages",
}

__all__ = [
    "STAGES",
    "Recipe",
    "ResolvedSource",
    "StageReport",
    "load_recipe",
    "recipe_names",
    "resolve_source",
    "run_stages",
]

if TYPE_CHECKING:
    from .recipe import Recipe, load_recipe, recipe_names
    from .runner import StageReport, run_stages
    from .sources import ResolvedSource, resolve_source
    from .stages import STAGES


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = __name__ + _HOMES[name]
    __import__(module)  # not importlib.import_module: `importlib` stays off a cold command's path
    return getattr(sys.modules[module], name)
