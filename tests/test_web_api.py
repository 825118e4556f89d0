"""The web app's JSON API (boggle_i18n/web): every endpoint, with good and bad input, through Starlette's test client.

Like the CLI's bad-input table, every mistake a client can make is a 4xx with a
one-line `{"error": ...}`, never a 500 or a traceback.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from boggle_i18n.language.records import languages

pytest.importorskip("starlette", reason="the [web] extra is not installed")
from starlette.testclient import TestClient
from web_support import REPO, make_web_store

from boggle_i18n.api import load_lexicon, parse_board, solve
from boggle_i18n.errors import CODES
from boggle_i18n.web import create_app
from boggle_i18n.web.app import ROUTES

pytestmark = pytest.mark.shared


@pytest.fixture(scope="session")
def web_store(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Path:
    return make_web_store(tmp_path_factory.mktemp("web") / "store", built_store)


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two en-enable2k 4x4 result files from the repository's results/."""
    folder = tmp_path_factory.mktemp("results")
    files = sorted((REPO / "results").glob("en-enable2k-4x4-free-*.json"))[:2]
    assert len(files) == 2, "the repository's results/ holds en-enable2k 4x4 runs"
    for path in files:
        shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def client(web_store: Path, results_dir: Path) -> Iterator[TestClient]:
    with local(create_app(web_store, results_dir), raise_server_exceptions=False) as c:
        yield c


def local(app: Any, **options: Any) -> TestClient:
    """A test client that asks for 127.0.0.1, an address the app answers to (tests/test_web_security.py)."""
    return TestClient(app, base_url="http://127.0.0.1", **options)


