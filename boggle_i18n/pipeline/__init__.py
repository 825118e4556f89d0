"""The lexicon pipeline: a recipe (data) names a source and an ordered chain of stages."""

from .recipe import Recipe, load_recipe, recipe_names
from .runner import StageReport, run_stages
from .sources import ResolvedSource, resolve_source
from .stages import STAGES

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
