"""The command line's own framework (cli/framework.py): one declaration gives parsing, checks and help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boggle_i18n.cli.framework import Argument, Command, HelpRequested, Option, UsageError
from boggle_i18n.cli.help import command_help


def sample(
    words: list[str] = Argument(..., metavar="WORD", help="Words."),
    lang: str | None = Option(None, "--lang", "-l", metavar="CODE", help="Language."),
    count: int = Option(3, "--count", "-n", min=1, max=9, help="How many."),
    ratio: float | None = Option(None, "--ratio", help="A ratio."),
    output: Path | None = Option(None, "--output", "-o", metavar="FILE", help="Where."),
    host: list[str] = Option([], "--host", metavar="HOST", help="Hosts (repeat)."),
    json_out: bool = Option(False, "--json", help="JSON."),
) -> None:
    """Do the sample thing.

    A second paragraph.
    """


COMMAND = Command("sample", sample)


def parse(*args: str) -> dict[str, object]:
    return COMMAND.parse(list(args))


def test_values_defaults_and_types() -> None:
    got = parse("a", "--lang", "nl", "-n5", "--ratio=0.5", "-o", "out.txt", "b", "--json")
    assert got == {
        "words": ["a", "b"],
        "lang": "nl",
        "count": 5,
        "ratio": 0.5,
        "output": Path("out.txt"),
        "host": [],
        "json_out": True,
    }
    assert parse("a") == {
        "words": ["a"],
        "lang": None,
        "count": 3,
        "ratio": None,
        "output": None,
        "host": [],
        "json_out": False,
    }


def test_click_conventions() -> None:
    assert parse("a", "--lang", "de", "--lang", "fr")["lang"] == "fr"  # the last one wins
    assert parse("a", "--host", "x", "--host", "y")["host"] == ["x", "y"]  # a list option repeats
    assert parse("-", "--", "--json", "-n")["words"] == ["-", "--json", "-n"]  # `-` and everything after `--`
    assert parse("a", "--lang", "--json")["lang"] == "--json"  # an option's value is taken as given
    assert parse("-5", "a")["words"] == ["-5", "a"]  # a negative number is a value, not an option
    assert parse("a", "--ratio", "-0.5")["ratio"] == -0.5
    assert parse("a", "--count", " 4 ")["count"] == 4  # as int() reads it


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Missing argument 'WORD'."),
        (("a", "--lnag", "x"), "No such option: --lnag (Did you mean --lang?)"),
        (("a", "-x"), "No such option: -x"),
        (("a", "--lang"), "Option '--lang' requires an argument."),
        (("a", "--json=yes"), "Option '--json' does not take a value."),
        (("a", "--count", "two"), "Invalid value for '-n' / '--count': 'two' is not a valid integer."),
        (("a", "--count", "10"), "Invalid value for '-n' / '--count': 10 is not in the range 1<=x<=9."),
        (("a", "--ratio", "half"), "Invalid value for '--ratio': 'half' is not a valid float."),
    ],
)
def test_usage_errors_say_what_click_said(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse(*args)
    assert str(caught.value) == message
    assert caught.value.exit_code == 2


def test_extra_arguments_and_help() -> None:
    def one(word: str = Argument(..., help="A word.")) -> None:
        """One word."""

    with pytest.raises(UsageError, match=r"^Got unexpected extra arguments \(b c\)$"):
        Command("one", one).parse(["a", "b", "c"])
    with pytest.raises(HelpRequested):
        Command("one", one).parse(["--help"])  # before a missing argument is noticed
    assert Command("one", one).parse(["--", "--help"]) == {"word": "--help"}


def test_help_comes_from_the_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    text = command_help("prog", COMMAND)
    assert text.splitlines()[0] == "Usage: prog sample [OPTIONS] WORD..."
    assert "  Do the sample thing.\n\n  A second paragraph." in text
    flat = " ".join(text.split())
    for shown in (
        "WORD... Words. [required]",
        "-l, --lang CODE Language.",
        "-n, --count INTEGER How many.",
        "[default: 3; 1<=x<=9]",
        "--json JSON.",
        "--help Show this message and exit.",
    ):
        assert shown in flat, shown


def test_declaration_errors_are_found() -> None:
    def no_default(word: str) -> None:
        pass

    def odd_type(word: dict[str, str] = Argument(...)) -> None:
        pass

    def rest_first(words: list[str] = Argument(...), last: str = Argument(...)) -> None:
        pass

    for function in (no_default, odd_type, rest_first):
        with pytest.raises(TypeError):
            _ = Command(function.__name__, function).specs


def test_the_command_line_imports_no_framework_of_its_own_weight() -> None:
    """`boggle-i18n --version` loads neither Typer nor Click (nor any command's module)."""
    code = (
        "import sys\nfrom boggle_i18n.cli import app\n"
        "try:\n    app(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich')"
        " or m.endswith('_cmd') or m.endswith('_cmds')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"