def _adjacent(a: list[int], b: list[int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def test_solve_matches_the_library_and_published_score(client: TestClient, web_store: Path) -> None:
    r = client.get("/api/solve", params={"board": "perslatgsineters", "lexicon": "en-enable2k"})
    assert r.status_code == 200
    data = r.json()
    assert data["score"] == 3625 and data["n_words"] == 1045 and data["lang"] == "en" and data["dice"] == "en-new-4x4"
    lexicon = load_lexicon("en-enable2k", web_store, build=False)
    expected = solve(parse_board("perslatgsineters", lang="en"), lexicon)
    assert {w["word"]: w["points"] for w in data["words"]} == {w.word: w.points for w in expected.words}
    faces = [f for row in data["grid"] for f in row]
    for w in data["words"]:
        path = w["path"]
        assert "".join(faces[r * 4 + c] for r, c in path) == w["word"]
        assert len({tuple(p) for p in path}) == len(path)
        assert all(_adjacent(a, b) for a, b in itertools.pairwise(path))
    assert data["lexicon"]["trie_sha256"] == lexicon.manifest["trie_sha256"]


def test_solve_rules_change_the_score(client: TestClient) -> None:
    base = {"board": "perslatgsineters", "lexicon": "en-enable2k"}
    no_diag = client.get("/api/solve", params={**base, "diagonals": "false"}).json()
    longer = client.get("/api/solve", params={**base, "min_length": 5, "scoring": "word-count"}).json()
    assert no_diag["rules"]["diagonals"] is False and no_diag["score"] < 3625
    assert longer["rules"]["min_length"] == 5 and longer["score"] == longer["n_words"]
    assert all(len(w["word"]) >= 5 for w in longer["words"])


def test_solve_non_latin_multi_letter_and_odd_shapes(client: TestClient) -> None:
    uk = client.get("/api/solve", params={"board": "соон/тшаш/єіон/ліне", "lang": "uk"}).json()
    assert uk["lang"] == "uk" and uk["lexicon"]["name"] == "uk" and uk["grid"][0] == ["с", "о", "о", "н"]
    qu = client.get("/api/solve", params={"board": "[qu]ite/rs.a", "lexicon": "en-enable2k"}).json()
    assert qu["rows"] == 2 and qu["cols"] == 4 and qu["grid"][0][0] == "qu" and qu["grid"][1][2] == ""
    assert "quit" in {w["word"] for w in qu["words"]}
    shaped = client.get("/api/solve", params={"board": "perslatgsine", "size": "3x4", "lexicon": "en-enable2k"})
    assert shaped.json()["rows"] == 3


BAD = [
    ("/api/solve", {}, 400, "give a board"),
    ("/api/solve", {"board": "abc"}, 400, "not a square"),
    ("/api/solve", {"board": "abcd", "lang": "zz"}, 400, "unknown language"),
    ("/api/solve", {"board": "abcd", "lexicon": "../../etc/passwd"}, 400, "lexicon name"),
    ("/api/solve", {"board": "abcd", "lexicon": "x.marisa"}, 400, "lexicon name"),
    ("/api/solve", {"board": "a" * 121, "size": "11x11"}, 400, "too large"),
    ("/api/solve", {"board": "a" * 900}, 400, "too large"),
    ("/api/solve", {"board": "a" * 1001}, 400, "longer than 1000"),
    ("/api/solve", {"board": "abcd", "min_length": "x"}, 400, "whole number"),
    ("/api/solve", {"board": "abcd", "min_length": "0"}, 400, "--min-length must be in 1..4,096"),  # library's range
    ("/api/solve", {"board": "abcd", "scoring": "nope"}, 400, "scoring"),
    ("/api/solve", {"board": "abcd", "diagonals": "maybe"}, 400, "true or false"),
    ("/api/solve", {"board": "abcd", "size": "0x0"}, 400, ""),
    ("/api/solve", {"board": "ab[cd", "lexicon": "en-enable2k"}, 400, ""),
    ("/api/solve", {"board": "abcd", "lexicon": "no-such-lexicon"}, 400, "no-such-lexicon"),
    ("/api/roll", {"lang": "zz"}, 400, "unknown language"),
    ("/api/roll", {"dice": "no-such-dice"}, 400, "dice"),
    ("/api/roll", {"lang": "nl", "size": "7x7"}, 400, "letters"),
    ("/api/roll", {"lang": "en", "size": "20x20", "letters": "uniform"}, 400, "too large"),
    ("/api/roll", {"lang": "en", "letters": "vowels"}, 400, "letters"),
    ("/api/roll", {"lang": "en", "seed": "-1"}, 400, "seed"),
    ("/api/lookup", {}, 400, "give a word"),
    ("/api/lookup", {"word": "x" * 65}, 400, "longer than 64"),
    ("/api/lookup", {"word": "kaas", "lang": "zz"}, 400, "unknown language"),
    ("/api/lexicons/Bad..Name", {}, 400, "lexicon name"),
    ("/api/jobs/0123456789abcdef", {}, 404, "no such job"),
    ("/api/jobs/0123456789abcdef/events", {}, 404, "no such job"),
    ("/api/nothing-here", {}, 404, ""),
    ("/static/../web/app.py", {}, 404, ""),
    ("/static/%2e%2e/app.py", {}, 404, ""),
    ("/static/..%2fapp.py", {}, 404, ""),
]


@pytest.mark.parametrize(("path", "params", "status", "says"), BAD)
def test_bad_requests_are_one_json_line(
    client: TestClient, path: str, params: dict[str, str], status: int, says: str
) -> None:
    r = client.get(path, params=params)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert says in error and "\n" not in error and "Traceback" not in error
    if status == 400 and params.get("letters") != "vowels":  # a roll mode the page never sends: English only
        # every refusal the page can meet has the library's code and params, for the page to word (errors.CODES)
        body = r.json()
        assert body.get("code") in CODES and set(body["params"]) == set(CODES[body["code"]]), body


def test_huge_query_string_is_refused(client: TestClient) -> None:
    r = client.get("/api/solve?board=" + "a" * 5000)
    assert r.status_code == 414 and "query string" in r.json()["error"]


def test_static_files_stay_inside_the_asset_folder(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<title>boggle-i18n</title>" in page.text
    assert client.get("/static/app.js").status_code == 200
    for path in (
        "/static/../../boggle_i18n/__init__.py",
        "/static//etc/passwd",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
    ):
        r = client.get(path)
        assert r.status_code == 404 and "import" not in r.text and "root:" not in r.text


def test_page_loads_nothing_from_outside(client: TestClient) -> None:
    """No CDN: every src/href of the page and its scripts is local (or a data: URL)."""
    import re

    html = client.get("/").text
    links = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert links and all(link.startswith(("/static/", "data:", "#")) for link in links)
    for asset in ("/static/app.js", "/static/board.js", "/static/i18n.js", "/static/style.css", "/static/i18n/he.json"):
        text = client.get(asset).text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text


def test_roll_is_reproducible_and_labelled(client: TestClient) -> None:
    one = client.get("/api/roll", params={"lang": "nl", "seed": 7}).json()
    two = client.get("/api/roll", params={"lang": "nl", "seed": 7}).json()
    assert one == two and one["dice"] == "nl-4x4" and one["seed"] == 7 and one["letters"] is None
    uk = client.get("/api/roll", params={"lang": "uk", "letters": "lexicon", "seed": 3}).json()
    assert uk["letters"] == "lexicon" and uk["lexicon"] == "uk" and uk["rows"] == 4
    assert all("\u0400" <= ch <= "\u04ff" for ch in uk["board"].replace("/", ""))
    big = client.get("/api/roll", params={"lang": "en", "size": "5x5"}).json()
    assert big["dice"].startswith("en-big-5x5") and big["rows"] == 5


def test_lookup(client: TestClient) -> None:
    """The library's lookup: yes with the form the lexicon holds; no with the reason (a stage, or the source)."""
    yes = client.get("/api/lookup", params={"word": " Kaas ", "lang": "nl"}).json()
    assert {k: yes[k] for k in ("lexicon", "lang", "word", "key", "found")} == {
        "lexicon": "nl",
        "lang": "nl",
        "word": " Kaas ",
        "key": "kaas",
        "found": True,
    }
    no = client.get("/api/lookup", params={"word": "kaasx", "lang": "nl"}).json()
    assert no["found"] is False and no["reason"] == "not in the source of nl"
    dropped = client.get("/api/lookup", params={"word": "Amsterdam", "lang": "nl"}).json()
    assert dropped["found"] is False and dropped["dropped_by"]["stage"] == "drop-capitalised"
    assert client.get("/api/lookup", params={"word": "кіт", "lang": "uk"}).json()["found"] is True


def test_languages_and_lexicons(client: TestClient) -> None:
    data = client.get("/api/languages").json()
    codes = [lang["lang"] for lang in data["languages"]]
    assert sorted(codes) == sorted(languages()) and {"en", "nl", "uk", "bg", "sk", "kk"} <= set(codes)
    direction = {lang["lang"]: (lang["script"], lang["direction"]) for lang in data["languages"]}
    assert direction["he"] == ("Hebrew", "rtl") and direction["el"] == ("Greek", "ltr")  # the page's RTL flag
    status = {lang["lang"]: lang["status"] for lang in data["languages"]}
    assert status["ko"] == "beta" and status["en"] == "stable"  # the page offers beta languages, marked beta
    en = next(lang for lang in data["languages"] if lang["lang"] == "en")
    assert {"id": "en-new-4x4", "size": "4x4", "min_length": 3, "scoring": "classic-4x4"} in en["dice_sets"]
    assert "classic-4x4" in data["scoring"]
    lex = client.get("/api/lexicons").json()
    assert {"en-enable2k", "nl", "uk"} <= set(lex["built"])
    assert client.get("/api/lexicons/nl").json()["state"] == "loaded"


def test_a_missing_lexicon_is_built_by_a_post_never_by_a_get(tmp_path: Path) -> None:
    """Scottish Gaelic (Debian wgaelic) is not built: GETs say so (409) and write nothing; a POST builds it, while
    it builds the answers are 202 with progress (never a hang), then the board is solved."""
    from conftest import require_file

    require_file(Path("/usr/share/dict/gaelic"), "Debian's wgaelic")
    store = tmp_path / "store"
    with local(create_app(store, None)) as c:
        for _ in range(2):
            r = c.get("/api/solve", params={"board": "taigh/balla/cnoca/dorus/eilea", "lang": "gd"})
            assert r.status_code == 409 and r.json()["not_built"] == "gd" and "POST" in r.json()["error"]
        assert c.get("/api/lookup", params={"word": "taigh", "lang": "gd"}).status_code == 409
        assert c.get("/api/roll", params={"lang": "gd", "letters": "lexicon"}).status_code == 409
        assert c.get("/api/lexicons/gd").json()["state"] == "not built"
        assert not store.exists() or not any(store.iterdir())  # nothing built or written by a GET
        first = c.post("/api/lexicons/gd/build", json={})
        assert first.status_code in (200, 202), first.text
        answers = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            r = c.get("/api/solve", params={"board": "taigh/balla/cnoca/dorus/eilea", "lang": "gd"})
            answers.append(r.status_code)
            if r.status_code == 200:
                break
            assert r.status_code == 202 and r.json()["building"] == "gd"
        assert answers[-1] == 200 and r.json()["lexicon"]["name"] == "gd"
        assert (store / "gd.marisa").is_file()
        status = c.get("/api/lexicons").json()["server"]["gd"]
        assert status["state"] == "loaded" and any("building" in line for line in status["lines"])
        again = c.post("/api/lexicons/gd/build", json={})
        assert again.status_code == 200 and again.json()["state"] == "loaded"


def test_records_from_result_files(client: TestClient, tmp_path: Path) -> None:
    """The shipped records plus the results folder's: per lexicon, size and dice set the best board of both."""
    from boggle_i18n.prove.shipped import load_records

    data = client.get("/api/records").json()
    records = data["records"]
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(data["folder"]).glob("*.json"))]
    shipped_runs, _, shipped_proofs = load_records(None)
    mine = [r for r in records if r["lexicon"] == "en-enable2k" and r["size"] == "4x4" and not r["dice"]]
    assert len(mine) == 1 and mine[0]["proven"] is False
    same = [r for r in shipped_runs if r["settings"]["lexicon"] == "en-enable2k" and r.get("rows") == 4]
    assert mine[0]["score"] == max(r["best"][0]["score"] for r in [*runs, *same])
    # Records from the package alone: every shipped proof shows, marked proven, from any folder.
    with local(create_app(None, tmp_path / "none")) as c:
        alone = c.get("/api/records").json()
    assert alone["folder"] is None and alone["records"] and all(r["shipped"] for r in alone["records"])
    proven = {(r["lexicon"], r["size"]) for r in alone["records"] if r["proven"]}
    assert proven == {(p["settings"]["lexicon"], f"{p['rows']}x{p['cols']}") for p in shipped_proofs if p["complete"]}
    # A complete proof file (as `prove --output` writes it) beside the runs: its board is marked proven.
    proofs = tmp_path / "with-proof"
    shutil.copytree(data["folder"], proofs)
    top = max(runs, key=lambda r: r["best"][0]["score"])
    proof = {
        "kind": "proof",
        "complete": True,
        "proven_best": dict(top["best"][0]),
        "boards": [top["best"][0]],
        "threshold": top["best"][0]["score"],
        "classes": 1,
        "cpu_seconds": 1.0,
        "settings": {k: top["settings"][k] for k in ("lexicon", "size", "rules")},
        "command": "boggle-i18n prove ...",
    }
    (proofs / "proof.json").write_text(json.dumps(proof), encoding="utf-8")
    with local(create_app(None, proofs)) as c:
        got = c.get("/api/records").json()["records"]
        (record,) = [r for r in got if r["lexicon"] == "en-enable2k" and r["size"] == "4x4" and not r["dice"]]
        assert (
            record["proven"] is True
            and record["board"] == top["best"][0]["board"]
            and record["file"] == "proof.json"
            and record["shipped"] is False
        )
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.json").write_text("{", encoding="utf-8")
    with local(create_app(None, tmp_path / "bad")) as c:
        r = c.get("/api/records")
        assert r.status_code == 400 and "not JSON" in r.json()["error"]


HAND_EDITS = [
    ("best-not-a-list", lambda d: d.update(best=5)),
    ("score-not-a-number", lambda d: d["best"][0].update(score="lots")),
    ("score-a-bool", lambda d: d["best"][0].update(score=True)),
    ("board-not-text", lambda d: d["best"][0].update(board=5)),
    ("settings-a-list", lambda d: d.update(settings=[1])),
    ("best-entry-text", lambda d: d.update(best=["x"])),
    ("n-words-text", lambda d: d["best"][0].update(n_words="many")),
]


@pytest.mark.parametrize(("name", "edit"), HAND_EDITS, ids=[name for name, _ in HAND_EDITS])
def test_records_answer_an_error_naming_a_hand_edited_file(
    results_dir: Path, tmp_path: Path, name: str, edit: Any
) -> None:
    """A result file edited by hand is a 400 that names it (the server used to answer 500)."""
    folder = tmp_path / "results"
    shutil.copytree(results_dir, folder)
    victim = sorted(folder.glob("*.json"))[0]
    data = json.loads(victim.read_text(encoding="utf-8"))
    edit(data)
    victim.write_text(json.dumps(data), encoding="utf-8")
    with local(create_app(None, folder), raise_server_exceptions=False) as c:
        r = c.get("/api/records")
        assert r.status_code == 400 and victim.name in r.json()["error"], r.text


def test_records_mark_a_complete_proof() -> None:
    """A `prove` result file (kind "proof") gives the proven best, which wins a tie with a found board."""
    from boggle_i18n.web.app import best_records

    settings = {"lexicon": "en-enable2k", "size": "3x3", "rules": {"min_length": 3}}
    found = {"best": [{"board": "ste/ard/elp", "score": 545, "n_words": 267}], "settings": settings}
    proof = {
        "kind": "proof",
        "complete": True,
        "settings": settings,
        "boards": [],
        "proven_best": {"board": "ste/ard/elp", "score": 545, "n_words": 267},
    }
    partial = {**proof, "complete": False, "proven_best": None}
    (record,) = best_records([found, proof, partial])
    assert record["proven"] is True and record["score"] == 545
    (record,) = best_records([found, partial])
    assert record["proven"] is False


def _wait(client: TestClient, job: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/api/jobs/{job}").json()
        if state["state"] != "running":
            return state
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running")


def test_compare_job(client: TestClient) -> None:
    r = client.post("/api/compare", json={"langs": ["en", "nl"], "boards": 200, "seed": 1})
    assert r.status_code == 202
    done = _wait(client, r.json()["id"])
    assert done["state"] == "done" and [row[0] for row in done["result"]["rows"]] == ["en", "nl"]
    langs = done["result"]["languages"]
    assert [len(x["scores"]) for x in langs] == [200, 200] and langs[0]["max"] == max(langs[0]["scores"])
    # one basis for the table: en and nl both have 4x4 dice, so both roll dice under the same rules
    assert done["result"]["params"]["roll"] == "dice"
    assert {x["boards_from"]["kind"] for x in langs} == {"dice"}
    assert len(done["result"]["columns"]) == len(done["result"]["headers"]) and done["result"]["columns"][0] == "lang"
    # Progress in numbers and names (no English sentence): the page words it in its interface language.
    events = []
    with client.stream("GET", f"/api/jobs/{done['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))
    steps = [(e.get("step"), e.get("lang")) for e in events[:-1]]
    assert steps == [(s, lang) for lang in ("en", "nl") for s in ("loading", "rolling", "done")]
    assert not any("message" in e for e in events)
    rolling = next(e for e in events if e.get("step") == "rolling")
    assert rolling["boards"] == 200 and rolling["size"] == "4x4" and rolling["source"]["kind"] == "dice"
    assert rolling["source"]["dice"] and rolling["seed"].isdigit()  # 63 bits: a string, exact in JavaScript


def test_optimize_job_streams_progress_and_stops(client: TestClient) -> None:
    r = client.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 120, "seed": 1})
    assert r.status_code == 202
    job = r.json()["id"]
    kinds = []
    with client.stream("GET", f"/api/jobs/{job}/events") as events:
        for line in events.iter_lines():
            if line.startswith("event: "):
                kinds.append(line[7:])
            if line.startswith("data: ") and '"best"' in line and kinds[-1] == "progress":
                assert client.post(f"/api/jobs/{job}/stop", json={}).json()["stopping"] is True
            if kinds and kinds[-1] == "end":
                break
    assert "progress" in kinds and kinds[-1] == "end"
    done = _wait(client, job)
    assert done["state"] == "stopped" and done["seconds"] < 60
    assert done["result"]["stopped"] == "interrupted" and done["result"]["best"][0]["score"] > 0


def test_a_page_that_goes_away_stops_its_job(client: TestClient) -> None:
    job = client.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 120}).json()["id"]
    with client.stream("GET", f"/api/jobs/{job}/events") as events:
        next(events.iter_lines())
    assert _wait(client, job, 30)["state"] == "stopped"


