"""Recipes: declarative TOML files in `pipelines/` that say how a raw list becomes a lexicon."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import RecipeError
from ..resources import data_dir


@dataclass(frozen=True)
class SourceSpec:
    """Where the raw list comes from: a pinned URL + sha256, and/or installed system lists."""

    name: str
    version: str | None = None
    url: str | None = None
    sha256: str | None = None
    system: tuple[str, ...] = ()
    system_package: str | None = None
    filename: str | None = None


@dataclass(frozen=True)
class Recipe:
    """A parsed recipe. `raw` is the TOML content; its hash identifies the recipe."""

    name: str
    language: str
    description: str
    licence: str
    attribution: str
    encoding: str
    source: SourceSpec
    stages: tuple[tuple[str, dict[str, Any]], ...]
    path: Path | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def sha256(self) -> str:
        """Hash of the recipe's content (not its comments or layout)."""
        canon = json.dumps(self.raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canon.encode("utf-8")).hexdigest()

    def renamed(self, name: str) -> Recipe:
        """The same recipe stored under another lexicon name (`build-lexicon --as`)."""
        raw = dict(self.raw, name=name)
        return replace(self, name=name, raw=raw)


def recipe_names() -> list[str]:
    """Names of the shipped recipes."""
    return sorted(p.stem for p in data_dir("pipelines").glob("*.toml"))


def _parse(raw: dict[str, Any], where: str, path: Path | None) -> Recipe:
    try:
        src = raw["source"]
        source = SourceSpec(
            name=src["name"],
            version=src.get("version"),
            url=src.get("url"),
            sha256=src.get("sha256"),
            system=tuple(src.get("system", ())),
            system_package=src.get("system_package"),
            filename=src.get("filename"),
        )
        stages = []
        for i, st in enumerate(raw["stages"], 1):
            params = dict(st)
            if "stage" not in params:
                raise RecipeError(f"{where}: stage {i} has no 'stage' key")
            stages.append((params.pop("stage"), params))
        return Recipe(
            name=raw["name"],
            language=raw["language"],
            description=raw.get("description", ""),
            licence=raw["licence"],
            attribution=raw.get("attribution", ""),
            encoding=raw.get("encoding", "utf-8"),
            source=source,
            stages=tuple(stages),
            path=path,
            raw=raw,
        )
    except KeyError as exc:
        raise RecipeError(f"{where}: missing key {exc.args[0]!r}") from None
    except TypeError as exc:
        raise RecipeError(f"{where}: malformed ({exc})") from None


def load_recipe(name_or_path: str) -> Recipe:
    """A shipped recipe by name, or a user's recipe from a `.toml` path."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml":
        path = candidate
        if not path.is_file():
            raise RecipeError(f"recipe file {path} not found")
    else:
        path = data_dir("pipelines") / f"{name_or_path}.toml"
        if not path.is_file():
            known = ", ".join(recipe_names())
            raise RecipeError(f"unknown lexicon recipe {name_or_path!r} (known: {known}; or give a .toml path)")
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"recipe {path}: {exc}") from None
    return _parse(raw, f"recipe {path}", path)
