"""Dice sets as data (`lexicons/dice/*.json`), transcribed from published sources."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cache

from ..errors import DiceError
from ..limits import clip
from ..resources import data_dir
from .board import Board


@dataclass(frozen=True)
class DiceSet:
    """One edition's dice: their faces, board size, minimum word length and scoring preset."""

    id: str
    name: str
    language: str
    rows: int
    cols: int
    dice: tuple[tuple[str, ...], ...]
    min_word_length: int
    scoring: str
    status: str
    edition: str = ""
    sources: tuple[str, ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def faces(self) -> frozenset[str]:
        """Every distinct lower-case face on any die (blank `""` included if present)."""
        return frozenset(face.lower() for die in self.dice for face in die)

    @property
    def shorthands(self) -> dict[str, str]:
        """Single letters that stand for a longer face, e.g. `q` -> `qu` on English dice.

        Derived from the faces: a multi-letter face whose first letter never shows
        alone on any die can be typed as that letter.
        """
        faces = self.faces
        out: dict[str, str] = {}
        for face in sorted(faces):
            if len(face) > 1 and face[0] not in faces:
                out.setdefault(face[0], face)
        return out

    def roll(self, rng: random.Random) -> Board:
        """Shake the dice into the grid and turn one face of each up."""
        order = list(self.dice)
        rng.shuffle(order)
        return Board(self.rows, self.cols, tuple(rng.choice(die).lower() for die in order))

    def can_show(self, board: Board) -> bool:
        """Whether one throw of these dice can show `board`: each cell its own die with that face up.

        A bipartite matching of cells to dice (Kuhn's augmenting paths): the check
        that an optimised or shipped board is a real throw.
        """
        if board.size != (self.rows, self.cols):
            return False
        options = [[d for d, die in enumerate(self.dice) if face in {f.lower() for f in die}] for face in board.faces]
        owner: dict[int, int] = {}  # die -> cell

        def place(cell: int, seen: set[int]) -> bool:
            for d in options[cell]:
                if d in seen:
                    continue
                seen.add(d)
                if d not in owner or place(owner[d], seen):
                    owner[d] = cell
                    return True
            return False

        return all(place(cell, set()) for cell in range(len(board.faces)))


def _load(path: str, raw: dict) -> DiceSet:
    try:
        rows, cols = raw["size"]
        dice = tuple(tuple(str(f) for f in die) for die in raw["dice"])
        ds = DiceSet(
            id=raw["id"],
            name=raw["name"],
            language=raw["language"],
            rows=int(rows),
            cols=int(cols),
            dice=dice,
            min_word_length=int(raw["min_word_length"]),
            scoring=raw["scoring"],
            status=raw["status"],
            edition=raw.get("edition", ""),
            sources=tuple(raw.get("sources", ())),
            notes=tuple(raw.get("notes", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DiceError(f"malformed dice file {path}: {exc}") from None
    if len(ds.dice) != ds.rows * ds.cols:
        raise DiceError(f"dice file {path}: {len(ds.dice)} dice for a {ds.rows}x{ds.cols} board")
    return ds


@cache
def dice_sets() -> dict[str, DiceSet]:
    """All shipped dice sets by id."""
    out = {}
    for path in sorted((data_dir("lexicons") / "dice").glob("*.json")):
        with path.open(encoding="utf-8") as handle:
            ds = _load(str(path), json.load(handle))
        out[ds.id] = ds
    return out


def get_dice(dice_id: str) -> DiceSet:
    """A dice set by id, with a clear error listing the known ids."""
    try:
        return dice_sets()[dice_id.strip().lower()]  # case-insensitive, like language codes
    except KeyError:
        known = ", ".join(sorted(dice_sets()))
        raise DiceError(f"unknown dice set {clip(dice_id, 40)!r} (known: {known})") from None
