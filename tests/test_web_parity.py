"""One library under both faces: the same bad input through `boggle-i18n solve`/`lookup` and through the web
API gets the same refusal, word for word (`Error: X` on the command line, `{"error": "X", "code": C, "params": P}`
with a 400 on the web, where C is the code the library raised, which the page words in the player's language).

Neither face decides a rule itself: both call `solving.choose_board`, `language.selection.select` and
`lookup.WordChecker`, so a difference here is a rule decided twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")
from starlette.testclient import TestClient
from web_support import make_web_store

from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import CODES
from boggle_i18n.web import create_app

pytestmark = pytest.mark.shared
runner = CliRunner()

# (what the case shows, CLI arguments after `solve`, the same as /api/solve parameters, the library's error code)
SOLVE_CASES = [
    (
        "ñ on an English board",
        ["ñart/abcd/efgh/ijkl", "--lexicon", "en-enable2k"],
        {"board": "ñart/abcd/efgh/ijkl", "lexicon": "en-enable2k"},
        "board.outside_alphabet",
    ),
    (
        "Greek λ on a Dutch board (é folds to e there)",
        ["trλp/kaas/oven/blij", "--lang", "nl"],
        {"board": "trλp/kaas/oven/blij", "lang": "nl"},
        "board.outside_alphabet",
    ),
    (
        "Cyrillic on an English board",
        ["кіт/abc/def", "--lang", "en"],
        {"board": "кіт/abc/def", "lang": "en"},
        "board.outside_alphabet",
    ),
    (
        "Latin on a Ukrainian board",
        ["abc/def/ghi", "--lang", "uk"],
        {"board": "abc/def/ghi", "lang": "uk"},
        "board.outside_alphabet",
    ),
    (
        "an unknown language",
        ["abcd/efgh/ijkl/mnop", "--lang", "xx"],
        {"board": "abcd/efgh/ijkl/mnop", "lang": "xx"},
        "language.unknown",
    ),
    (
        "another language's dice",
        ["abcd/efgh/ijkl/mnop", "--lang", "nl", "--dice", "en-new-4x4"],
        {"board": "abcd/efgh/ijkl/mnop", "lang": "nl", "dice": "en-new-4x4"},
        "dice.other_language",
    ),
    (
        "an unknown dice set",
        ["abcd/efgh/ijkl/mnop", "--dice", "no-such-dice"],
        {"board": "abcd/efgh/ijkl/mnop", "dice": "no-such-dice"},
        "dice.unknown",
    ),
    (
        "a dice set of another size",
        ["abcde/fghij/klmno/pqrst/uvwxy", "--dice", "en-new-4x4"],
        {"board": "abcde/fghij/klmno/pqrst/uvwxy", "dice": "en-new-4x4"},
        "board.dice_size",
    ),
    (
        "an unknown scoring preset",
        ["abcd/efgh/ijkl/mnop", "--scoring", "nonsense"],
        {"board": "abcd/efgh/ijkl/mnop", "scoring": "nonsense"},
        "scoring.unknown",
    ),
    (
        "a scoring table that is not one",
        ["abcd/efgh/ijkl/mnop", "--scoring", "3:x"],
        {"board": "abcd/efgh/ijkl/mnop", "scoring": "3:x"},
        "scoring.bad_table",
    ),
    (
        "negative points",
        ["abcd/efgh/ijkl/mnop", "--scoring", "3:-1"],
        {"board": "abcd/efgh/ijkl/mnop", "scoring": "3:-1"},
        "scoring.bad_table",
    ),
    ("a board that is not a rectangle", ["abc/de"], {"board": "abc/de"}, "board.not_rectangle"),
    ("an unseparated board that is not a square", ["abcde"], {"board": "abcde"}, "board.not_rectangle"),
    ("an unclosed bracket", ["[qu/abc/def"], {"board": "[qu/abc/def"}, "board.bracket"),
    ("an unmatched bracket", ["qu]/abc/def"], {"board": "qu]/abc/def"}, "board.bracket"),
    ("a face that is no letter", ["ab1c/defg/hijk/lmno"], {"board": "ab1c/defg/hijk/lmno"}, "board.bad_face"),
    ("an empty board", ["/"], {"board": "/"}, "board.empty"),
    (
        "faces that do not make the size",
        ["abcdefghijklmnop", "--size", "3x3"],
        {"board": "abcdefghijklmnop", "size": "3x3"},
        "board.wrong_size",
    ),
    ("a size that is not one", ["abcd", "--size", "big"], {"board": "abcd", "size": "big"}, "size.bad"),
    ("a size under 1", ["abcd", "--size", "0x4"], {"board": "abcd", "size": "0x4"}, "size.bad"),
    ("a size over the limit", ["abcd", "--size", "70x70"], {"board": "abcd", "size": "70x70"}, "limit.range"),
    (
        "a shortest word of 0",
        ["abcd/efgh/ijkl/mnop", "--min-length", "0"],
        {"board": "abcd/efgh/ijkl/mnop", "min_length": "0"},
        "limit.range",
    ),
    (
        "a shortest word over the limit",
        ["abcd/efgh/ijkl/mnop", "--min-length", "5000"],
        {"board": "abcd/efgh/ijkl/mnop", "min_length": "5000"},
        "limit.range",
    ),
    (
        "a lexicon name that is a path",
        ["abcd/efgh/ijkl/mnop", "--lexicon", "../x"],
        {"board": "abcd/efgh/ijkl/mnop", "lexicon": "../x"},
        "lexicon.bad_name",
    ),
    (
        "an unknown lexicon",
        ["abcd/efgh/ijkl/mnop", "--lexicon", "no-such-lexicon"],
        {"board": "abcd/efgh/ijkl/mnop", "lexicon": "no-such-lexicon"},
        "lexicon.unknown",
    ),
]


@pytest.fixture(scope="module")
def parity_store(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Path:
    return make_web_store(tmp_path_factory.mktemp("parity") / "store", built_store)


@pytest.fixture(scope="module")
def client(parity_store: Path) -> Iterator[TestClient]:
    with TestClient(create_app(parity_store, None), base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c


def _cli_error(args: list[str], store: Path) -> str:
    result = runner.invoke(app, [*args, "--store", str(store)])
    assert result.exit_code != 0, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0].removeprefix("Error: ")


def _same_refusal(what: str, said: str, r: Any, code: str) -> None:
    """The web's `error` is the CLI's line, word for word, with the library's code and its params."""
    assert r.status_code == 400, (what, r.status_code, r.text)
    body = r.json()
    assert body["error"] == said, what
    assert body["code"] == code, (what, body)
    assert set(body["params"]) == set(CODES[code]), (what, body)
    assert all(isinstance(v, str | int | float) for v in body["params"].values()), (what, body)