def test_a_page_that_goes_away_while_the_server_writes_stops_its_job(web_store: Path) -> None:
    """The page leaves while an event is being written to it (a stalled connection): the response is cancelled
    inside `send`, where the stream's generator sits at its `yield` and would only be closed when garbage-collected.
    The job must be stopped by the time the response returns, not whenever that happens."""
    app = create_app(web_store, None)
    with local(app) as c:
        job = c.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 120}).json()["id"]

        async def page_goes_away() -> bool:
            writing, stalled = asyncio.Event(), asyncio.Event()

            async def send(message: dict) -> None:
                if message["type"] == "http.response.body" and message.get("more_body"):
                    writing.set()
                    await stalled.wait()  # never set: the client stopped reading

            async def receive() -> dict:
                await writing.wait()
                return {"type": "http.disconnect"}

            path = f"/api/jobs/{job}/events"
            scope = {
                "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
                "query_string": b"", "headers": [(b"host", b"127.0.0.1")], "server": ("127.0.0.1", 80),
                "client": ("test", 1),
            }  # fmt: skip
            await app(scope, receive, send)
            return app.state.web.jobs.get(job).stop.is_set()  # told to stop (its thread may not have seen it yet)

        with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever test ran before (Playwright's sync API)
            assert thread.submit(lambda: asyncio.run(page_goes_away())).result(timeout=60)
        assert _wait(c, job, 30)["state"] == "stopped"


def test_long_jobs_are_limited_and_checked(client: TestClient) -> None:
    started = [client.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 120}) for _ in range(2)]
    assert [r.status_code for r in started] == [202, 202]
    third = client.post("/api/compare", json={"langs": ["en"], "boards": 10})
    assert third.status_code == 429 and "at most 2" in third.json()["error"]
    for r in started:
        client.post(f"/api/jobs/{r.json()['id']}/stop", json={})
        assert _wait(client, r.json()["id"], 30)["state"] == "stopped"
    bad = [
        ("/api/compare", {"langs": "en"}, "list"),
        ("/api/compare", {"langs": ["zz"]}, "unknown language"),
        ("/api/compare", {"langs": ["en"], "boards": 0}, "between 1"),
        ("/api/compare", {"langs": ["en"] * 9}, "at most 8"),
        ("/api/compare", {"langs": ["en"], "size": "30x30"}, "too large"),
        ("/api/optimize", {"time_limit": 0}, "between"),
        ("/api/optimize", {"time_limit": 1e9}, "between"),
        ("/api/optimize", {"time_limit": "soon"}, "number"),
        ("/api/optimize", {"lang": "zz"}, "unknown language"),
        ("/api/optimize", {"strategy": "guess", "lexicon": "en-enable2k", "time_limit": 1}, "unknown strategy"),
        ("/api/optimize", {"lexicon": "en-enable2k", "time_limit": True}, "number"),
        ("/api/optimize", {"lexicon": "en-enable2k", "seed": 1.5}, "whole number"),
        ("/api/compare", {"langs": ["en"], "boards": 1.5}, "whole number"),  # refused, not truncated to 1
        ("/api/compare", {"langs": ["en"], "boards": True}, "whole number"),
        ("/api/compare", {"langs": ["en"], "boards": 1e400}, "whole number"),  # JSON's 1e400 is infinity
        ("/api/compare", {"langs": ["en"], "seed": 10**400}, "--seed must be in"),  # the library's range
    ]
    for path, body, says in bad:
        r = client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and says in r.json()["error"], (path, body, r.text)
    assert app_jobs_running(client) == 0  # none of them started a job
    for body in (b"{", b"[1]", b"x" * 20_000, b"[" * 8000 + b"]" * 8000, b'{"a":' * 2500 + b"1" + b"}" * 2500):
        r = client.post("/api/compare", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]


