"""The page in a real browser: Debian's chromium driven by Playwright, against `boggle-i18n serve` started here.

One server and one browser per session. With BOGGLE_I18N_SCREENSHOTS=DIR each
view is saved as DIR/VIEW.png (docs/web.md shows them). Under CI=true a missing
chromium or Playwright fails the tests, it never skips them.
"""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import require_file
from web_support import REPO, Server, make_web_store

pytestmark = pytest.mark.shared

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT = 30_000  # ms: a loaded 2-core machine


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Iterator[Server]:
    store = make_web_store(tmp_path_factory.mktemp("browser") / "store", built_store)
    srv = Server(store, REPO / "results")
    yield srv
    code, err = srv.stop()
    assert code == 0 and "Traceback" not in err, err


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require_file(CHROMIUM, "Debian's chromium: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if _ci():
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    outside: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith((server.url, "data:")) else outside.append(r.url))
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not outside, f"requests left the machine: {outside}"
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("BOGGLE_I18N_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def api(server: Server, path: str, **params: Any) -> Any:
    with urllib.request.urlopen(f"{server.url}{path}?{urllib.parse.urlencode(params)}", timeout=30) as r:
        return json.load(r)


def open_page(page: Any, server: Server, query: str = "") -> None:
    page.goto(f"{server.url}/{query}")
    page.wait_for_selector("body[data-ready=true]")


def solved_board(page: Any) -> tuple[str, int]:
    page.wait_for_selector("#total")
    summary = page.text_content("#solve-summary")
    board = summary.split(" · ")[1].split(" (")[0]
    return board, int(page.text_content("#total").split()[1])


@pytest.mark.parametrize(("lang", "lexicon"), [("en", "en-enable2k"), ("nl", "nl"), ("uk", "uk")])
def test_roll_and_solve(page: Any, server: Server, lang: str, lexicon: str) -> None:
    open_page(page, server)
    page.select_option("#lang", lang)
    page.select_option("#lexicon", lexicon)
    if lang == "uk":  # no Ukrainian dice: letters drawn by the lexicon's letter frequencies
        assert page.eval_on_selector("#dice", "d => d.value") == "letters:lexicon"
    page.click("#roll")
    page.wait_for_function("document.querySelector('#board-text').value !== ''")
    page.wait_for_selector(f"#solve-summary:has-text('· {lang}')")
    board, score = solved_board(page)
    expected = api(server, "/api/solve", board=board, lang=lang, lexicon=lexicon)
    assert score == expected["score"] and page.locator("#words li").count() == expected["n_words"]
    cells = page.locator("#solve-board .cell").all_text_contents()
    assert [c.lower() for c in cells] == [f for row in expected["grid"] for f in row]
    if lang == "uk":
        assert all("\u0400" <= ch <= "\u04ff" for ch in "".join(cells))
    shot(page, f"solve-{lang}")


def test_hover_draws_the_path(page: Any, server: Server) -> None:
    open_page(page, server, "?board=perslatgsineters&lexicon=en-enable2k&lang=en")
    assert solved_board(page) == ("pers/latg/sine/ters", 3625)
    page.select_option("#sort", "length")
    first = page.locator("#words li").first
    assert first.get_attribute("data-word") == "replastering"
    expected = api(server, "/api/solve", board="perslatgsineters", lexicon="en-enable2k")
    path = next(w["path"] for w in expected["words"] if w["word"] == "replastering")
    first.hover()
    drawn = page.get_attribute("#solve-path", "data-path")
    assert drawn == " ".join(f"{r},{c}" for r, c in path)
    on = page.eval_on_selector_all("#solve-board .cell.on", "cs => cs.map(c => [+c.dataset.r, +c.dataset.c])")
    assert sorted(on) == sorted(path)
    assert page.eval_on_selector("#solve-board .cell.first", "c => [+c.dataset.r, +c.dataset.c]") == path[0]
    assert page.eval_on_selector("#solve-board .cell.last", "c => [+c.dataset.r, +c.dataset.c]") == path[-1]
    assert page.locator("#solve-path line").count() == len(path) - 1
    page.fill("#filter", "plaster")
    assert all("plaster" in w for w in page.locator("#words li .w").all_text_contents())
    shot(page, "solve")


def test_a_shared_url_gives_the_same_board_and_score(page: Any, server: Server, browser: Any) -> None:
    open_page(page, server)
    page.select_option("#lang", "nl")
    page.click("#rules-box summary")
    page.fill("#min-length", "4")
    page.uncheck("#diagonals")
    page.click("#roll")
    page.wait_for_selector("#solve-summary:has-text('· nl')")
    board, score = solved_board(page)
    url = page.input_value("#share-url")
    assert "min_length=4" in url and "diagonals=false" in url
    other = browser.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]")
    assert solved_board(other) == (board, score)
    assert other.locator("#words li").count() == page.locator("#words li").count()
    rules = other.text_content("#rules-summary")
    assert "4+ letters" in rules and "diagonals off" in rules
    other.reload()
    other.wait_for_selector("body[data-ready=true]")
    assert solved_board(other) == (board, score)
    other.close()


