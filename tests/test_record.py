"""`boggle_i18n.record` makes classes that behave as the frozen dataclasses mypy sees them as.

Each class made by `record.dataclass` is compared with a real `dataclasses.dataclass(frozen=True)`
made from the same class body (its methods, annotations and field options): construction by
keyword and by position, defaults and factories, the errors of a wrong call, `==`, `hash`,
`repr`, refused assignment and deletion, `replace`, `__match_args__`, the class attributes
defaults leave, and a pickle round trip.
"""

from __future__ import annotations

import dataclasses
import importlib
import pickle
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import boggle_i18n
from boggle_i18n import record
from boggle_i18n.api import RolledBoard
from boggle_i18n.board.notation import parse_board
from boggle_i18n.judging import JudgedWord, Judgement, PlayerResult
from boggle_i18n.language.selection import select
from boggle_i18n.lexicon.store import StoreEntry
from boggle_i18n.limits import LIMITS
from boggle_i18n.scoring import get_scoring
from boggle_i18n.solver.base import FoundWord, SolveResult
from boggle_i18n.spelling import spelling
from boggle_i18n.userwords import Change

PACKAGE = Path(boggle_i18n.__file__).parent
RECORD_FILE = Path(record.__file__).resolve()
_GENERATED = {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"}


def record_classes() -> set[type]:
    """Every class in the package made by `record.dataclass` (its modules found by their import of it)."""
    found: set[type] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if not re.search(r"^from \.+record import", path.read_text(encoding="utf-8"), re.M):
            continue
        module = importlib.import_module(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        found |= {v for v in vars(module).values() if isinstance(v, type) and "__record_fields__" in vars(v)}
    return found


def samples() -> list[Any]:
    """One or more real instances of each record class, from the library's own functions."""
    chosen = select(lang="en")
    board = parse_board("qu.b/cdef/ghij/klmn", {})
    words = (FoundWord("qua", 2, ((0, 0), (1, 0))), FoundWord("ll", 1, ((0, 1),), letters=1))
    judged = (
        JudgedWord("Qua", "qua", 2, "scored", "2 points", (), (0, 4)),
        JudgedWord("qua", "qua", 0, "shared", "also found by Bob: struck", ("Bob",), None, None),
        JudgedWord("xq", None, 0, "not-a-word", "not in the source", category="not-in-source"),
    )
    return [
        chosen,
        chosen.language,
        chosen.dice,
        chosen.rules,
        chosen.rules.scoring,
        get_scoring("superbig-6x6"),
        get_scoring("superbig-6x6").beyond,
        LIMITS["min_length"],
        spelling(("ll", "c'h"), ("dan|gos",)),
        spelling((), ()),
        board,
        *words,
        SolveResult(board, "en-x", chosen.rules, words, 12, 0.25, "reference", {"sha256": "ab"}),
        SolveResult(board, "en-x", chosen.rules, (), 0, 0.0, "reference"),
        StoreEntry("en", Path("/store/en.json"), {"name": "en"}),
        StoreEntry("xx", Path("/store/xx.json"), None, "broken"),
        RolledBoard(board, 5, "en", "en-new-4x4"),
        RolledBoard(board, 5, "en", None, "uniform", "en-enable2k"),
        *judged,
        PlayerResult("Ann", judged, 2),
        PlayerResult("Bob", (), 0),
        Judgement((PlayerResult("Ann", judged, 2),), words, True, board, "en-x", chosen.rules, "en", None),
        Judgement((), (), False),
        Change("Qua", "qua", "en-x", "removed", "/store/user-lists/en-x.blocked.txt"),
    ]


def twin(cls: type) -> type:
    """A real frozen dataclass from `cls`'s body: its own methods and attributes, its field options."""
    namespace: dict[str, Any] = {}
    for name, value in vars(cls).items():
        code = getattr(value, "__code__", None)
        made_here = code is not None and (code.co_filename == "<string>" or Path(code.co_filename) == RECORD_FILE)
        if name in ("__dict__", "__weakref__", "__record_fields__", "__match_args__") or (
            name in _GENERATED and made_here
        ):
            continue
        namespace[name] = value
    for name, spec in cls.__record_fields__.items():  # type: ignore[attr-defined]
        options = {"init": spec.init, "repr": spec.repr, "compare": spec.compare}
        if spec.default_factory is not record._MISSING:  # type: ignore[attr-defined]
            options["default_factory"] = spec.default_factory
        elif spec.default is not record._MISSING:  # type: ignore[attr-defined]
            options["default"] = spec.default
        namespace[name] = dataclasses.field(**options)  # type: ignore[call-overload]
    return dataclasses.dataclass(frozen=True)(type(cls.__name__, cls.__bases__, namespace))


def outcome(call: Any) -> tuple[str, Any]:
    """What a call gives: ('ok', repr of the value) or (exception class name, message)."""
    try:
        return "ok", repr(call())
    except Exception as exc:  # the two sides must fail alike
        return type(exc).__name__, str(exc)


def test_every_record_class_has_samples() -> None:
    assert record_classes() == {type(sample) for sample in samples()}


@pytest.mark.parametrize("sample", samples(), ids=lambda s: type(s).__name__)
def test_record_behaves_as_its_dataclass(sample: Any) -> None:
    cls = type(sample)
    real = twin(cls)
    fields = cls.__record_fields__
    init = [name for name, spec in fields.items() if spec.init]
    kwargs = {name: getattr(sample, name) for name in init}
    ours, theirs = cls(**kwargs), real(**kwargs)
    assert repr(ours) == repr(theirs) == repr(sample)
    assert outcome(lambda: hash(ours)) == outcome(lambda: hash(theirs))
    assert ours == sample and ours == cls(**kwargs) and not ours != sample
    assert theirs == real(**kwargs)
    assert ours != theirs and ours != object() and ours.__eq__(object()) is theirs.__eq__(object()) is NotImplemented
    assert repr(cls(*kwargs.values())) == repr(real(*kwargs.values()))
    required = {name: value for name, value in kwargs.items() if not _has_default(fields[name])}
    assert outcome(lambda: cls(**required)) == outcome(lambda: real(**required))  # the defaults, or the same error
    assert outcome(lambda: cls()) == outcome(lambda: real())
    assert outcome(lambda: cls(**kwargs, bogus=1)) == outcome(lambda: real(**kwargs, bogus=1))
    assert outcome(lambda: cls(*kwargs.values(), 1)) == outcome(lambda: real(*kwargs.values(), 1))
    for name in [*fields, "other"]:
        assert outcome(partial(setattr, ours, name, 1)) == outcome(partial(setattr, theirs, name, 1))
        assert outcome(partial(delattr, ours, name)) == outcome(partial(delattr, theirs, name))
        assert isinstance(_raised(partial(setattr, ours, name, 1)), AttributeError)
    for name, spec in fields.items():
        assert getattr(cls, name, "unset") == getattr(real, name, "unset")
        same = {name: getattr(ours, name)}
        assert outcome(partial(record.replace, ours, **same)) == outcome(partial(dataclasses.replace, theirs, **same))
        if spec.init and not spec.compare:
            changed = record.replace(ours, **{name: type(getattr(ours, name))()})
            assert changed == ours and hash(changed) == hash(ours)
    assert repr(record.replace(ours)) == repr(dataclasses.replace(theirs))
    assert outcome(lambda: record.replace(ours, bogus=1)) == outcome(lambda: dataclasses.replace(theirs, bogus=1))
    assert cls.__match_args__ == real.__match_args__  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(ours)) == ours


def _has_default(spec: Any) -> bool:
    return spec.default is not record._MISSING or spec.default_factory is not record._MISSING  # type: ignore[attr-defined]


def _raised(call: Any) -> BaseException | None:
    try:
        call()
    except BaseException as exc:
        return exc
    return None


def test_field_options_and_errors_as_dataclasses() -> None:
    @record.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = record.field(default=(), compare=False)
        seen: list[int] = record.field(default_factory=list, repr=False)
        cache: int = record.field(default=7, init=False)

    p = Point(1)
    assert repr(p).endswith(".Point(x=1, y=0, tags=(), cache=7)") and p.seen == [] and p.seen is not Point(1).seen
    assert Point(1, 2, ("a",)) == Point(1, 2) and Point(1) != Point(2)
    with pytest.raises(ValueError, match="init=False"):
        record.replace(p, cache=1)
    with pytest.raises(TypeError, match="non-default argument 'z' follows default argument"):

        @record.dataclass(frozen=True)
        class Bad:
            y: int = 0
            z: int  # type: ignore[misc]

    with pytest.raises(ValueError, match="mutable default"):

        @record.dataclass(frozen=True)
        class Mutable:
            y: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="frozen classes only"):
        record.dataclass(Point)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="dataclass instances"):
        record.replace(object())  # type: ignore[type-var]
