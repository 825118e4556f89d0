"""Run a recipe's stages in order and report what each one kept, dropped and changed."""

from __future__ import annotations

import inspect
import itertools
import operator
import signal
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin, get_type_hints

from ..errors import RecipeError
from ..limits import clip
from .stages import STAGES, StageContext, StageFn, read_list

EXAMPLES = 3
CHUNK = 4096  # entries per batch through the stages
# A regex stage may spend this much CPU time on one chunk (a normal chunk takes a few milliseconds):
# a recipe's pattern that backtracks catastrophically (`^(a+)+$` against `aaaa...a!`) stops the build
# with one error naming the stage and pattern, instead of hanging it.
PATTERN_CPU_SECONDS = 2.0
REGEX_STAGES = frozenset({"regex-keep", "regex-drop", "regex-replace"})


class _PatternTimeout(Exception):
    """Raised by the CPU timer inside a regex stage that ran over its budget."""


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise `_PatternTimeout` if the block uses more than `seconds` of CPU time (main thread only).

    Python's `re` checks for signals while it backtracks, so the timer's handler
    interrupts even a pattern stuck on one entry; Ctrl-C does too. Off the main
    thread (no signals there) the block runs without a limit.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _PatternTimeout

    previous = signal.signal(signal.SIGVTALRM, expire)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


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
    allowed: tuple[str, ...] | None = None  # with an allowlist: the entries it saved from this stage

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as written into the manifest (`allowed` only for a stage with an allowlist)."""
        extra = {} if self.allowed is None else {"allowed": list(self.allowed)}
        return {
            "stage": self.stage,
            "params": self.params,
            "in": self.entries_in,
            "kept": self.kept,
            "dropped": self.dropped,
            "changed": self.changed,
            "examples": list(self.examples),
            **extra,
        }


def _fits(value: Any, hint: Any) -> bool:
    """Whether a TOML value suits a stage parameter's annotation (plain types, unions, containers)."""
    if hint is Any:
        return True
    if isinstance(hint, types.UnionType) or get_origin(hint) is Union:
        return any(_fits(value, h) for h in get_args(hint))
    if hint is type(None):
        return value is None
    origin = get_origin(hint) or hint
    if origin in (Iterable, list):
        args = get_args(hint)
        return isinstance(value, (list, tuple)) and all(_fits(v, args[0]) for v in value) if args else True
    if origin is dict:
        args = get_args(hint)
        return isinstance(value, dict) and all(_fits(k, args[0]) and _fits(v, args[1]) for k, v in value.items())
    if origin is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, origin)


def _hint_name(hint: Any) -> str:
    text = str(hint).replace("typing.", "").replace("collections.abc.", "")
    return getattr(hint, "__name__", text) if isinstance(hint, type) else text


def check_stage(index: int, name: str, params: dict[str, Any]) -> None:
    """Refuse an unknown stage, an unknown or missing field, or a field of the wrong type, before any work.

    The message names the stage's number and name and the field:
    `stage 3 (length): bad parameters: field 'min' must be int, not '3'`.
    """
    factory = STAGES.get(name)
    if factory is None:
        known = ", ".join(sorted(STAGES))
        raise RecipeError(f"stage {index}: unknown stage {name!r} (known: {known})")
    signature = inspect.signature(factory)
    fields = {p.name: p for p in list(signature.parameters.values())[1:]}  # the first is the context
    hints = get_type_hints(factory)
    hints.update({"allow": list[str], "allow_file": str})
    prefix = f"stage {index} ({name}): bad parameters"
    for key, value in params.items():
        if key not in fields and key not in ALLOW_KEYS:
            known = ", ".join([*fields, *ALLOW_KEYS])
            raise RecipeError(f"{prefix}: unknown field {key!r} (known: {known})")
        if key in hints and not _fits(value, hints[key]):
            raise RecipeError(f"{prefix}: field {key!r} must be {_hint_name(hints[key])}, not {value!r}")
    for key, param in fields.items():
        if param.default is inspect.Parameter.empty and key not in params:
            raise RecipeError(f"{prefix}: missing field {key!r}")


ALLOW_KEYS = ("allow", "allow_file")


def _allowlist(params: dict[str, Any], ctx: StageContext) -> tuple[dict[str, Any], frozenset[str]]:
    """Split off a stage's `allow` / `allow_file`: entries this stage must not drop."""
    rest = {k: v for k, v in params.items() if k not in ALLOW_KEYS}
    allowed = list(params.get("allow", ()))
    if params.get("allow_file"):
        allowed += read_list(ctx.base_dir, params["allow_file"], "allowlist")
    return rest, frozenset(allowed)


class _Allowlisted:
    """A stage whose allowlisted entries pass unchanged (`ooi` survives require-consonant).

    It records the entries the allowlist actually saved (the stage would have
    dropped them), so the report shows what the list is worth.
    """

    def __init__(self, fn: StageFn, allowed: frozenset[str]) -> None:
        self.fn, self.allowed, self.saved = fn, allowed, dict[str, None]()

    def __call__(self, entry: str) -> str | None:
        if entry in self.allowed:
            if self.fn(entry) is None:
                self.saved[entry] = None
            return entry
        return self.fn(entry)


