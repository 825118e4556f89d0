"""Dice sets as data (`lexicons/dice/*.json`), transcribed from published sources."""

from __future__ import annotations

import os

from .. import jsontext
from ..errors import DiceError
from ..folders import data_folder, listed, read_regular, stem
from ..limits import MAX_FACE_LETTERS, clip
from ..memo import cache
from ..record import dataclass, field
from .board import Board

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    import random


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
    if not isinstance(raw, dict):
        raise DiceError(f"malformed dice file {path}: not a JSON object")
    for key in ("id", "name", "language", "scoring", "status"):
        if not isinstance(raw.get(key), str):
            raise DiceError(f"malformed dice file {path}: {key!r} must be a string")
    size = raw.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(type(n) is int and 1 <= n <= 64 for n in size)):
        raise DiceError(f"malformed dice file {path}: 'size' must be [rows, cols], each 1..64")
    if type(raw.get("min_word_length")) is not int or raw["min_word_length"] < 1:
        raise DiceError(f"malformed dice file {path}: 'min_word_length' must be a whole number from 1")
    dice_raw = raw.get("dice")
    if not isinstance(dice_raw, list) or not all(
        isinstance(die, list) and die and all(isinstance(f, str) for f in die) for die in dice_raw
    ):
        raise DiceError(f"malformed dice file {path}: 'dice' must be a list of dice, each a list of faces")
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
    long = next((f for die in ds.dice for f in die if len(f) > MAX_FACE_LETTERS), None)
    if long is not None:  # the kernels keep a face's length in a byte (limits.py face_letters)
        raise DiceError(
            f"malformed dice file {path}: face {clip(long, 40)!r} has {len(long):,} letters, "
            f"more than the {MAX_FACE_LETTERS} a face may hold"
        )
    return ds


@cache
def _dice_files(folder: str) -> dict[str, str]:
    """The dice files in `folder` by id (a dice set's id is its file name): listed, not yet read."""
    return listed(folder, ".json")


@cache
def _dice_set(path: str | os.PathLike[str]) -> DiceSet:
    """One dice file, read and checked once per process."""
    try:
        raw = jsontext.loads(read_regular(path))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise DiceError(f"malformed dice file {path}: not valid JSON (UTF-8)") from None
    except OSError as exc:
        raise DiceError(f"cannot read dice file {path}: {exc.strerror or exc}") from None
    ds = _load(str(path), raw)
    if ds.id != stem(path):  # a dice set is found by its file's name
        raise DiceError(f"malformed dice file {path}: id {clip(ds.id, 40)!r} is not its file's name")
    return ds


def _shipped() -> dict[str, str]:
    return _dice_files(os.path.join(data_folder("lexicons"), "dice"))


@cache
def dice_sets() -> dict[str, DiceSet]:
    """All shipped dice sets by id."""
    return {dice_id: _dice_set(path) for dice_id, path in _shipped().items()}


def get_dice(dice_id: str) -> DiceSet:
    """A dice set by id, with a clear error listing the known ids; only that set's file is read."""
    files = _shipped()
    path = files.get(dice_id.strip().lower())  # case-insensitive, like language codes
    if path is None:
        known = ", ".join(sorted(files))
        raise DiceError(
            f"unknown dice set {clip(dice_id, 40)!r} (known: {known})",
            code="dice.unknown",
            params={"dice": clip(dice_id, 40)},
        )
    return _dice_set(path)
