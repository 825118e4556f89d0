"""Faces as small integers, so batches of boards travel as one `int32[n, cells]` array.

A `FaceCodec` numbers faces (`""` is always 0, the blank) and spells each face
as letter indices of one alphabet (a compiled lexicon's). A letter outside the
alphabet gets `DEAD`, so a face with it starts or extends no word, yet the
board still round-trips. Faces are added on first sight: a codec grows, never
renumbers, so codes handed out stay valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..board.board import Board
from ..errors import BoardError
from ..limits import check_face
from ..spelling import spelling

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from typing import Any

    import numpy as np

DEAD = 255  # letter index that no trie node has a child for


class FaceCodec:
    """Face strings <-> integer codes over a fixed alphabet of letters."""

    def __init__(self, letters: Sequence[str], faces: Iterable[str] = (), max_letters: int | None = 64) -> None:
        self.letters = tuple(letters)
        if max_letters is not None and len(self.letters) > max_letters:
            raise BoardError(f"an alphabet of {len(self.letters)} letters is more than the 64 a fast engine takes")
        self._letter_index = {ch: i for i, ch in enumerate(self.letters)}
        units = [letter for letter in self.letters if len(letter) > 1]  # Welsh ll: one letter, one index
        self._split = spelling(units).split if units else None
        self.faces: list[str] = [""]
        self._index: dict[str, int] = {"": 0}
        self._arrays: tuple[Any, Any] | None = None
        for face in faces:
            self.index(face)

    def index(self, face: str) -> int:
        """The code of `face`, adding it if new."""
        code = self._index.get(face)
        if code is None:
            check_face(face)  # before it is kept: a face too long for the kernels' length byte never enters
            code = len(self.faces)
            self.faces.append(face)
            self._index[face] = code
            self._arrays = None
        return code

    def spell(self, face: str) -> tuple[int, ...]:
        """Letter indices of a face (`DEAD` for letters outside the alphabet); a multi-letter letter of the
        alphabet (`ll`) is one index, split by the one rule of boggle_i18n/spelling.py."""
        letters = self._split(face) if self._split is not None else face
        return tuple(self._letter_index.get(ch, DEAD) for ch in letters)

    def encode(self, board: Board) -> np.ndarray:
        """One board as `int32[cells]`."""
        import numpy as np

        return np.fromiter((self.index(f) for f in board.faces), dtype=np.int32, count=len(board.faces))

    def encode_many(self, boards: Iterable[Board], cells: int) -> np.ndarray:
        """Boards of `cells` cells each as `int32[n, cells]`."""
        import numpy as np

        flat: list[int] = []
        index = self.index
        for board in boards:
            if len(board.faces) != cells:
                raise BoardError(f"board {board.notation()} has {len(board.faces)} cells, this batch has {cells}")
            flat.extend(index(f) for f in board.faces)
        return np.asarray(flat, dtype=np.int32).reshape(-1, cells)

    def decode(self, codes: Sequence[int] | np.ndarray, rows: int, cols: int) -> Board:
        """Codes back to a Board."""
        try:
            faces = tuple(self.faces[int(c)] for c in codes)
        except IndexError:
            raise BoardError(f"face code out of range (this codec knows {len(self.faces)} faces)") from None
        return Board(rows, cols, faces)

    def face_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """`(letters uint8[faces, longest], lengths uint8[faces])`: faces as the kernels read them."""
        if self._arrays is None:
            import numpy as np

            longest = max(1, *(len(f) for f in self.faces))
            letters = np.full((len(self.faces), longest), DEAD, dtype=np.uint8)
            lengths = np.zeros(len(self.faces), dtype=np.uint8)
            for code, face in enumerate(self.faces):
                spelled = self.spell(face)
                letters[code, : len(spelled)] = spelled
                lengths[code] = len(spelled)
            self._arrays = (letters, lengths)
        return self._arrays

    def line_table(self, shorthands: Mapping[str, str]) -> dict[str, int]:
        """Single characters -> codes, for reading plain boards (`perslatgsineters`) without the full parser.

        Upper and lower case both map; a shorthand (`q` -> `qu`) maps to its long face.
        """
        table = {}
        for ch in sorted(set(self.letters) | set(shorthands)):
            code = self.index(shorthands.get(ch, ch))
            table[ch] = code
            if ch.upper() != ch and len(ch.upper()) == 1:
                table[ch.upper()] = code
        return table