def app_jobs_running(client: TestClient) -> int:
    return int(client.app.state.web.jobs.running())  # type: ignore[attr-defined]


def test_shutdown_stops_running_jobs(web_store: Path) -> None:
    with local(create_app(web_store, None)) as c:
        job = c.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 300}).json()["id"]
        app_jobs = c.app.state.web.jobs  # type: ignore[attr-defined]
        while not app_jobs.get(job).events:
            time.sleep(0.05)
    assert app_jobs.get(job).state == "stopped" and not any(
        t.name.startswith("job-") and t.is_alive() for t in threading.enumerate()
    )


def test_docs_list_every_route() -> None:
    """docs/web.md documents exactly the routes the app serves."""
    app = create_app(None, None)
    served = {
        f"{m} {route.path}"
        for route in app.routes
        if getattr(route, "methods", None) and route.path.startswith("/api/")
        for m in route.methods
        if m != "HEAD"
    }
    assert served == set(ROUTES)
    doc = (REPO / "docs" / "web.md").read_text(encoding="utf-8")
    for route in ROUTES:
        assert f"`{route}`" in doc, route


def test_serve_says_where_it_listens_and_stops_on_ctrl_c(web_store: Path, tmp_path: Path) -> None:
    from web_support import Server

    server = Server(web_store, tmp_path)
    code, err = server.stop()
    assert code == 0 and f"serving http://127.0.0.1:{server.port}/" in err and "stopped" in err
    assert "Traceback" not in err


