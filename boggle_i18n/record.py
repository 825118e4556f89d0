"""Frozen value classes without `dataclasses`: a faithful subset for the modules a cold `solve` loads.

`import dataclasses` loads `inspect` (with ast, dis, tokenize ...), and each class it makes
execs six generated functions: about 4 million instructions a class, 13 classes on the
`solve` path. `dataclass(frozen=True)` here makes the same classes for what the project
uses: fields with defaults and `field(default=, default_factory=, init=, repr=, compare=)`,
`__post_init__`, `__init__`, `__repr__`, `__eq__`, `__hash__` (frozen and eq: the compared
fields), assignment and deletion refused (`FrozenInstanceError`, an `AttributeError`),
`__match_args__`, and `replace`. Only `__init__` is generated (one small compile); the
others are shared methods reading the class's field table. Not supported, and refused
where they could be asked for: mutable (non-frozen) classes, `ClassVar`/`InitVar`, fields
inherited from a base class. A method the class body defines itself is kept, as
dataclasses keep it. Recursive values print in full (dataclasses print `...`); none are.

mypy sees `dataclasses.dataclass`, `field` and `replace` (below, under TYPE_CHECKING), so
the classes are type-checked as the dataclasses they behave as; `tests/test_record.py`
checks every class made here against a real dataclass of the same body.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` itself is not imported at run time (mypy reads this name as True)

if TYPE_CHECKING:
    from dataclasses import FrozenInstanceError, dataclass, field, replace
else:
    from operator import attrgetter

    _MISSING = object()  # "no default": None is a default

    class FrozenInstanceError(AttributeError):
        """Assigning to (or deleting) a field of a frozen record."""

    class Field:
        """One field's options, as `dataclasses.Field` holds them."""

        __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

        def __init__(self, default, default_factory, init, repr, compare):
            self.name = ""
            self.default = default
            self.default_factory = default_factory
            self.init = init
            self.repr = repr
            self.compare = compare

        def __repr__(self):
            return f"Field(name={self.name!r}, default={self.default!r}, init={self.init}, compare={self.compare})"

    def field(*, default=_MISSING, default_factory=_MISSING, init=True, repr=True, compare=True):
        """A field's options: a default or a factory of one, whether `__init__`, `repr` and `==` include it."""
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        return Field(default, default_factory, init, repr, compare)

    def dataclass(cls=None, /, *, frozen=False):
        """Make `cls` a frozen value class (see the module docstring); `frozen=True` is required."""
        if not frozen:
            raise TypeError("boggle_i18n.record makes frozen classes only: use dataclass(frozen=True)")
        return _make if cls is None else _make(cls)

    def replace(obj, /, **changes):
        """A copy of record `obj` with some fields changed (through `__init__`, so `__post_init__` checks it)."""
        fields = getattr(type(obj), "__record_fields__", None)
        if fields is None:
            raise TypeError("replace() should be called on dataclass instances")
        for name, spec in fields.items():
            if not spec.init:
                if name in changes:
                    raise ValueError(f"field {name} is declared with init=False, it cannot be specified with replace()")
            elif name not in changes:
                changes[name] = getattr(obj, name)
        return obj.__class__(**changes)

    def _fields(cls):
        """The class's fields in order, each class attribute set to its default as dataclasses leave it."""
        body = cls.__dict__
        for base in cls.__mro__[1:]:
            if "__record_fields__" in base.__dict__ or "__dataclass_fields__" in base.__dict__:
                raise TypeError(f"{cls.__qualname__}: fields inherited from {base.__qualname__} are not supported")
        fields = {}
        for name, kind in body.get("__annotations__", {}).items():
            if not isinstance(kind, str) or kind.startswith(("ClassVar", "InitVar", "typing.", "dataclasses.")):
                raise TypeError(f"{cls.__qualname__}.{name}: only plain annotations (from __future__) are supported")
            value = body.get(name, _MISSING)
            spec = value if isinstance(value, Field) else Field(value, _MISSING, True, True, True)
            spec.name = name
            if isinstance(spec.default, (list, dict, set)):
                raise ValueError(
                    f"mutable default {type(spec.default)} for field {name} is not allowed: use default_factory"
                )
            if spec.default is _MISSING:
                if name in body:
                    delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
            fields[name] = spec
        return fields

    def _init(cls, fields):
        """`__init__`, generated as dataclasses generate it (same parameters, same errors), one compile."""
        names = {"_set": object.__setattr__, "_factory_default": _MISSING}
        params, body, seen_default = [], [], False
        for name, spec in fields.items():
            has_default = spec.default is not _MISSING or spec.default_factory is not _MISSING
            if spec.init:
                if has_default:
                    seen_default = True
                elif seen_default:
                    raise TypeError(f"non-default argument {name!r} follows default argument")
            if spec.default_factory is not _MISSING:
                names[f"_factory_{name}"] = spec.default_factory
                value = (
                    f"_factory_{name}() if {name} is _factory_default else {name}"
                    if spec.init
                    else f"_factory_{name}()"
                )
            elif spec.init:
                value = name
            elif spec.default is not _MISSING:
                names[f"_default_{name}"] = spec.default
                value = f"_default_{name}"
            else:
                continue  # init=False, no default: left unset, as dataclasses leave it
            if spec.init:
                if spec.default_factory is not _MISSING:
                    params.append(f"{name}=_factory_default")
                elif spec.default is not _MISSING:
                    names[f"_default_{name}"] = spec.default
                    params.append(f"{name}=_default_{name}")
                else:
                    params.append(name)
            body.append(f"    _set(self, {name!r}, {value})")
        if "__post_init__" in cls.__dict__:
            body.append("    self.__post_init__()")
        source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
        exec(source, names)
        init = names["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        init.__module__ = cls.__module__
        return init

    def _make(cls):
        fields = _fields(cls)
        compared = tuple(name for name, spec in fields.items() if spec.compare)
        shown = tuple(name for name, spec in fields.items() if spec.repr)
        if len(compared) > 1:
            key = attrgetter(*compared)
        else:
            one = attrgetter(*compared) if compared else None

            def key(obj):
                return (one(obj),) if one else ()

        def __repr__(self):
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{self.__class__.__qualname__}({inner})"

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

        def __hash__(self):
            return hash(key(self))

        def __setattr__(self, name, value):
            if type(self) is cls or name in fields:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")
            super(cls, self).__setattr__(name, value)

        def __delattr__(self, name):
            if type(self) is cls or name in fields:
                raise FrozenInstanceError(f"cannot delete field {name!r}")
            super(cls, self).__delattr__(name)

        body = cls.__dict__
        for method in (__setattr__, __delattr__):
            if method.__name__ in body:
                raise TypeError(f"Cannot overwrite attribute {method.__name__} in class {cls.__name__}")
        made = {"__init__": _init(cls, fields), "__repr__": __repr__, "__eq__": __eq__}
        explicit_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
        if not explicit_hash:
            made["__hash__"] = __hash__
        made["__setattr__"] = __setattr__
        made["__delattr__"] = __delattr__
        for name, method in made.items():
            if name in body and name != "__hash__":
                continue  # defined by the class itself: kept, as dataclasses keep it
            if name != "__init__":
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
        cls.__record_fields__ = fields
        cls.__match_args__ = tuple(name for name, spec in fields.items() if spec.init)
        return cls


__all__ = ["FrozenInstanceError", "dataclass", "field", "replace"]
