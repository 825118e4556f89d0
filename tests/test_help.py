"""Help texts say what to type: brackets survive, no type placeholders, usage in NAME form, every option explained."""

from __future__ import annotations

import re

import pytest

from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner

runner = CliRunner()
COMMANDS = ["build-lexicon", "lexicons", "dice", "random", "solve", "compare"]


def help_of(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_help_is_plain_and_complete(command: list[str]) -> None:
    """No `<bool>`/`<str>` labels, no `{name}`, no rich boxes, no ' .' from an eaten bracket; all options explained."""
    text = help_of(*command)
    assert not re.search(r"<\w[\w\[\] ,|]*>", text), text
    assert "{" not in text and "}" not in text
    assert "╭" not in text and "│" not in text
    assert not re.search(r"\w \.$", text, re.M), text  # "rules ." where "[default: ...]" was eaten
    for line in text.splitlines():
        option = re.match(r"^\s+(?:-\w, )?(--[\w-]+)(?: [^\s]+)?\s*$", line)
        assert option is None, f"option {option.group(1) if option else ''} has no help text"


def test_solve_help_keeps_square_brackets() -> None:
    """`[qu]`, `[]` and `[default: ...]` are shown as written."""
    text = " ".join(help_of("solve").split())
    assert "[qu] for a multi-letter face" in text
    assert "[] or . for a blank" in text
    assert "[default: the lexicon's, or en]" in text
    assert "[default: $BOGGLE_I18N_HOME or the user data folder]" in text


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("solve", "Usage: boggle-i18n solve [OPTIONS] [BOARD]..."),
        ("build-lexicon", "Usage: boggle-i18n build-lexicon [OPTIONS] RECIPE"),
        ("random", "Usage: boggle-i18n random [OPTIONS]"),
    ],
)
def test_usage_lines(command: str, usage: str) -> None:
    """Usage reads like classic Unix help: required NAME, optional [NAME], repeatable NAME..."""
    assert help_of(command).splitlines()[0] == usage


def test_option_placeholders_name_what_to_type() -> None:
    """Options that take a value show a word for it; flags show none."""
    solve = help_of("solve")
    for shown in ("--file FILE", "--lang CODE", "--lexicon NAME", "--dice SET", "--size RxC", "--min-length N"):
        assert shown in solve
    assert re.search(r"^\s+--paths\s+Draw", solve, re.M)
    assert re.search(r"^\s+--letters uniform\|lexicon\s", help_of("random"), re.M)
    assert "--as NAME" in help_of("build-lexicon")


def test_lexicon_name_rule_is_documented() -> None:
    """`--as` help states the one name pattern that every lexicon name follows."""
    text = " ".join(help_of("build-lexicon").split())
    assert "1-64 characters from a-z, 0-9, '-' and '_', starting with a letter or digit" in text


def test_bare_command_shows_help() -> None:
    """`boggle-i18n` alone prints the command list and exits 0."""
    result = runner.invoke(app, [])
    assert result.exit_code == 0
    assert all(c in result.stdout for c in COMMANDS)