def test_serve_bad_input_is_one_error_line() -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cases = [
            (["--port", str(port)], 1, f"cannot listen on 127.0.0.1:{port}"),
            (["--port", "70000"], 2, "--port"),
            (["--host", "no-such-host.invalid", "--port", "0"], 1, "cannot listen on no-such-host.invalid"),
            (["--port", "0", "--allow-host", "http://evil.example/"], 1, "--allow-host takes a host name"),
        ]
        for args, code, says in cases:
            run = subprocess.run(
                [sys.executable, "-m", "boggle_i18n", "serve", *args], capture_output=True, text=True, timeout=60
            )
            lines = run.stderr.strip().splitlines()
            assert run.returncode == code and len(lines) == 1 and lines[0].startswith("Error: "), run.stderr
            assert says in lines[0]


def test_one_build_at_a_time_and_failed_loads_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three missing lexicons asked for at once build one after another; a failed load is retried, not kept."""
    from boggle_i18n.errors import BoggleI18nError, LexiconError
    from boggle_i18n.lexicon.store import Lexicon
    from boggle_i18n.web import state

    running, most = [0], [0]
    lock = threading.Lock()

    def fake_load(name, store, on_build=None, progress=None, on_read=None):  # type: ignore[no-untyped-def]
        if name == "broken":
            raise LexiconError("no source for broken")
        on_build(name)
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.2)
        with lock:
            running[0] -= 1
        return Lexicon.from_words(["abc"], name=name)

    monkeypatch.setattr(state, "load_lexicon", fake_load)
    lexicons = state.Lexicons(None)
    results: list[str] = []
    threads = [
        threading.Thread(target=lambda n=n: results.append(lexicons.get(n, wait=10, build=True).name))
        for n in ("a", "b", "c")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["a", "b", "c"] and most[0] == 1
    lines = [line for s in lexicons.status().values() for line in s["lines"]]
    assert any("waiting for another build" in line for line in lines)
    for _ in range(2):
        with pytest.raises(BoggleI18nError, match="no source for broken"):
            lexicons.get("broken")
    assert "broken" not in lexicons.status()
    with pytest.raises(state.NotBuilt):  # without build=True (a GET) a lexicon that needs a build is not built
        lexicons.get("d")
    assert lexicons.get("d", build=True).name == "d"


def test_ctrl_c_with_a_job_streaming_stops_cleanly(web_store: Path, tmp_path: Path) -> None:
    """Ctrl-C while a search runs and its page listens: the stream gets its end, the server exits 0 at once."""
    import http.client

    from web_support import Server

    server = Server(web_store, tmp_path)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    body = json.dumps({"lexicon": "en-enable2k", "time_limit": 300})
    conn.request("POST", "/api/optimize", body=body, headers={"Content-Type": "application/json"})
    job = json.loads(conn.getresponse().read())["id"]
    conn.request("GET", f"/api/jobs/{job}/events")
    stream = conn.getresponse()
    seen: list[bytes] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # bounded: a stream that ends or never reports fails, never hangs
        line = stream.readline()
        seen.append(line)
        if not line or b'"best"' in line:
            break
    assert seen and b'"best"' in seen[-1], b"".join(seen[-20:]).decode(errors="replace")
    started = time.monotonic()
    code, err = server.stop()
    rest = stream.read().decode()
    assert code == 0 and "Traceback" not in err and "ERROR" not in err, err
    assert time.monotonic() - started < 10
    assert "event: end" in rest and '"state": "stopped"' in rest


def test_solve_and_lookup_say_how_words_and_faces_are_shown_and_counted(client: TestClient) -> None:
    """The page prints what the library decides: `shown_grid` (the language's capitals: `Qu`), each word's
    `shown` (Greek final ς, Korean syllables; English as stored), and lookup's `length` in the lexicon's letters,
    which the game's too-short check uses (tests/test_languages.py covers Turkish İ, tests/test_hangul.py Korean)."""
    solved = client.get("/api/solve", params={"board": "q.es/iter/nsab/tlod", "lang": "en"}).json()
    assert solved["shown_grid"][0][:2] == ["Qu", "."] and solved["grid"][0][:2] == ["qu", ""]
    assert solved["words"] and not [w for w in solved["words"] if "shown" in w]  # English writes words as stored
    kaas = client.get("/api/lookup", params={"word": "Kaas", "lang": "nl"}).json()
    assert kaas["length"] == 4
    short = client.get("/api/lookup", params={"word": "ka", "lang": "nl"}).json()
    assert short["found"] is False and (short["category"] == "length" or short["length"] == 2)
