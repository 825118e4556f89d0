"""Run a recipe's stages in order and report what each one kept, dropped and changed."""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from ..errors import RecipeError
from .stages import STAGES, StageContext

EXAMPLES = 3


@dataclass(frozen=True)
class StageReport:
    """Counts for one stage; `examples` shows a few entries it dropped (or changed)."""

    stage: str
    params: dict[str, Any]
    entries_in: int
    kept: int
    dropped: int
    changed: int
    examples: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as written into the manifest."""
        return {
            "stage": self.stage,
            "params": self.params,
            "in": self.entries_in,
            "kept": self.kept,
            "dropped": self.dropped,
            "changed": self.changed,
            "examples": list(self.examples),
        }


def _examples(before: list[str], after: list[str]) -> tuple[tuple[str, ...], int]:
    """Examples of dropped entries, or of changes `old -> new` for a stage that maps 1:1."""
    if len(before) == len(after):
        changes = [(a, b) for a, b in zip(before, after, strict=False) if a != b]
        return tuple(f"{a} -> {b}" for a, b in changes[:EXAMPLES]), len(changes)
    remaining = Counter(after)
    dropped = []
    for e in before:
        if remaining[e] > 0:
            remaining[e] -= 1
        else:
            dropped.append(e)
            if len(dropped) == EXAMPLES:
                break
    return tuple(dropped), 0


def _fits(value: Any, hint: Any) -> bool:
    """Whether a TOML value suits a stage parameter's annotation (plain types, unions, containers)."""
    if hint is Any:
        return True
    if isinstance(hint, types.UnionType) or get_origin(hint) is Union:
        return any(_fits(value, h) for h in get_args(hint))
    if hint is type(None):
        return value is None
    origin = get_origin(hint) or hint
    if origin is Iterable:
        return isinstance(value, (list, tuple))
    if origin is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, origin)


def _check_types(factory: Callable[..., Any], params: dict[str, Any]) -> None:
    """Refuse a parameter of the wrong type (`min = "3"`) before the stage runs, not in the middle."""
    hints = get_type_hints(factory)
    for key, value in params.items():
        if key in hints and not _fits(value, hints[key]):
            raise TypeError(f"{key} = {value!r} is not a {hints[key]}")


def build_stages(
    specs: Sequence[tuple[str, dict[str, Any]]], ctx: StageContext
) -> list[Callable[[list[str]], list[str]]]:
    """Instantiate every stage up front, so a bad recipe fails before any work is done."""
    fns = []
    for i, (name, params) in enumerate(specs, 1):
        factory = STAGES.get(name)
        if factory is None:
            known = ", ".join(sorted(STAGES))
            raise RecipeError(f"stage {i}: unknown stage {name!r} (known: {known})")
        try:
            _check_types(factory, params)
            fns.append(factory(ctx, **params))
        except (TypeError, ValueError) as exc:
            raise RecipeError(f"stage {i} ({name}): bad parameters: {exc}") from None
        except RecipeError as exc:
            raise RecipeError(f"stage {i}: {exc}") from None
    return fns


def run_stages(
    entries: list[str],
    specs: Sequence[tuple[str, dict[str, Any]]],
    ctx: StageContext,
    progress: Callable[[int, str], None] | None = None,
) -> tuple[list[str], list[StageReport]]:
    """Apply the stages in order; return the surviving entries and one report per stage."""
    fns = build_stages(specs, ctx)
    reports = []
    for i, ((name, params), fn) in enumerate(zip(specs, fns, strict=False)):
        if progress:
            progress(i, name)
        after = fn(entries)
        examples, changed = _examples(entries, after)
        reports.append(
            StageReport(
                stage=name,
                params=params,
                entries_in=len(entries),
                kept=len(after),
                dropped=len(entries) - len(after),
                changed=changed,
                examples=examples,
            )
        )
        entries = after
    return entries, reports
