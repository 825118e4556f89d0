"""`lookup`: a word normalised by its lexicon's recipe, found or not, and which stage dropped it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoggleI18nError, LanguageError
from boggle_i18n.lookup import lookup

WORDS = "Häuser\nStraße\nBMW\nBerlin\nhaus\nbzw\nHaus\n"


@pytest.fixture
def german(tmp_path: Path) -> Path:
    """A tiny German lexicon from the shipped `de` recipe (names list, nouns policy, ä -> ae)."""
    source = tmp_path / "de.txt"
    source.write_text(WORDS, encoding="utf-8")
    store = tmp_path / "store"
    build_lexicon("de", source=source, store=store, download=False)
    return store


def test_folds_as_the_pipeline_does(german: Path) -> None:
    häuser, strasse, haus = lookup(["Häuser", "straße", "HAUS"], lang="de", store=german)
    assert (häuser.found, häuser.normalised) == (True, "haeuser")
    assert (strasse.found, strasse.normalised) == (True, "strasse")
    assert haus.found and haus.normalised == "haus"  # typed in capitals: tried lower-case too


def test_says_which_stage_dropped_it(german: Path) -> None:
    bmw, berlin = lookup(["BMW", "Berlin"], lang="de", store=german)
    assert not bmw.found and bmw.dropped is not None and bmw.dropped.stage == "case"
    assert not berlin.found and berlin.dropped is not None
    assert (berlin.dropped.stage, berlin.dropped.params) == (
        "blocklist",
        {"file": "lists/de-names.txt", "match": "word"},
    )
    assert berlin.reason.startswith("dropped by stage ") and "de-names.txt" in berlin.reason
    assert (bmw.category, berlin.category) == ("abbreviation", "proper-name")


def test_categories_in_a_players_terms(german: Path) -> None:
    """The reason category the web page translates: decided by the library, from the stage and what it saw."""
    bzw, katze, haus, apostrophe, short = lookup(["bzw", "Katze", "Haus", "hau's", "ab"], lang="de", store=german)
    assert bzw.category == "abbreviation"  # lists/de-abbreviations.txt
    assert katze.category == "not-in-source" and haus.category == "word"
    assert apostrophe.category == "letters" and short.category == "length"
    assert all(a.to_dict()["category"] == a.category for a in (bzw, katze, haus))


def test_a_word_the_source_never_had(german: Path) -> None:
    (answer,) = lookup(["Katze"], lang="de", store=german)
    assert not answer.found and answer.dropped is None and answer.normalised == "katze"
    assert answer.reason == "not in the source of de"


def test_repeated_words_are_each_answered(german: Path) -> None:
    """dedupe drops repeats in a build, never a word looked up twice."""
    assert [a.found for a in lookup(["haus", "haus"], lang="de", store=german)] == [True, True]


def test_cli_text_json_and_stdin(german: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(app, ["lookup", "Häuser", "Berlin", "--lang", "de", "--store", str(german)])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines() == [
        "Häuser -> haeuser: yes, in lexicon de",
        "Berlin: no, a proper name: dropped by stage 9 (blocklist file='lists/de-names.txt' match='word')",
    ]
    data = json.loads(
        runner.invoke(
            app, ["lookup", "-", "--lang", "de", "--json", "--store", str(german)], input="\ufeffStraße\n\nKatze\n"
        ).stdout
    )
    assert [(d["word"], d["found"], d["normalised"]) for d in data] == [
        ("Straße", True, "strasse"),
        ("Katze", False, "katze"),
    ]
    assert data[1]["dropped_by"] is None and data[0]["lexicon"] == "de"


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["lookup", "haus", "--lang", "xx"], None, "Error: unknown language 'xx'"),
        (["lookup", "", "--lang", "de"], None, "Error: not a word: an empty string"),
        (["lookup", "-", "--lang", "de"], "\n\n", "Error: no words on stdin"),
        (["lookup", "-", "--lang", "de"], b"\xff\xfe", "Error: stdin is not UTF-8 text"),
        (["lookup", "haus", "--lexicon", "../x"], None, "Error: bad lexicon name '../x'"),
        (["lookup", "--lang", "de"], None, "Error: Missing argument 'WORD'"),
    ],
)
def test_bad_input_is_one_error_line(german: Path, args: list[str], stdin: str | bytes | None, message: str) -> None:
    result = CliRunner().invoke(app, [*args, "--store", str(german)], input=stdin)
    assert result.exit_code in (1, 2)
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == ""


def test_outside_the_alphabet_is_a_clear_no(german: Path) -> None:
    (answer,) = lookup(["hau's"], lang="de", store=german)  # an apostrophe: not a letter
    assert not answer.found and answer.dropped is not None and answer.dropped.stage == "alphabet"


def test_library_errors(german: Path) -> None:
    with pytest.raises(LanguageError):
        lookup(["haus"], lang="zz", store=german)
    with pytest.raises(BoggleI18nError, match="not a word"):
        lookup(["  "], lang="de", store=german)
