"""`random --count N`: bulk rolls are real throws of the dice asked, reproducible, and read back by `score`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from boggle_i18n import get_dice, roll
from boggle_i18n.board.notation import parse_board
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.comparison.rolls import board_source, roll_lines

runner = CliRunner()


def test_dice_rolls_are_throws_and_reproducible() -> None:
    source = board_source(roll(dice="en-classic-4x4", seed=1))
    lines = "".join(roll_lines(source, 20_000, seed=7)).splitlines()
    assert len(lines) == 20_000 and len(set(lines)) > 19_900
    dice = get_dice("en-classic-4x4")
    shorthands = dice.shorthands
    for text in lines[:2000]:
        board = parse_board(text, shorthands)
        assert board.size == (4, 4) and dice.can_show(board), text
    assert "".join(roll_lines(source, 100, seed=7)).splitlines() == lines[:100]  # a longer run starts the same
    assert "".join(roll_lines(source, 100, seed=8)).splitlines() != lines[:100]
    # every die lands on every cell, each face about a sixth of the time: the shuffle and the face are uniform
    faces = Counter(face for text in lines for face in parse_board(text, shorthands).faces)
    assert faces["qu"] == sum(text.count("[qu]") for text in lines) > 0
    assert abs(faces["e"] / (16 * len(lines)) - sum(d.count("E") for d in dice.dice) / 96) < 0.01


def test_letter_modes_any_shape() -> None:
    one_row = board_source(roll(dice="en-classic-4x4", size=(1, 6), letters="uniform", seed=3))
    lines = "".join(roll_lines(one_row, 50, seed=3)).splitlines()
    assert all(line.endswith("/") and parse_board(line).size == (1, 6) for line in lines)  # a lone row keeps its `/`


def test_random_count_feeds_score(built_store: Path) -> None:
    """The issue's check: `random --lang en --count 1000 --seed 5 | score - --lexicon en-enable2k` scores 1,000."""
    rolled = runner.invoke(app, ["random", "--lang", "en", "--count", "1000", "--seed", "5"])
    assert rolled.exit_code == 0 and rolled.stderr == ""  # a given seed is not repeated on stderr
    assert rolled.stdout == runner.invoke(app, ["random", "--lang", "en", "--count", "1000", "--seed", "5"]).stdout
    scored = runner.invoke(
        app, ["score", "-", "--lexicon", "en-enable2k", "--store", str(built_store)], input=rolled.stdout
    )
    assert scored.exit_code == 0, scored.stderr
    assert len(scored.stdout.splitlines()) == 1000 and "scored 1,000 boards" in scored.stderr
    rows = [
        json.loads(x)
        for x in runner.invoke(app, ["random", "--count", "3", "--seed", "5", "--json"]).stdout.splitlines()
    ]
    assert [r["board"] for r in rows] == rolled.stdout.splitlines()[:3]
    assert rows[2]["index"] == 2 and rows[0]["dice"] == "en-new-4x4" and rows[0]["seed"] == 5
    lexicon = runner.invoke(
        app, ["random", "--lang", "nl", "--letters", "lexicon", "--size", "3x5", "--count", "200", "--seed", "1",
              "--store", str(built_store)],
    )  # fmt: skip
    assert lexicon.exit_code == 0, lexicon.stderr
    assert all(parse_board(line).size == (3, 5) for line in lexicon.stdout.splitlines())
    fresh = runner.invoke(app, ["random", "--count", "2"])
    assert fresh.stderr.startswith("seed ") and len(fresh.stdout.splitlines()) == 2
    bad = runner.invoke(app, ["random", "--count", "0"])
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: --count must be in 1..")
