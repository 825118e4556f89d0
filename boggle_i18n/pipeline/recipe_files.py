"""Reading a recipe file: its TOML, its `extends` bases merged in, and the hash of the merged content.

Apart from recipe.py (the schema and its checks) so that loading a built lexicon can
tell whether its recipe changed since the build (`lexicon/ensure.py`) without loading
the schema and the stage table, which only a build needs.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import toml_cache
from ..errors import RecipeError
from ..resources import data_dir

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any


def content_sha256(raw: dict[str, Any]) -> str:
    """Hash of a recipe's merged content (not its comments, layout or base's file name): what a manifest records."""
    canon = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return toml_cache.read_toml(path)
    except toml_cache.TomlError as exc:
        raise RecipeError(f"recipe {path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RecipeError(
            f"recipe {path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
        ) from None
    except RecursionError:
        raise RecipeError(f"recipe {path}: nested too deeply") from None
    except OSError as exc:
        raise RecipeError(f"recipe {path}: {exc.strerror or exc}") from None


def base_path(ref: str, child: Path) -> Path:
    """Where `extends = ref` points: a `.toml` path beside the child, a shipped recipe, or a preset."""
    if ref.endswith(".toml"):
        return child.parent / ref
    for folder in (data_dir("pipelines"), data_dir("pipelines") / "presets"):
        candidate = folder / f"{ref}.toml"
        if candidate.is_file():
            return candidate
    raise RecipeError(f"recipe {child}: extends unknown recipe or preset {ref!r}")


def merged_recipe(path: Path, seen: tuple[Path, ...] = ()) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The recipe at `path` with its bases applied (top-level keys replace the base's)."""
    raw = read_toml(path)
    ref = raw.get("extends")
    if ref is None:
        return raw, ()
    if not isinstance(ref, str):
        raise RecipeError(f"recipe {path}: field 'extends' must be a string, not {ref!r}")
    base = base_path(ref, path).resolve()
    if base in seen or base == path.resolve():
        raise RecipeError(f"recipe {path}: extends {ref!r} makes a cycle")
    if len(seen) > 8:
        raise RecipeError(f"recipe {path}: extends chain is too deep")
    if not base.is_file():
        raise RecipeError(f"recipe {path}: extends {ref!r}, but {base} is not there")
    base_raw, chain = merged_recipe(base, (*seen, path.resolve()))
    merged = {k: v for k, v in base_raw.items() if k != "extends"}
    merged.update({k: v for k, v in raw.items() if k != "extends"})
    return merged, (ref, *chain)
