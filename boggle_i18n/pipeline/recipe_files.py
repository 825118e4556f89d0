"""Reading a recipe file: its TOML, its `extends` bases merged in, and the hash of the merged content.

Apart from recipe.py (the schema and its checks) so that loading a built lexicon can
tell whether its recipe changed since the build (`lexicon/ensure.py`) without loading
the schema and the stage table, which only a build needs.
"""

from __future__ import annotations

import os

from .. import jsontext, toml_cache
from ..digest import sha256_hex
from ..errors import RecipeError
from ..folders import clean, data_folder, parent

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any


def content_sha256(raw: dict[str, Any]) -> str:
    """Hash of a recipe's merged content (not its comments, layout or base's file name): what a manifest records."""
    canon = jsontext.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return sha256_hex(canon.encode("utf-8"))


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    try:
        return toml_cache.read_toml(path)
    except toml_cache.TomlError as exc:
        raise RecipeError(f"recipe {clean(path)}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RecipeError(
            f"recipe {clean(path)} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
        ) from None
    except RecursionError:
        raise RecipeError(f"recipe {clean(path)}: nested too deeply") from None
    except OSError as exc:
        raise RecipeError(f"recipe {clean(path)}: {exc.strerror or exc}") from None


def base_path(ref: str, child: str | os.PathLike[str]) -> str:
    """Where `extends = ref` points: a `.toml` path beside the child, a shipped recipe, or a preset."""
    if ref.endswith(".toml"):
        return clean(os.path.join(parent(child), ref))
    pipelines = data_folder("pipelines")
    for folder in (pipelines, os.path.join(pipelines, "presets")):
        candidate = os.path.join(folder, f"{ref}.toml")
        if os.path.isfile(candidate):
            return candidate
    raise RecipeError(f"recipe {clean(child)}: extends unknown recipe or preset {ref!r}")


def merged_recipe(path: str | os.PathLike[str], seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The recipe at `path` with its bases applied (top-level keys replace the base's)."""
    path = clean(path)  # as `Path` prints it: error messages name the file as the user gave it
    raw = read_toml(path)
    ref = raw.get("extends")
    if ref is None:
        return raw, ()
    if not isinstance(ref, str):
        raise RecipeError(f"recipe {path}: field 'extends' must be a string, not {ref!r}")
    base = os.path.realpath(base_path(ref, path))
    if base in seen or base == os.path.realpath(path):
        raise RecipeError(f"recipe {path}: extends {ref!r} makes a cycle")
    if len(seen) > 8:
        raise RecipeError(f"recipe {path}: extends chain is too deep")
    if not os.path.isfile(base):
        raise RecipeError(f"recipe {path}: extends {ref!r}, but {base} is not there")
    base_raw, chain = merged_recipe(base, (*seen, os.path.realpath(path)))
    merged = {k: v for k, v in base_raw.items() if k != "extends"}
    merged.update({k: v for k, v in raw.items() if k != "extends"})
    return merged, (ref, *chain)