def test_play_a_short_game_by_keyboard(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k&view=play")
    page.fill("#play-minutes", "0.25")
    page.focus("#play-start")
    page.keyboard.press("Enter")
    page.wait_for_function("!document.querySelector('#play-input').disabled")
    board = page.text_content("#solve-summary").split(" · ")[1].split(" (")[0]
    solved = api(server, "/api/solve", board=board, lexicon="en-enable2k")
    words = {w["word"]: w for w in solved["words"]}
    page.keyboard.type(solved["words"][0]["word"])
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback[data-kind=found]")
    assert f"+{solved['words'][0]['points']}" in page.text_content("#play-feedback")
    page.keyboard.type(solved["words"][0]["word"])
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback[data-kind=already]")
    page.keyboard.type("qzxv")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback[data-kind=not-word]")
    off_board = next(w for w in ("zyzzyva", "jukebox", "quixotic", "rhythm", "oxygen") if w not in words)
    page.keyboard.type(off_board)
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback[data-kind=not-on-board]")
    page.keyboard.type("at")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback[data-kind=short]")
    shot(page, "play")
    page.wait_for_selector("#play-feedback[data-kind=over]", timeout=40_000)
    over = page.text_content("#play-feedback")
    assert f"{solved['words'][0]['points']} of {solved['score']} points" in over
    assert page.locator("#play-missed li").count() == solved["n_words"] - 1
    page.locator("#play-missed li").first.hover()
    assert page.get_attribute("#play-path", "data-path")
    shot(page, "play-over")


def test_is_it_a_word(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=nl&view=word")
    page.fill("#word-input", "Kaas")
    page.keyboard.press("Enter")
    page.wait_for_selector("#word-answer[data-found=true]")
    page.fill("#word-input", "kaasx")
    page.keyboard.press("Enter")
    page.wait_for_selector("#word-answer[data-found=false]")
    shot(page, "word")


def test_start_and_stop_a_search_then_open_the_best_board(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k&view=search")
    page.fill("#search-time", "120")
    page.click("#search-start")
    page.wait_for_selector("#search-progress:has-text('boards/s')")
    shot(page, "search")
    page.click("#search-stop")
    page.wait_for_selector("#search-progress:has-text('stopped')", timeout=20_000)
    assert page.is_enabled("#search-start") and not page.is_enabled("#search-stop")
    best = page.locator("#search-best a").first
    score, board = best.text_content().split()
    best.click()
    page.wait_for_selector("body[data-ready=true]")
    assert solved_board(page) == (board, int(score))


def test_compare_chart(page: Any, server: Server) -> None:
    open_page(page, server, "?view=compare")
    for lang in ("en", "nl", "uk"):
        page.check(f"#compare-langs input[value={lang}]")
    page.fill("#compare-boards", "300")
    page.click("#compare-start")
    page.wait_for_selector("#compare-chart polyline.series >> nth=2", state="attached", timeout=60_000)
    assert page.locator("#compare-table tbody tr").count() == 3
    assert [x.get_attribute("data-lang") for x in page.locator("#compare-chart polyline.series").all()] == [
        "en",
        "nl",
        "uk",
    ]
    assert "uk: 300 4x4 boards" in page.text_content("#compare-progress")
    shot(page, "compare")


def test_records(page: Any, server: Server) -> None:
    open_page(page, server, "?view=records")
    page.wait_for_selector("#records tbody tr")
    rows = page.locator("#records tbody tr").count()
    assert rows == len(api(server, "/api/records")["records"]) > 0
    shot(page, "records")