@pytest.mark.parametrize(("what", "args", "params", "code"), SOLVE_CASES, ids=[c[0] for c in SOLVE_CASES])
def test_solve_refuses_alike(
    what: str, args: list[str], params: dict[str, str], code: str, client: TestClient, parity_store: Path
) -> None:
    said = _cli_error(["solve", *args], parity_store)
    _same_refusal(what, said, client.get("/api/solve", params=params), code)


def test_the_params_are_the_refusals_facts(client: TestClient) -> None:
    """The page words a refusal from its params alone: the face and letters as given, the count for a plural."""
    body = client.get("/api/solve", params={"board": "ñart/abcd/efgh/ijkl", "lang": "en"}).json()
    assert body["params"] == {
        "face": "ñ",
        "letters": "ñ",
        "count": 1,
        "lang": "en",
        "alphabet": "abcdefghijklmnopqrstuvwxyz",
    }
    body = client.get("/api/solve", params={"board": "abcd", "min_length": "0"}).json()
    assert body["params"] == {"option": "--min-length", "low": 1, "high": 4096, "value": "0"}


def test_a_board_in_the_alphabet_is_solved_alike(client: TestClient, parity_store: Path) -> None:
    """The refusal is not a blanket one: a Ukrainian board is solved by both faces, with the same score."""
    import json

    board = "кіт/ало/рнс"
    cli = runner.invoke(app, ["solve", board, "--lang", "uk", "--json", "--store", str(parity_store)])
    assert cli.exit_code == 0, cli.stderr
    web = client.get("/api/solve", params={"board": board, "lang": "uk"}).json()
    assert web["score"] == json.loads(cli.stdout)["score"] and web["lexicon"]["name"] == "uk"


LOOKUP_CASES = [
    ("an unknown language", ["kaas", "--lang", "xx"], {"word": "kaas", "lang": "xx"}, "language.unknown"),
    ("an empty word", [" ", "--lang", "nl"], {"word": " ", "lang": "nl"}, "lookup.empty_word"),
    (
        "a lexicon name that is a path",
        ["kaas", "--lexicon", "../nl"],
        {"word": "kaas", "lexicon": "../nl"},
        "lexicon.bad_name",
    ),
]


@pytest.mark.parametrize(("what", "args", "params", "code"), LOOKUP_CASES, ids=[c[0] for c in LOOKUP_CASES])
def test_lookup_refuses_alike(
    what: str, args: list[str], params: dict[str, str], code: str, client: TestClient, parity_store: Path
) -> None:
    said = _cli_error(["lookup", *args], parity_store)
    _same_refusal(what, said, client.get("/api/lookup", params=params), code)


# (what, CLI arguments after `compare`, the same as a POST /api/compare body, code): refused before any work
COMPARE_CASES = [
    ("an unknown language", ["xx"], {"langs": ["xx"]}, "language.unknown"),
    ("a size that is not one", ["en", "--size", "big"], {"langs": ["en"], "size": "big"}, "size.bad"),
    ("a seed under 0", ["en", "--seed", "-1"], {"langs": ["en"], "seed": -1}, "limit.range"),
]


@pytest.mark.parametrize(("what", "args", "body", "code"), COMPARE_CASES, ids=[c[0] for c in COMPARE_CASES])
def test_compare_refuses_alike(
    what: str, args: list[str], body: dict[str, Any], code: str, client: TestClient, parity_store: Path
) -> None:
    said = _cli_error(["compare", *args], parity_store)
    _same_refusal(what, said, client.post("/api/compare", json=body), code)


@pytest.mark.parametrize(("word", "lang"), [("Kaas", "nl"), ("kaasx", "nl"), ("Amsterdam", "nl"), ("кіт", "uk")])
def test_lookup_answers_alike(word: str, lang: str, client: TestClient, parity_store: Path) -> None:
    """The same answer and the same reason category from both faces (the library decides it)."""
    import json

    cli = runner.invoke(app, ["lookup", word, "--lang", lang, "--json", "--store", str(parity_store)])
    assert cli.exit_code in (0, 1), cli.stderr
    said = json.loads(cli.stdout)
    said = said[0] if isinstance(said, list) else said
    web = client.get("/api/lookup", params={"word": word, "lang": lang}).json()
    for key in ("found", "normalised", "reason", "category", "lexicon"):
        assert web[key] == said[key], key
