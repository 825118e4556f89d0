"""Languages as data records (`lexicons/languages/*.toml`): no code branches on a language.

A record holds the letter policy the pipeline stages take their defaults from
(alphabet, folding, capitalisation, vowels, word lengths), what a bare `q`
means, which recipes build its lexicons, and whether boards come from a sourced
dice set or from a letter distribution derived from the built lexicon.
"""

from __future__ import annotations

import os
import unicodedata

from .. import jsontext
from ..board.board import display_face
from ..board.dice import DiceSet, get_dice
from ..digest import sha256_hex
from ..errors import BoardError, BoggleI18nError, LanguageError
from ..folders import data_folder, listed, stem
from ..limits import clip
from ..memo import cache
from ..pipeline.policies import CASE_POLICIES
from ..record import dataclass, field
from ..spelling import Spelling, is_unit, order_marks, spelling
from ..toml_cache import TomlError, read_toml

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

STATUSES = ("stable", "beta")
BOARD_SOURCES = ("dice", "distribution")
DIRECTIONS = ("ltr", "rtl")


@dataclass(frozen=True)
class Language:
    """What the toolkit knows of one language.

    `lexicon` names the recipe built for it by default, `lexicons` every shipped
    recipe for it; `dice` lists dice-set ids by preference, and a board takes the
    first one of its size; `boards` says whether boards come from those dice or
    (no sourced dice set exists) from the lexicon's letter distribution;
    `min_length` and `scoring` apply to sizes that no dice set has.
    """

    code: str
    name: str
    vowels: str
    dice: tuple[str, ...]
    min_length: int
    scoring: str
    lexicon: str | None = None
    lexicons: tuple[str, ...] = ()
    alphabet: str = ""
    fold: Mapping[str, str] = field(default_factory=dict)
    case: str = "lower"
    max_length: int | None = None
    bare_q: str | None = None
    boards: str = "dice"
    status: str = "stable"
    status_reason: str = ""
    wordfreq: str | None = None  # the language's code in wordfreq, the frequency source (None: not covered)
    script: str = "Latin"  # the Unicode script of its alphabet (what `languages` shows)
    direction: str = "ltr"  # "rtl": stored and solved in logical order, shown right to left
    units: tuple[str, ...] = ()  # multi-letter letters, one face each (Welsh ll): see boggle_i18n/spelling.py
    apart: tuple[str, ...] = ()  # spellings where such letters are two (Welsh dan|gos)
    lower: Mapping[str, str] = field(default_factory=dict)  # lower case unlike Unicode's default (Turkish I -> ı)
    finals: Mapping[str, str] = field(default_factory=dict)  # shown at a word's end (Hebrew מ -> ם, Greek σ -> ς)
    compose: str = ""  # how stored letters combine when shown: "hangul" (keystroke jamo -> syllable blocks)
    mark_order: str = ""  # the order a run of combining marks is written in (Thai: vowel sign, then tone mark)

    def display(self, word: str) -> str:
        """A word as a reader writes it: its last letter in final form (the lexicon keeps one face per letter),
        Korean keys composed into syllable blocks (boggle_i18n/hangul.py)."""
        if self.compose == "hangul":
            from ..hangul import compose

            word = compose(word)
        last = self.finals.get(word[-1:]) if word else None
        return word[:-1] + last if last else word

    def display_face(self, face: str) -> str:
        """A face as printed on a die, capitalised by the language's own case pairs (Turkish `i` -> `İ`, `ı` -> `I`)."""
        upper = next((u for u, low in self.lower.items() if low == face[:1] and len(u) == 1), None) if face else None
        return upper + face[1:] if upper else display_face(face)

    @property
    def spelling(self) -> Spelling:
        """How this language's words split into letters (the one rule, boggle_i18n/spelling.py)."""
        return spelling(self.units, self.apart)

    @property
    def policy_sha256(self) -> str:
        """Hash of the letter policy a build takes from this record (the stages' defaults and the spelling).

        A lexicon records it, so editing a record's letters (a new unit, a fold, the alphabet) marks
        the lexicons built under the old policy stale, as editing their recipe does.
        """
        policy = {
            "alphabet": self.alphabet,
            "units": list(self.units),
            "apart": list(self.apart),
            "fold": dict(sorted(self.fold.items())),
            "lower": dict(sorted(self.lower.items())),
            "case": self.case,
            "vowels": self.vowels,
            "dice": list(self.dice),
            "min_length": self.min_length,
            "max_length": self.max_length,
            "wordfreq": self.wordfreq,
        }
        if self.mark_order:  # only records that set it: every other lexicon's policy hash stays as it was
            policy["mark_order"] = self.mark_order
        canon = jsontext.dumps(policy, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return sha256_hex(canon.encode("utf-8"))

    def dice_for(self, rows: int, cols: int) -> DiceSet | None:
        """The preferred dice set of this size, if the language has one."""
        for dice_id in self.dice:
            ds = get_dice(dice_id)
            if (ds.rows, ds.cols) == (rows, cols):
                return ds
        return None

    def check_faces(self, faces: Iterable[str]) -> None:
        """Refuse a board face with a letter outside this language's alphabet, naming it (the one rule).

        Such a face could never be part of a word, so playing it as a dead cell
        would silently give a lower score; `solve`, `score` and the Python API all
        refuse it the same way. A language without a declared alphabet accepts any letter.
        """
        if not self.alphabet:
            return
        letters = set(self.alphabet)
        for face in faces:
            if face and face not in self.units and not set(face) <= letters:  # Breton [c'h] is a unit
                outside = "".join(sorted(set(face) - letters))
                raise BoardError(
                    f"face {clip(face, 20)!r} has {'a letter' if len(outside) == 1 else 'letters'} outside the "
                    f"{self.code} alphabet ({clip(outside, 20)}): {self.alphabet}",
                    code="board.outside_alphabet",
                    params={
                        "face": clip(face, 20),
                        "letters": clip(outside, 20),
                        "count": len(outside),
                        "lang": self.code,
                        "alphabet": self.alphabet,
                    },
                )

    def fold_faces(
        self,
        faces: Iterable[str],
        stages: Sequence[tuple[str, dict[str, Any]]] | Callable[[], Sequence[tuple[str, dict[str, Any]]] | None] | None,
    ) -> tuple[str, ...]:
        """The faces as the lexicon spells them: a face outside the alphabet goes through the rewriting
        `stages` of the lexicon's recipe (pipeline/typed.py: the walk `lookup` takes), so `ς` is `σ` and
        `أ` is `ا`; a face still outside the alphabet is refused as `check_faces` refuses it, and so is one
        the stages would transliterate into another script (Cyrillic `к` on an English board is no `k`).

        Faces already in the alphabet are returned as they are, so a plain board never builds a stage;
        `stages` may be a function giving them, called only for a face outside the alphabet.
        """
        out = tuple(faces)
        if self.mark_order:  # two marks on one face in the written order (spelling.order_marks), as a word's
            out = tuple(order_marks(face, self.mark_order) for face in out)
        try:
            self.check_faces(out)
            return out
        except BoardError:
            if callable(stages):
                stages = stages()
            if not stages:
                raise
        fold = _face_fold(self, tuple((name, jsontext.dumps(params, sort_keys=True)) for name, params in stages))
        folded = []
        for face in out:
            try:
                self.check_faces((face,))
            except BoardError:
                again = fold(face)
                if not again or again == face or not _scripts(again) <= _scripts(face):
                    raise  # folded to nothing, or transliterated (Cyrillic к -> Latin k): a letter of another script
                try:
                    self.check_faces((again,))
                except BoardError:
                    self.check_faces((face,))  # the face as typed is what the player reads in the error
                face = again
            folded.append(face)
        return tuple(folded)

    def stage_context(self, base_dir: Any) -> Any:
        """The pipeline stages' defaults (a `StageContext`): this record's letter policy."""
        from ..pipeline.stages import StageContext  # the pipeline: only for a build, a lookup or a folded face

        return StageContext(
            vowels=self.vowels,
            language_dice=self.dice,
            base_dir=base_dir,
            alphabet=self.alphabet,
            fold=dict(self.fold),
            case=self.case,
            min_length=self.min_length,
            max_length=self.max_length,
            wordfreq=self.wordfreq,
            spelling=self.spelling,
            lower=dict(self.lower),
            mark_order=self.mark_order,
        )

    @property
    def shorthands(self) -> dict[str, str]:
        """Letters typed for a longer face (English `q` = `qu`): the record's `bare_q`, else the main dice set."""
        if self.bare_q is not None:
            return {"q": "qu"} if self.bare_q == "qu" else {}
        return get_dice(self.dice[0]).shorthands if self.dice else {}


def _scripts(text: str) -> set[str]:
    """The scripts of the letters of `text` (the first word of each letter's Unicode name: LATIN, GREEK ...)."""
    import unicodedata

    return {unicodedata.name(ch, "?").split()[0] for ch in text if ch.isalpha()}


_FOLDS: dict[tuple[str, str, tuple[tuple[str, str], ...]], Callable[[str], str]] = {}


def _face_fold(language: Language, stages: tuple[tuple[str, str], ...]) -> Callable[[str], str]:
    """The `FaceFold` of a recipe's stages (parameters as JSON text) under `language`'s policy, built once."""
    key = (language.code, language.policy_sha256, stages)
    fold = _FOLDS.get(key)
    if fold is None:
        from ..pipeline.typed import FaceFold
        from ..resources import data_dir

        specs = [(name, jsontext.loads(params)) for name, params in stages]
        fold = FaceFold(specs, language.stage_context(data_dir("pipelines")))
        if len(_FOLDS) > 64:
            _FOLDS.clear()
        _FOLDS[key] = fold
    return fold


_TYPES: dict[str, tuple[type, ...]] = {
    "code": (str,),
    "name": (str,),
    "vowels": (str,),
    "dice": (list,),
    "min_length": (int,),
    "scoring": (str,),
    "lexicon": (str,),
    "lexicons": (list,),
    "alphabet": (str,),
    "fold": (dict,),
    "case": (str,),
    "max_length": (int,),
    "bare_q": (str,),
    "boards": (str,),
    "status": (str,),
    "status_reason": (str,),
    "wordfreq": (str,),
    "script": (str,),
    "direction": (str,),
    "units": (list,),
    "apart": (list,),
    "lower": (dict,),
    "finals": (dict,),
    "compose": (str,),
    "mark_order": (str,),
}
_REQUIRED = ("code", "name", "vowels", "min_length", "scoring")
_CHOICES = {
    "case": CASE_POLICIES,
    "boards": BOARD_SOURCES,
    "status": STATUSES,
    "bare_q": ("q", "qu"),
    "direction": DIRECTIONS,
    "compose": ("hangul",),
}


def _check(raw: dict[str, Any], where: str | os.PathLike[str]) -> None:
    """One line naming the file and the field for any malformed record."""
    for key in _REQUIRED:
        if key not in raw:
            raise LanguageError(f"language record {where}: missing {key!r}")
    for key, value in raw.items():
        if key not in _TYPES:
            raise LanguageError(f"language record {where}: unknown field {key!r}")
        if not isinstance(value, _TYPES[key]) or isinstance(value, bool):
            raise LanguageError(f"language record {where}: {key} = {value!r} has the wrong type")
        if key in _CHOICES and value not in _CHOICES[key]:
            raise LanguageError(f"language record {where}: {key} must be one of {', '.join(_CHOICES[key])}")
    if raw["code"] != stem(where):  # a language is found by its file's name
        raise LanguageError(f"language record {where}: code {clip(raw['code'], 20)!r} is not its file's name")
    for key in ("dice", "lexicons"):
        if not all(isinstance(v, str) and v for v in raw.get(key, [])):
            raise LanguageError(f"language record {where}: {key} must be a list of names")
    if raw.get("min_length", 1) < 1 or (raw.get("max_length") is not None and raw["max_length"] < 1):
        raise LanguageError(f"language record {where}: min_length and max_length must be at least 1")
    if not all(isinstance(v, str) and len(k) == 1 for k, v in raw.get("fold", {}).items()):
        raise LanguageError(f"language record {where}: fold must map single characters to strings")
    for key in ("lower", "finals"):
        if not all(isinstance(v, str) and len(k) == 1 for k, v in raw.get(key, {}).items()):
            raise LanguageError(f"language record {where}: {key} must map single characters to strings")
    if not all(isinstance(a, str) for a in raw.get("apart", [])):
        raise LanguageError(f"language record {where}: apart must be a list of strings (dan|gos)")
    for unit in raw.get("units", []):
        # A unit may hold letters its alphabet leaves out: Breton writes c only inside ch and c'h.
        if not isinstance(unit, str) or not is_unit(unit):
            raise LanguageError(
                f"language record {where}: unit {unit!r} is not two or more letters (an apostrophe may stand "
                "between them: c'h)"
            )
    try:
        spelling(tuple(raw.get("units", [])), tuple(raw.get("apart", [])))
    except BoggleI18nError as exc:  # a malformed `apart` entry: one line naming the file
        raise LanguageError(f"language record {where}: {exc}") from None
    order = raw.get("mark_order", "")
    if any(not unicodedata.category(ch).startswith("M") for ch in order) or len(set(order)) != len(order):
        raise LanguageError(f"language record {where}: mark_order must list combining marks, each once")
    if raw.get("boards", "dice") == "dice" and not raw.get("dice"):
        raise LanguageError(f"language record {where}: boards = 'dice' needs a `dice` list")
    if raw.get("status") == "beta" and not raw.get("status_reason"):
        raise LanguageError(f"language record {where}: a beta language needs a `status_reason`")


def _load(path: str | os.PathLike[str]) -> Language:
    try:
        raw = read_toml(path)
    except TomlError as exc:
        raise LanguageError(f"language record {path} is not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise LanguageError(f"language record {path} is not UTF-8") from None
    except RecursionError:
        raise LanguageError(f"language record {path} is nested too deeply") from None
    except OSError as exc:
        raise LanguageError(f"cannot read language record {path}: {exc.strerror or exc}") from None
    _check(raw, path)
    lexicon = raw.get("lexicon")
    return Language(
        code=raw["code"],
        name=raw["name"],
        vowels=raw["vowels"],
        dice=tuple(raw.get("dice", ())),
        min_length=int(raw["min_length"]),
        scoring=raw["scoring"],
        lexicon=lexicon,
        lexicons=tuple(raw.get("lexicons", [lexicon] if lexicon else [])),
        alphabet=raw.get("alphabet", ""),
        fold=dict(raw.get("fold", {})),
        case=raw.get("case", "lower"),
        max_length=raw.get("max_length"),
        bare_q=raw.get("bare_q"),
        boards=raw.get("boards", "dice"),
        status=raw.get("status", "stable"),
        status_reason=raw.get("status_reason", ""),
        wordfreq=raw.get("wordfreq"),
        script=raw.get("script", "Latin"),
        direction=raw.get("direction", "ltr"),
        units=tuple(raw.get("units", ())),
        apart=tuple(raw.get("apart", ())),
        lower=dict(raw.get("lower", {})),
        finals=dict(raw.get("finals", {})),
        compose=raw.get("compose", ""),
        mark_order=raw.get("mark_order", ""),
    )


@cache
def _record_files(folder: str) -> dict[str, str]:
    """The record files in `folder` by code (a record's code is its file name): listed, not yet read."""
    return listed(folder, ".toml")


@cache
def _record(path: str | os.PathLike[str]) -> Language:
    """One record, read and checked once per process."""
    return _load(path)


def _shipped() -> dict[str, str]:
    return _record_files(os.path.join(data_folder("lexicons"), "languages"))


@cache
def languages() -> dict[str, Language]:
    """All shipped languages by code."""
    return {code: _record(path) for code, path in _shipped().items()}


def get_language(code: str) -> Language:
    """A language by code, with a clear error listing the known codes.

    Only that language's record is read: one command plays one language, and reading all of them
    would cost a cold `solve` about 15 ms.
    """
    files = _shipped()
    path = files.get(code.strip().lower())  # names are case-insensitive: --lang NL
    if path is None:
        known = ", ".join(sorted(files))  # 52 codes: the name is cut shorter, so the line stays under 300
        raise LanguageError(
            f"unknown language {clip(code, 20)!r} (known: {known})",
            code="language.unknown",
            params={"lang": clip(code, 20)},
        )
    return _record(path)
