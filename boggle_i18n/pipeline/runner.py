"""Run a recipe's stages in order and report what each one kept, dropped and changed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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
    kept = set(after)
    dropped = []
    for e in before:
        if e not in kept:
            dropped.append(e)
            if len(dropped) == EXAMPLES:
                break
    if len(dropped) < min(EXAMPLES, len(before) - len(after)):
        # Entries that survive once but were dropped as repeats (dedupe): count them out.
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
        try:
            after = fn(entries)
        except TypeError as exc:  # a parameter of the wrong type that only shows in use, e.g. min = "3"
            raise RecipeError(f"stage {i + 1} ({name}): bad parameters: {exc}") from None
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
