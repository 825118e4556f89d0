"""The command line's own small framework: a command is declared once, as a function whose parameters'
defaults say its options and arguments; this module binds, parses and checks them on the standard library.

Why not Typer (and Click under it): importing them took 5.8x a bare interpreter's whole start, more than
a cold `solve` may cost in all (docs/performance.md). What the commands used of them is small and is here:

    @app.command("solve")
    def solve_cmd(
        board: list[str] | None = Argument(None, metavar="BOARD", help="..."),
        lang: str | None = Option(None, "--lang", "-l", metavar="CODE", help="..."),
        json_out: bool = Option(False, "--json", help="..."),
    ) -> None:
        '''Solve a board: ...'''

The annotation gives the type (str, int, float, bool, Path; `list[...]` for an argument that takes the rest
or an option that may repeat; `| None` when absent means None); a default of `...` means required; a bool
option is a flag. Parsing follows Click's conventions so the command line reads as it always did: options
and arguments in any order, `--name value` or `--name=value`, `-n value` or `-nvalue`, `--` ends the
options, `-` is an argument (stdin), the last of a repeated option wins, and usage errors say what Click
said ("No such option: --x", "Missing argument 'WORD'.") as one `Error:` line with exit 2.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

TYPES = ("str", "int", "float", "bool", "Path")
METAVARS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "Path": "PATH"}


class Exit(Exception):
    """End the command with `code`; whatever it had to say is said."""

    def __init__(self, code: int = 0) -> None:
        super().__init__(code)
        self.exit_code = code


class UsageError(Exception):
    """The command line itself is wrong (an unknown option, a missing argument, a value of the wrong type)."""

    exit_code = 2


class HelpRequested(Exception):
    """`--help` was given: show the help of the command it was given to."""


def echo(message: str = "", err: bool = False) -> None:
    """Write a line to stdout (or stderr) and flush it, so it shows before a long step starts."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{message}\n")
    stream.flush()


class Param:
    """An option or argument as declared: its default, names and help; bound to a function parameter later."""

    def __init__(
        self,
        kind: str,
        default: Any,
        names: tuple[str, ...],
        help: str = "",
        metavar: str | None = None,
        show_default: bool = True,
        min: float | None = None,
        max: float | None = None,
        check: Callable[[Any], Any] | None = None,
    ) -> None:
        self.kind = kind
        self.default = default
        self.names = names
        self.help = help
        self.metavar = metavar
        self.show_default = show_default
        self.min = min
        self.max = max
        self.check = check  # the value, checked (raising the error a user sees), for an option many commands share


def Option(default: Any = None, *names: str, **details: Any) -> Any:
    """`--name VALUE` (or a flag, for a bool): see the module's docstring. Typed `Any`, as it stands in
    for the parameter's value in the function's signature."""
    return Param("option", default, names, **details)


def Argument(default: Any = None, **details: Any) -> Any:
    """A positional argument (all the rest, for a list): see the module's docstring."""
    return Param("argument", default, (), **details)


class Spec:
    """A declared parameter bound to the command function's parameter `dest`, with its type."""

    def __init__(self, param: Param, dest: str, annotation: str) -> None:
        self.param = param
        self.dest = dest
        self.type, self.many = _parse_annotation(annotation, dest)
        self.kind = param.kind
        self.names = param.names or (f"--{dest.replace('_', '-')}",) if param.kind == "option" else param.names
        self.required = param.default is ...
        if self.kind == "option" and self.type == "bool" and self.required:
            raise TypeError(f"flag {dest} cannot be required")

    @property
    def flag(self) -> bool:
        return self.kind == "option" and self.type == "bool"

    @property
    def metavar(self) -> str:
        if self.param.metavar:
            return self.param.metavar
        return self.dest.upper() if self.kind == "argument" else METAVARS[self.type]

    def hint(self) -> str:
        """How an error names it: `'--lang'`, `'-f' / '--file'`, `'WORD'`."""
        if self.kind == "argument":
            return f"'{self.metavar}'"
        return " / ".join(f"'{name}'" for name in sorted(self.names, key=len))

    def default(self) -> Any:
        default = self.param.default
        if default is ...:
            return None
        return list(default) if isinstance(default, (list, tuple)) else default

    def convert(self, value: str) -> Any:
        """One value from the command line, of this parameter's type (and in its range, and checked)."""
        converted = self._convert(value)
        return converted if self.param.check is None else self.param.check(converted)

    def _convert(self, value: str) -> Any:
        if self.type == "str":
            return value
        if self.type == "Path":
            from pathlib import Path  # only when a path is given: not on a plain solve's path

            return Path(value)
        number: float
        try:
            number = int(value) if self.type == "int" else float(value)
        except ValueError:
            kind = "integer" if self.type == "int" else "float"
            raise UsageError(f"Invalid value for {self.hint()}: {value!r} is not a valid {kind}.") from None
        low, high = self.param.min, self.param.max
        if (low is not None and number < low) or (high is not None and number > high):
            raise UsageError(f"Invalid value for {self.hint()}: {value} is not in the range {value_range(low, high)}.")
        return number


def value_range(low: float | None, high: float | None) -> str:
    """`0<=x<=65535`, `x>=1`: a range as Click writes it."""
    if low is not None and high is not None:
        return f"{low}<=x<={high}"
    return f"x>={low}" if low is not None else f"x<={high}"


