"""Text as a player types it, made into the letters a lexicon holds: one walk through a recipe's stages.

`lookup` sends a typed word through every stage of its lexicon's recipe (`trace`), so `λόγος`
becomes `λογοσ` exactly as the build made it. A board face takes the same walk (`FaceFold`)
with one difference: only the stages that rewrite text run (`REWRITING`: normalisation, case,
folding, replacements); a filter (length, vowel, alphabet, blocklist, frequency) judges words,
and a single face is no word to judge. For a word that no stage drops the two walks give the
same text, so a board accepts `ς`, `ά` (Greek), `ם` (Hebrew), `أ`, `ؤ` (Arabic) as the letters
`lookup` folds them to, and the rule lives in the recipe and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` reads the same: mypy takes this name as True
if TYPE_CHECKING:
    from .stages import StageContext, StageFn

Specs = Sequence[tuple[str, dict[str, Any]]]

# Stages that rewrite an entry (the rest keep or drop it). `case` both: a policy that drops capitals
# drops no lower-case face, and a face is lower case by the time it is folded (board/notation.py).
REWRITING = frozenset(
    {"strip", "normalize", "order-marks", "lowercase", "case", "fold-accents", "fold-marks", "regex-replace"}
)


def trace(specs: Specs, fns: Sequence[StageFn], entry: str) -> tuple[str, int]:
    """`entry` through every stage: (what it becomes, 0), or (the entry as the stage that dropped it saw it,
    that stage's 1-based number).

    A stateful stage (dedupe) is passed over: it drops only repeats, never a word on its own.
    """
    from .stages import STATEFUL

    for i, ((name, _params), fn) in enumerate(zip(specs, fns, strict=True), 1):
        if name in STATEFUL:
            continue
        out = fn(entry)
        if out is None:
            return entry, i
        entry = out
    return entry, 0


class FaceFold:
    """A recipe's rewriting stages, built once: `fold(face)` is the face as the lexicon spells it."""

    def __init__(self, specs: Specs, ctx: StageContext) -> None:
        from .runner import build_stages  # the stages' registry: only when a face or a word is folded

        rewriting = [(name, params) for name, params in specs if name in REWRITING]
        self._fns = build_stages(rewriting, ctx)

    def __call__(self, face: str) -> str:
        for fn in self._fns:
            out = fn(face)
            if out is not None:  # `case = "drop-capitalised"` drops a capital: a face stays as typed
                face = out
        return face


def manifest_stages(manifest: Any) -> Specs | None:
    """The stages a built lexicon's manifest records (its merged recipe), or None when it records none
    (a lexicon made in memory from words)."""
    raw = manifest.get("recipe") if isinstance(manifest, dict) else None
    stages = raw.get("stages") if isinstance(raw, dict) else None
    if not isinstance(stages, list):
        return None
    if not all(isinstance(st, dict) and isinstance(st.get("stage"), str) for st in stages):
        return None
    return [(st["stage"], {k: v for k, v in st.items() if k != "stage"}) for st in stages]


def lexicon_stages(name: str, manifest_path: str) -> Specs | None:
    """The stages lexicon `name` was built with (its manifest at `manifest_path`), else those its recipe
    will build it with: a board is read before its lexicon is loaded, or built."""
    from .. import jsontext
    from ..errors import BoggleI18nError

    try:
        with open(manifest_path, encoding="utf-8") as handle:
            found = manifest_stages(jsontext.loads(handle.read()))
        if found is not None:
            return found
    except (OSError, ValueError):
        pass
    from .recipe import load_recipe

    try:
        return list(load_recipe(name).stages)
    except BoggleI18nError:
        return None  # no recipe of that name (a trie given by path): the faces are checked as typed
