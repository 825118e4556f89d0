"""Recipes: declarative TOML files in `pipelines/` that say how a raw list becomes a lexicon.

A recipe may `extends` another recipe or a preset (`pipelines/presets/*.toml`):
every top-level key it sets replaces the base's (tables such as `[source]` and
the `stages` list are replaced whole, never merged), so `en-enable2k` states
only its source. The recipe's hash is taken over the merged content, so editing
a base changes the hash of every recipe built on it.

Every field is checked when the recipe is loaded, before any work: a wrong type
gives one line naming the recipe, the stage and the field.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import RecipeError
from ..limits import clip
from ..resources import data_dir
from .recipe_files import content_sha256, merged_recipe
from .runner import check_stage


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
    upstream: str | None = None
    # A spell-checker dictionary expanded into every word form by a tool (EXPANDERS below; run by sources.py):
    # `expand` names the tool, `system` the dictionary file (.dic or aspell's .rws),
    # `dictionary` aspell's dictionary name, `tool_package` the Debian package of the tool.
    expand: str | None = None
    dictionary: str | None = None
    tool_package: str | None = None
    flatten: bool = False  # rewrite the Hunspell pair first (pipeline/hunspell.py): numeric flags, NEEDAFFIX
    # expand = "hunspell" (the project's own expander, pipeline/affixes.py): how many affix levels a form
    # may carry and which affix classes are never applied (the recipe's choice of what makes a word)
    suffix_levels: int = 2
    prefix_levels: int = 1
    skip_flags: tuple[str, ...] = ()
    prefix_letters: int | None = None  # expand = "hunspell": no prefix rule adding more letters (Hebrew: 1)
    suffix_letters: int | None = None  # expand = "hunspell": no suffix rule adding more letters (Korean: 5)
    skip_affixes: tuple[str, ...] = ()  # expand = "hunspell": rules adding exactly one of these never apply
    # Particles a language writes joined to the next word (Arabic's conjunctions و and ف): each entry is
    # also read with one of them before it, never two (no stacks). Any source, expanded or not.
    particles: tuple[str, ...] = ()
    # A particle form (particle + entry) is kept only when wordfreq (the language's list) attests it at least
    # this frequent: which stacks are in use is known only from running text (Hebrew's, Arabic's); None = all.
    particles_min_zipf: float | None = None


@dataclass(frozen=True)
class Recipe:
    """A parsed recipe. `raw` is the merged TOML content; its hash identifies the recipe."""

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
    extends: tuple[str, ...] = ()

    @property
    def sha256(self) -> str:
        """Hash of the recipe's merged content (not its comments, layout or base's file name)."""
        return content_sha256(self.raw)

    def renamed(self, name: str) -> Recipe:
        """The same recipe stored under another lexicon name (`build-lexicon --as`)."""
        raw = dict(self.raw, name=name)
        return replace(self, name=name, raw=raw)


def recipe_names() -> list[str]:
    """Names of the shipped recipes (presets are not recipes: they cannot be built alone)."""
    return sorted(p.stem for p in data_dir("pipelines").glob("*.toml"))


# --- schema -------------------------------------------------------------------------------

_TOP: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "language": str,
    "description": str,
    "licence": str,
    "attribution": str,
    "encoding": str,
    "source": dict,
    "stages": list,
    "extends": str,
}
_REQUIRED = ("name", "language", "licence", "source", "stages")
_SOURCE: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "version": str,
    "url": str,
    "sha256": str,
    "system": list,
    "system_package": str,
    "filename": str,
    "upstream": str,
    "expand": str,
    "dictionary": str,
    "tool_package": str,
    "flatten": bool,
    "suffix_levels": int,
    "prefix_levels": int,
    "skip_flags": list,
    "prefix_letters": int,
    "suffix_letters": int,
    "skip_affixes": list,
    "particles": list,
    "particles_min_zipf": (int, float),
}
EXPANDERS = ("unmunch", "aspell", "hunspell")
MAX_PARTICLES = 8  # each one adds a copy of the list
MAX_SUFFIX_LETTERS = 20  # a longer cap is no cap: say nothing (every rule) instead
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_SHA = re.compile(r"^[0-9a-f]{64}$")


def _type_name(t: type | tuple[type, ...]) -> str:
    names = {str: "a string", dict: "a table", list: "a list", int: "an integer", bool: "true or false"}
    names[float] = "a number"
    return names.get(t, str(t)) if isinstance(t, type) else " or ".join(names.get(x, str(x)) for x in t)


def _check_field(where: str, key: str, value: Any, expected: type | tuple[type, ...]) -> None:
    if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
        raise RecipeError(f"{where}: field {key!r} must be {_type_name(expected)}, not {value!r}")


def _validate(raw: dict[str, Any], where: str) -> None:
    """Check every field of a merged recipe; one line naming the recipe, the stage and the field."""
    for key, value in raw.items():
        if key not in _TOP:
            raise RecipeError(f"{where}: unknown field {key!r} (known: {', '.join(_TOP)})")
        _check_field(where, key, value, _TOP[key])
    for key in _REQUIRED:
        if key not in raw:
            raise RecipeError(f"{where}: missing field {key!r}")
    if not _NAME.match(raw["name"]):
        raise RecipeError(
            f"{where}: field 'name' must be lower-case letters, digits, '.', '_' or '-', not {raw['name']!r}"
        )
    if "encoding" in raw:
        try:
            codecs.lookup(raw["encoding"])
        except LookupError:
            raise RecipeError(f"{where}: field 'encoding': unknown encoding {raw['encoding']!r}") from None
    src = raw["source"]
    for key, value in src.items():
        if key not in _SOURCE:
            raise RecipeError(f"{where}: [source] unknown field {key!r} (known: {', '.join(_SOURCE)})")
        _check_field(f"{where}: [source]", key, value, _SOURCE[key])
    if "name" not in src:
        raise RecipeError(f"{where}: [source] missing field 'name'")
    if not all(isinstance(p, str) for p in src.get("system", [])):
        raise RecipeError(f"{where}: [source] field 'system' must be a list of paths (strings)")
    if "expand" in src:
        if src["expand"] not in EXPANDERS:
            raise RecipeError(f"{where}: [source] field 'expand' must be one of {', '.join(EXPANDERS)}")
        if not src.get("system"):
            raise RecipeError(f"{where}: [source] an expanded dictionary needs `system` (the dictionary file)")
        if src["expand"] == "aspell" and not _NAME.match(src.get("dictionary", "")):
            raise RecipeError(f"{where}: [source] expand = 'aspell' needs `dictionary` (an aspell name such as 'ga')")
    if src.get("flatten") and src.get("expand") != "unmunch":
        raise RecipeError(f"{where}: [source] flatten = true rewrites a Hunspell dictionary for expand = 'unmunch'")
    depth_keys = [
        k
        for k in ("suffix_levels", "prefix_levels", "skip_flags", "prefix_letters", "suffix_letters", "skip_affixes")
        if k in src
    ]
    if depth_keys and src.get("expand") != "hunspell":
        raise RecipeError(f"{where}: [source] {depth_keys[0]} is a setting of expand = 'hunspell'")
    for key, top in (("suffix_levels", 2), ("prefix_levels", 2)):
        if key in src and not 0 <= src[key] <= top:
            raise RecipeError(f"{where}: [source] field {key!r} must be 0 to {top}, not {src[key]!r}")
    if "prefix_letters" in src and not 1 <= src["prefix_letters"] <= 9:
        raise RecipeError(f"{where}: [source] field 'prefix_letters' must be 1 to 9, not {src['prefix_letters']!r}")
    if "suffix_letters" in src and not 1 <= src["suffix_letters"] <= MAX_SUFFIX_LETTERS:
        raise RecipeError(
            f"{where}: [source] field 'suffix_letters' must be 1 to {MAX_SUFFIX_LETTERS}, not {src['suffix_letters']!r}"
        )
    if not all(isinstance(f, str) and f for f in src.get("skip_flags", [])):
        raise RecipeError(f"{where}: [source] field 'skip_flags' must be a list of affix flags (strings)")
    if not all(isinstance(a, str) and a and "," not in a for a in src.get("skip_affixes", [])):
        raise RecipeError(
            f"{where}: [source] field 'skip_affixes' must be a list of affix texts (strings such as 'et')"
        )
    particles = src.get("particles", [])
    if not (
        len(particles) <= MAX_PARTICLES
        and all(isinstance(p, str) and 0 < len(p) <= 4 and not any(c.isspace() for c in p) for p in particles)
        and len(set(particles)) == len(particles)
    ):
        raise RecipeError(
            f"{where}: [source] field 'particles' must be a list of at most {MAX_PARTICLES} different strings "
            "of 1 to 4 characters, no spaces"
        )
    zipf = src.get("particles_min_zipf")
    if zipf is not None and (isinstance(zipf, bool) or not 0 < zipf <= 8 or not particles):
        raise RecipeError(
            f"{where}: [source] field 'particles_min_zipf' must be a Zipf frequency above 0 and at most 8, "
            "with 'particles' to apply to"
        )
    if "sha256" in src and not _SHA.match(src["sha256"]):
        raise RecipeError(f"{where}: [source] field 'sha256' must be 64 lower-case hex digits")
    for i, st in enumerate(raw["stages"], 1):
        if not isinstance(st, dict):
            raise RecipeError(f"{where}: stage {i} must be a table ([[stages]]), not {st!r}")
        if "stage" not in st:
            raise RecipeError(f"{where}: stage {i} has no 'stage' field")
        if not isinstance(st["stage"], str):
            raise RecipeError(f"{where}: stage {i}: field 'stage' must be a string, not {st['stage']!r}")
        params = {k: v for k, v in st.items() if k != "stage"}
        try:
            check_stage(i, st["stage"], params)
        except RecipeError as exc:
            raise RecipeError(f"{where}: {exc}") from None


# --- loading and extends ------------------------------------------------------------------


def _parse(raw: dict[str, Any], where: str, path: Path | None, extends: tuple[str, ...] = ()) -> Recipe:
    _validate(raw, where)
    src = raw["source"]
    source = SourceSpec(
        name=src["name"],
        version=src.get("version"),
        url=src.get("url"),
        sha256=src.get("sha256"),
        system=tuple(src.get("system", ())),
        system_package=src.get("system_package"),
        filename=src.get("filename"),
        upstream=src.get("upstream"),
        expand=src.get("expand"),
        dictionary=src.get("dictionary"),
        tool_package=src.get("tool_package"),
        flatten=bool(src.get("flatten", False)),
        suffix_levels=src.get("suffix_levels", 2),
        prefix_levels=src.get("prefix_levels", 1),
        skip_flags=tuple(src.get("skip_flags", ())),
        prefix_letters=src.get("prefix_letters"),
        suffix_letters=src.get("suffix_letters"),
        skip_affixes=tuple(src.get("skip_affixes", ())),
        particles=tuple(src.get("particles", ())),
        particles_min_zipf=float(src["particles_min_zipf"]) if "particles_min_zipf" in src else None,
    )
    stages = tuple((st["stage"], {k: v for k, v in st.items() if k != "stage"}) for st in raw["stages"])
    return Recipe(
        name=raw["name"],
        language=raw["language"],
        description=raw.get("description", ""),
        licence=raw["licence"],
        attribution=raw.get("attribution", ""),
        encoding=raw.get("encoding", "utf-8"),
        source=source,
        stages=stages,
        path=path,
        raw=raw,
        extends=extends,
    )


def parse_recipe(raw: dict[str, Any], where: str) -> Recipe:
    """A recipe from its merged content (as a manifest records it), checked like a file."""
    return _parse({k: v for k, v in raw.items() if k != "extends"}, where, None)


def load_recipe(name_or_path: str) -> Recipe:
    """A shipped recipe by name, or a user's recipe from a `.toml` path."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml":
        path = candidate
        if not path.is_file():
            raise RecipeError(f"recipe file {path} not found")
    else:
        path = data_dir("pipelines") / f"{name_or_path}.toml"
        if not _NAME.match(name_or_path) or not path.is_file():
            known = ", ".join(recipe_names())
            raise RecipeError(
                f"unknown lexicon recipe {clip(name_or_path)!r} (known: {known}; or give a .toml path)",
                code="lexicon.unknown",
                params={"name": clip(name_or_path)},
            )
    raw, chain = merged_recipe(path)
    return _parse(raw, f"recipe {path}", path, chain)
