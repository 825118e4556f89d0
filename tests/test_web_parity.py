"""One library under both faces: the same bad input through `boggle-i18n solve`/`lookup` and through the web
API gets the same refusal, word for word (`Error: X` on the command line, `{"error": "X"}` with a 400 on the web).

Neither face decides a rule itself: both call `solving.choose_board`, `language.selection.select` and
`lookup.WordChecker`, so a difference here is a rule decided twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")
from starlette.testclient import TestClient
from typer.testing import CliRunner
from web_support import make_web_store

from boggle_i18n.cli import app
from boggle_i18n.web import create_app

pytestmark = pytest.mark.shared
runner = CliRunner()

# (what the case shows, CLI arguments after `solve`, the same as /api/solve parameters)
SOLVE_CASES = [
    (
        "ñ on an English board",
        ["ñart/abcd/efgh/ijkl", "--lexicon", "en-enable2k"],
        {"board": "ñart/abcd/efgh/ijkl", "lexicon": "en-enable2k"},
    ),
    ("é on a Dutch board", ["trép/kaas/oven/blij", "--lang", "nl"], {"board": "trép/kaas/oven/blij", "lang": "nl"}),
    ("Cyrillic on an English board", ["кіт/abc/def", "--lang", "en"], {"board": "кіт/abc/def", "lang": "en"}),
    ("Latin on a Ukrainian board", ["abc/def/ghi", "--lang", "uk"], {"board": "abc/def/ghi", "lang": "uk"}),
    ("an unknown language", ["abcd/efgh/ijkl/mnop", "--lang", "xx"], {"board": "abcd/efgh/ijkl/mnop", "lang": "xx"}),
    (
        "another language's dice",
        ["abcd/efgh/ijkl/mnop", "--lang", "nl", "--dice", "en-new-4x4"],
        {"board": "abcd/efgh/ijkl/mnop", "lang": "nl", "dice": "en-new-4x4"},
    ),
    (
        "an unknown scoring preset",
        ["abcd/efgh/ijkl/mnop", "--scoring", "nonsense"],
        {"board": "abcd/efgh/ijkl/mnop", "scoring": "nonsense"},
    ),
    ("a board that is not a rectangle", ["abc/de"], {"board": "abc/de"}),
    ("an unclosed bracket", ["[qu/abc/def"], {"board": "[qu/abc/def"}),
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


@pytest.mark.parametrize(("what", "args", "params"), SOLVE_CASES, ids=[c[0] for c in SOLVE_CASES])
def test_solve_refuses_alike(
    what: str, args: list[str], params: dict[str, str], client: TestClient, parity_store: Path
) -> None:
    said = _cli_error(["solve", *args], parity_store)
    r = client.get("/api/solve", params=params)
    assert r.status_code == 400, (what, r.status_code, r.text)
    assert r.json() == {"error": said}, what


def test_a_board_in_the_alphabet_is_solved_alike(client: TestClient, parity_store: Path) -> None:
    """The refusal is not a blanket one: a Ukrainian board is solved by both faces, with the same score."""
    import json

    board = "кіт/ало/рнс"
    cli = runner.invoke(app, ["solve", board, "--lang", "uk", "--json", "--store", str(parity_store)])
    assert cli.exit_code == 0, cli.stderr
    web = client.get("/api/solve", params={"board": board, "lang": "uk"}).json()
    assert web["score"] == json.loads(cli.stdout)["score"] and web["lexicon"]["name"] == "uk"


LOOKUP_CASES = [
    ("an unknown language", ["kaas", "--lang", "xx"], {"word": "kaas", "lang": "xx"}),
    ("an empty word", [" ", "--lang", "nl"], {"word": " ", "lang": "nl"}),
]


@pytest.mark.parametrize(("what", "args", "params"), LOOKUP_CASES, ids=[c[0] for c in LOOKUP_CASES])
def test_lookup_refuses_alike(
    what: str, args: list[str], params: dict[str, str], client: TestClient, parity_store: Path
) -> None:
    said = _cli_error(["lookup", *args], parity_store)
    r = client.get("/api/lookup", params=params)
    assert r.status_code == 400 and r.json() == {"error": said}, (what, r.text)


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