def _parse_annotation(annotation: str, dest: str) -> tuple[str, bool]:
    """`'list[str] | None'` -> ('str', True): the value type, and whether the parameter takes many."""
    parts = [part.strip() for part in annotation.split("|") if part.strip() != "None"]
    if len(parts) != 1:
        raise TypeError(f"parameter {dest}: unsupported annotation {annotation!r}")
    base, many = parts[0], False
    if base.startswith("list[") and base.endswith("]"):
        base, many = base[5:-1].strip(), True
    if base not in TYPES:
        raise TypeError(f"parameter {dest}: unsupported type {base!r} (one of {', '.join(TYPES)})")
    return base, many


class Command:
    """A command: its name, the function that runs it, its help (the docstring) and its bound parameters."""

    def __init__(self, name: str, function: Callable[..., Any]) -> None:
        self.name = name
        self.function = function
        self.help = clean_doc(function.__doc__ or "")
        self._specs: list[Spec] | None = None

    @property
    def specs(self) -> list[Spec]:
        """The parameters in declaration order, bound on first use (a declaration error is a TypeError)."""
        if self._specs is None:
            self._specs = bind(self.function)
        return self._specs

    def parse(self, args: list[str]) -> dict[str, Any]:
        """The keyword arguments `args` give the function (UsageError or HelpRequested otherwise)."""
        return parse(self.specs, args)


def clean_doc(doc: str) -> str:
    """A docstring without its indentation (as `inspect.cleandoc`, which is not worth importing `inspect`)."""
    lines = doc.expandtabs().splitlines()
    if not lines:
        return ""
    rest = [line for line in lines[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in rest), default=0)
    cleaned = [lines[0].strip()] + [line[indent:].rstrip() for line in lines[1:]]
    return "\n".join(cleaned).strip()


def bind(function: Callable[..., Any]) -> list[Spec]:
    """The function's parameters as specs: each default must be an Option or an Argument.

    A decorated command (`functools.wraps`) is read through to the function it wraps, as `inspect` would.
    """
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    code = function.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    defaults = dict(
        zip(names[code.co_argcount - len(function.__defaults__ or ()) :], function.__defaults__ or (), strict=True)
    )
    defaults.update(function.__kwdefaults__ or {})
    annotations = function.__annotations__
    specs = []
    for name in names:
        param = defaults.get(name)
        if not isinstance(param, Param):
            raise TypeError(f"{function.__name__}: parameter {name} has no Option or Argument default")
        specs.append(Spec(param, name, str(annotations.get(name, "str"))))
    taking_rest = [s for s in specs if s.kind == "argument" and s.many]
    if taking_rest and [s for s in specs if s.kind == "argument"][-1] is not taking_rest[0]:
        raise TypeError(f"{function.__name__}: only the last argument may take the rest")
    return specs


def parse(specs: list[Spec], args: list[str]) -> dict[str, Any]:
    """Parse `args` against `specs` as Click would: see the module's docstring."""
    options = {name: spec for spec in specs if spec.kind == "option" for name in spec.names}
    given: dict[str, Any] = {}
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            positional += args[i:]
            break
        if arg == "--help":
            raise HelpRequested
        if not arg.startswith("-") or arg == "-" or (arg not in options and _is_number(arg)):
            positional.append(arg)
            continue
        if arg.startswith("--"):
            name, has_value, value = arg.partition("=")
        else:  # `-f FILE`, `-fFILE`
            name, value = arg[:2], arg[2:]
            has_value = "=" if value else ""
        spec = options.get(name)
        if spec is None:
            raise UsageError(f"No such option: {name}{_did_you_mean(name, options)}")
        if spec.flag:
            if has_value:
                raise UsageError(f"Option '{name}' does not take a value.")
            given[spec.dest] = True
            continue
        if not has_value:
            if i >= len(args):
                raise UsageError(f"Option '{name}' requires an argument.")
            value = args[i]
            i += 1
        if spec.many:
            given.setdefault(spec.dest, []).append(value)
        else:
            given[spec.dest] = value
    arguments = [spec for spec in specs if spec.kind == "argument"]
    for spec in arguments:
        if spec.many:
            if positional:
                given[spec.dest], positional = positional, []
        elif positional:
            given[spec.dest] = positional.pop(0)
    if positional:
        s = "s" if len(positional) > 1 else ""
        raise UsageError(f"Got unexpected extra argument{s} ({' '.join(positional)})")
    values: dict[str, Any] = {}
    for spec in specs:
        if spec.dest not in given:
            if spec.required:
                what = "argument" if spec.kind == "argument" else "option"
                name = spec.metavar if spec.kind == "argument" else max(spec.names, key=len)
                raise UsageError(f"Missing {what} '{name}'.")
            values[spec.dest] = spec.default()
        elif spec.flag:
            values[spec.dest] = True
        elif spec.many:
            values[spec.dest] = [spec.convert(v) for v in given[spec.dest]]
        else:
            values[spec.dest] = spec.convert(given[spec.dest])
    return values


def _is_number(text: str) -> bool:
    """`-5`, `-0.5`: a negative number is a value, not an option (when no option has that name)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _did_you_mean(name: str, options: dict[str, Spec]) -> str:
    from difflib import get_close_matches  # only on an error

    close = get_close_matches(name, [o for o in options if o.startswith("--")], n=1)
    return f" (Did you mean {close[0]}?)" if close else ""
