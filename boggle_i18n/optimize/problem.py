"""What a search needs, in a form that travels to worker processes and cluster machines.

A `Problem` names the lexicon (a stored trie path on this machine, and the trie
bytes when it must travel further), the rules, the board shape and the search
space (a dice set, or free faces with weights). `Problem.prepare()` rebuilds the
scorer and the space wherever it runs, once per process.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board.dice import get_dice
from ..errors import BoggleI18nError
from ..solver.base import Rules

if TYPE_CHECKING:
    from ..lexicon.store import Lexicon
    from ..solver.scorer import Scorer
    from .moves import Space


@dataclass(frozen=True)
class Problem:
    """A lexicon, rules, shape and search space, ready to be sent anywhere."""

    rows: int
    cols: int
    rules: Rules
    lexicon_name: str
    lexicon_path: str | None = None  # a stored trie on this machine
    trie: bytes | None = field(default=None, repr=False)  # the trie itself, for machines without the store
    manifest: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    dice: str | None = None
    faces: tuple[str, ...] = ()
    weights: tuple[float, ...] | None = None
    engine: str = "fast"

    @property
    def key(self) -> str:
        """Identifies the prepared scorer: equal keys can share one."""
        digest = hashlib.sha256(
            repr(
                (
                    self.rows,
                    self.cols,
                    self.rules,
                    self.dice,
                    self.faces,
                    self.weights,
                    self.engine,
                    self.lexicon_path,
                    self.manifest.get("trie_sha256"),
                )
            ).encode()
        )
        if self.trie is not None:
            digest.update(hashlib.sha256(self.trie).digest())
        return digest.hexdigest()

    def portable(self) -> Problem:
        """This problem with the trie bytes included (for machines that do not share this store)."""
        if self.trie is not None:
            return self
        lexicon = self.load_lexicon()
        return replace(self, trie=lexicon._trie.tobytes(), lexicon_path=None)

    def load_lexicon(self) -> Lexicon:
        """The lexicon: from the trie bytes if present, else from the stored path."""
        import marisa_trie

        from ..lexicon.store import Lexicon

        if self.trie is not None:
            trie = marisa_trie.Trie()
            trie.frombytes(self.trie)
            return Lexicon(trie, dict(self.manifest))
        if self.lexicon_path is None:
            raise BoggleI18nError("this problem names no lexicon to load")
        return Lexicon.load(self.lexicon_path)

    def prepare(self, lexicon: Lexicon | None = None) -> tuple[Scorer, Space]:
        """A scorer and search space, memoised per thread: a worker prepares once, and threads sharing a
        process (Dask's threaded workers) never share a scorer, whose scratch arrays are not thread-safe."""
        memo = (self.key, threading.get_ident())
        hit = _PREPARED.get(memo)
        if hit is None:
            from ..solver.scorer import prepare_scorer
            from .moves import DiceSpace, FreeSpace

            scorer = prepare_scorer(lexicon or self.load_lexicon(), self.rules, (self.rows, self.cols), self.engine)
            space: Space
            if self.dice:
                space = DiceSpace(scorer.codec, get_dice(self.dice))
            else:
                space = FreeSpace(scorer.codec, self.rows, self.cols, self.faces, self.weights)
            hit = _PREPARED[memo] = (scorer, space)
        return hit


_PREPARED: dict[tuple[str, int], tuple[Any, Any]] = {}


def make_problem(
    lexicon: Lexicon,
    rules: Rules,
    shape: tuple[int, int],
    *,
    dice: str | None = None,
    faces: tuple[str, ...] | list[str] | None = None,
    weights: tuple[float, ...] | list[float] | None = None,
    engine: str = "fast",
) -> Problem:
    """A Problem for `lexicon`: stored lexicons travel by path, in-memory ones as trie bytes.

    Without `dice` the board is free: `faces` (default: the lexicon's letters) may
    go in any cell, drawn by `weights` (default: the lexicon's letter counts, when
    its manifest has them, else uniform).
    """
    rows, cols = shape
    if rows < 1 or cols < 1:
        raise BoggleI18nError(f"board shape {rows}x{cols} is empty")
    if dice:
        ds = get_dice(dice)
        if (ds.rows, ds.cols) != shape:
            raise BoggleI18nError(f"dice set {dice!r} is {ds.rows}x{ds.cols}, not {rows}x{cols}")
        face_list: tuple[str, ...] = ()
        weight_list: tuple[float, ...] | None = None
    else:
        from ..solver.scorer import lexicon_letters

        face_list = tuple(sorted(set(faces) - {""})) if faces else tuple(lexicon_letters(lexicon))
        if not face_list:
            raise BoggleI18nError("no faces to build free boards from (the lexicon is empty)")
        if weights is not None:
            if faces is None or len(weights) != len(faces):
                raise BoggleI18nError("give one weight per face")
            by_face = dict(zip(faces, weights, strict=True))
            weight_list = tuple(float(by_face[f]) for f in face_list)
        else:
            counts = lexicon.manifest.get("letter_counts") if isinstance(lexicon.manifest, dict) else None
            # A face that is one letter of the lexicon (Welsh `ll`) has its own count; `qu` weighs as `q`.
            weight_list = (
                tuple(float(counts.get(f) or counts.get(f[0]) or 0) for f in face_list)
                if isinstance(counts, dict) and any(counts.get(f, counts.get(f[0])) for f in face_list)
                else None
            )
    path = getattr(lexicon, "path", None)
    name = str(lexicon.manifest.get("name", "custom"))
    if path is not None:
        return Problem(
            rows,
            cols,
            rules,
            name,
            lexicon_path=str(Path(path)),
            manifest=dict(lexicon.manifest),
            dice=dice,
            faces=face_list,
            weights=weight_list,
            engine=engine,
        )
    trie_bytes = lexicon._trie.tobytes()
    return Problem(
        rows,
        cols,
        rules,
        name,
        trie=trie_bytes,
        manifest=dict(lexicon.manifest),
        dice=dice,
        faces=face_list,
        weights=weight_list,
        engine=engine,
    )


def free_faces(lang: str | None, shape: tuple[int, int], lexicon: Lexicon) -> tuple[str, ...]:
    """Faces a free board may use: the faces of the language's dice set of this size (else of its preferred
    set, as `random --letters` draws them), so English gets `qu` rather than a bare `q`; the lexicon's letters
    if the language has no dice."""
    from ..language.records import get_language
    from ..solver.scorer import lexicon_letters

    language = get_language(lang) if lang else None
    if language is not None and language.dice:
        ds = language.dice_for(*shape)
        faces = sorted((ds or get_dice(language.dice[0])).faces - {""})
        if faces:
            return tuple(faces)
    letters = tuple(lexicon_letters(lexicon))
    if language is not None:
        language.check_faces(letters)  # a lexicon of another alphabet: refused, as a board with such a face is
    return letters