def build_stages(specs: Sequence[tuple[str, dict[str, Any]]], ctx: StageContext) -> list[StageFn]:
    """Instantiate every stage up front, so a bad recipe fails before any work is done."""
    fns = []
    for i, (name, params) in enumerate(specs, 1):
        check_stage(i, name, params)
        try:
            rest, allowed = _allowlist(params, ctx)
            fn = STAGES[name](ctx, **rest)
            fns.append(_Allowlisted(fn, allowed) if allowed else fn)
        except (TypeError, ValueError) as exc:
            raise RecipeError(f"stage {i} ({name}): bad parameters: {exc}") from None
        except RecipeError as exc:
            raise RecipeError(f"stage {i} ({name}): {exc}") from None
    return fns


class _Tally:
    """One stage's counts and first examples, gathered entry by entry."""

    __slots__ = ("changed", "changes", "dropped", "drops", "entries_in")

    def __init__(self) -> None:
        self.entries_in = self.dropped = self.changed = 0
        self.drops: list[str] = []
        self.changes: list[str] = []

    def apply(self, fn: StageFn, chunk: list[str]) -> list[str]:
        """Run one stage over a chunk of entries, counting what it dropped and changed."""
        out = list(map(fn, chunk))
        self.entries_in += len(chunk)
        dropped = out.count(None)
        differ = sum(map(operator.ne, chunk, out))  # drops (None) count here too
        if dropped:
            self.dropped += dropped
            if len(self.drops) < EXAMPLES:
                self.drops += [e for e, o in zip(chunk, out, strict=True) if o is None][: EXAMPLES - len(self.drops)]
            kept = [o for o in out if o is not None]
        else:
            kept = out  # type: ignore[assignment]
        if differ > dropped:
            self.changed += differ - dropped
            if len(self.changes) < EXAMPLES:
                pairs = [f"{e} -> {o}" for e, o in zip(chunk, out, strict=True) if o is not None and o != e]
                self.changes += pairs[: EXAMPLES - len(self.changes)]
        return kept

    def report(self, name: str, params: dict[str, Any], allowed: tuple[str, ...] | None = None) -> StageReport:
        examples = self.drops if self.dropped else self.changes
        return StageReport(
            stage=name,
            params=params,
            entries_in=self.entries_in,
            kept=self.entries_in - self.dropped,
            dropped=self.dropped,
            changed=self.changed,
            examples=tuple(examples),
            allowed=allowed,
        )


def _chunks(entries: Iterable[str], size: int) -> Iterator[list[str]]:
    """Entries in lists of `size`: each stage runs over a chunk at C speed (map), memory stays bounded."""
    iterator = iter(entries)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


class StageRun:
    """A recipe's stages applied to a stream of entries, counting as it goes.

    `run.words(entries)` yields the survivors one by one; once it is exhausted,
    `run.reports()` gives one report per stage. Only the stages' own state
    (a dedupe table) is held, never the list.
    """

    def __init__(self, specs: Sequence[tuple[str, dict[str, Any]]], ctx: StageContext) -> None:
        self.specs = list(specs)
        self._fns: list[StageFn] | None = build_stages(self.specs, ctx)
        self._tallies = [_Tally() for _ in self.specs]
        self._saved: list[tuple[str, ...] | None] = [None] * len(self.specs)

    def words(self, entries: Iterable[str]) -> Iterator[str]:
        """The entries that pass every stage, in order."""
        fns = self._fns
        if fns is None:
            raise RuntimeError("a StageRun streams once")
        steps = list(zip(fns, self._tallies, self.specs, range(1, len(fns) + 1), strict=True))
        for chunk in _chunks(entries, CHUNK):
            for fn, tally, (name, params), number in steps:
                if name in REGEX_STAGES:
                    chunk = self._limited(fn, tally, chunk, number, name, params)
                else:
                    chunk = tally.apply(fn, chunk)
                if not chunk:
                    break
            yield from chunk
        self._saved = [tuple(fn.saved) if isinstance(fn, _Allowlisted) else None for fn in fns]
        self._fns = None  # let go of the stages' state (a dedupe table) before the trie is built
        del steps, fns

    @staticmethod
    def _limited(
        fn: StageFn, tally: _Tally, chunk: list[str], number: int, name: str, params: dict[str, Any]
    ) -> list[str]:
        """A regex stage over one chunk, within its CPU budget (`PATTERN_CPU_SECONDS`)."""
        try:
            with _cpu_limit(PATTERN_CPU_SECONDS):
                return tally.apply(fn, chunk)
        except _PatternTimeout:
            pattern = clip(str(params.get("pattern", "")), 60)
            raise RecipeError(
                f"stage {number} ({name}): pattern {pattern!r} took over {PATTERN_CPU_SECONDS:g} s of CPU on "
                f"{len(chunk):,} entries (normally milliseconds): it backtracks catastrophically on some entry; "
                "simplify it (no nested repeats such as (a+)+)"
            ) from None

    def reports(self) -> list[StageReport]:
        """One report per stage (complete once `words` is exhausted)."""
        return [
            t.report(name, params, saved)
            for (name, params), t, saved in zip(self.specs, self._tallies, self._saved, strict=True)
        ]


def run_stages(
    entries: Iterable[str],
    specs: Sequence[tuple[str, dict[str, Any]]],
    ctx: StageContext,
    progress: Callable[[int, str], None] | None = None,
) -> tuple[list[str], list[StageReport]]:
    """Apply the stages in order; return the surviving entries (as a list) and one report per stage.

    For big lists use `StageRun` directly and consume `words()` as a stream.
    """
    run = StageRun(specs, ctx)
    if progress:
        for i, (name, _) in enumerate(specs):
            progress(i, name)
    words = list(run.words(entries))
    return words, run.reports()
