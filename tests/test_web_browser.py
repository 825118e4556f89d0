"""The page in a real browser: Debian's chromium driven by Playwright, against `boggle-i18n serve` started here.

One server and one browser per session. Each part of the page is checked at a desktop size and at phone
sizes (390x844 and 360 wide, with touch), in several interface languages (English, Dutch, German, French,
Polish) and one right-to-left language (Hebrew). With BOGGLE_I18N_SCREENSHOTS=DIR the views are saved as
DIR/NAME.png (docs/web.md shows them). The accessibility audit injects axe-core, installed from the npm
registry into the git-ignored `.npm/` by `web_support.axe_script` (and by .ci/run). Under CI=true a missing
chromium, Playwright or axe-core fails the tests, it never skips them.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import REPO, Server, axe_script, make_web_store

pytestmark = pytest.mark.shared

TIMEOUT = 30_000  # ms: a loaded 2-core machine
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
NARROW = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SIZES = {"desktop": DESKTOP, "phone": PHONE, "narrow": NARROW}


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Iterator[Server]:
    store = make_web_store(tmp_path_factory.mktemp("browser") / "store", built_store)
    srv = Server(store, REPO / "results")
    yield srv
    code, err = srv.stop()
    assert code == 0 and "Traceback" not in err, err


class Pages:
    """New pages at a given size and browser language; every one is checked for outside requests and errors."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.browser, self.server = browser, server
        self.contexts: list[Any] = []
        self.outside: list[str] = []
        self.errors: list[str] = []

    def new(self, size: str = "desktop", locale: str = "en-US") -> Any:
        context = self.browser.new_context(**SIZES[size], locale=locale)
        self.contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT)
        url = self.server.url
        pg.on("request", lambda r: None if r.url.startswith((url, "data:")) else self.outside.append(r.url))
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        return pg

    def close(self) -> None:
        for c in self.contexts:
            c.close()


@pytest.fixture
def pages(browser: Any, server: Server) -> Iterator[Pages]:
    made = Pages(browser, server)
    yield made
    made.close()
    assert not made.outside, f"requests left the machine: {made.outside}"
    assert not made.errors, made.errors


@pytest.fixture
def page(pages: Pages) -> Any:
    return pages.new("desktop")


def shot(page: Any, name: str, full: bool = False) -> None:
    folder = os.environ.get("BOGGLE_I18N_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def api(server: Server, path: str, **params: Any) -> Any:
    with urllib.request.urlopen(f"{server.url}{path}?{urllib.parse.urlencode(params)}", timeout=30) as r:
        return json.load(r)


def open_page(page: Any, server: Server, query: str = "") -> None:
    page.goto(f"{server.url}/{query}")
    page.wait_for_selector("body[data-ready=true]")


def solved_board(page: Any) -> tuple[str, int]:
    page.wait_for_selector("#total")
    return page.get_attribute("#solve-detail", "data-board"), int(page.get_attribute("#total", "data-score"))


def settled(page: Any, timeout: int = TIMEOUT) -> None:
    """No request in flight: the board shown is the last one asked for."""
    page.wait_for_function("state.busy === 0 && document.querySelector('#total') !== null", timeout=timeout)


def game(page: Any, server: Server) -> dict[str, Any]:
    """The running game's board, solved by the API (what the page must agree with)."""
    page.wait_for_function("state.busy === 0 && state.game !== null && state.game.solved !== undefined")
    page.wait_for_selector("body[data-game=running], body[data-game=over]", state="attached")
    board = page.get_attribute("#play-board", "data-board")
    return api(server, "/api/solve", board=board, lang=page.input_value("#lang"), lexicon=page.input_value("#lexicon"))


def centre(page: Any, cell: list[int], board: str = "#play-board") -> tuple[float, float]:
    box = page.locator(f"{board} .cell[data-r='{cell[0]}'][data-c='{cell[1]}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag_mouse(page: Any, path: list[list[int]]) -> None:
    page.mouse.move(*centre(page, path[0]))
    page.mouse.down()
    for cell in path[1:]:
        page.mouse.move(*centre(page, cell), steps=5)
    page.mouse.up()


def drag_touch(page: Any, path: list[list[int]], board: str = "#play-board") -> None:
    """A finger's swipe: CDP touch events, which chromium turns into pointer events of type touch."""
    cdp = page.context.new_cdp_session(page)
    x, y = centre(page, path[0], board)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for cell in path[1:]:
        nx, ny = centre(page, cell, board)
        for k in range(1, 6):
            point = {"x": x + (nx - x) * k / 5, "y": y + (ny - y) * k / 5}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        x, y = nx, ny
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def feedback(page: Any, kind: str) -> str:
    page.wait_for_selector(f"#play-feedback[data-kind={kind}]")
    return page.text_content("#play-feedback")


def pick_words(solved: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """`n` words of the board worth playing, longest first (the drag crosses more cells)."""
    words = sorted(solved["words"], key=lambda w: (-len(w["path"]), w["word"]))
    assert len(words) >= n, "the rolled board has too few words"
    return words[:n]


def no_sideways_scroll(page: Any) -> None:
    width = page.viewport_size["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{wide} px wide at {width} px ({page.url})"


# ---------------------------------------------------------------- the game


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_play_opens_on_a_fresh_board_that_solve_never_shows(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size)
    open_page(page, server)
    assert page.get_attribute("body", "data-view") == "play"
    solved = game(page, server)
    assert page.locator("#play-board .cell").count() == solved["rows"] * solved["cols"]
    assert page.locator("#play-missed li").count() == 0 and page.is_hidden("#play-summary")
    assert page.is_hidden("#roll") and page.is_hidden("#board-text")  # no control that changes the board mid-game
    shot(page, "play-start" if size == "desktop" else "play-start-phone")
    page.click("#tab-solve")
    solve_board, _ = solved_board(page)
    assert solve_board != solved["board"]
    listed = set(page.locator("#words li").evaluate_all("ls => ls.map(l => l.dataset.word)"))
    assert listed == {
        w["word"] for w in api(server, "/api/solve", board=solve_board, lexicon=page.input_value("#lexicon"))["words"]
    }
    page.click("#tab-play")
    assert page.get_attribute("#play-board", "data-board") == solved["board"]
    assert page.get_attribute("body", "data-game") == "running"


def test_changing_the_panel_starts_a_new_game(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    first = game(page, server)
    word = pick_words(first, 1)[0]
    page.fill("#play-input", word["word"])
    page.keyboard.press("Enter")
    feedback(page, "found")
    page.click("#settings summary")
    page.select_option("#size", "5x5")
    page.wait_for_selector("#play-board[data-cols='5']")
    second = game(page, server)
    assert second["rows"] == 5 and page.locator("#play-found li").count() == 0
    assert "0" in page.text_content("#play-score")
    page.select_option("#size", "4x4")
    page.wait_for_selector("#play-board[data-cols='4']")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_drag_with_the_mouse_equals_typing(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size)
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    solved = game(page, server)
    dragged, typed = pick_words(solved, 2)
    drag_mouse(page, dragged["path"])
    assert f"+{dragged['points']}" in feedback(page, "found")
    assert page.get_attribute("#play-path", "data-path") == " ".join(f"{r},{c}" for r, c in dragged["path"])
    assert page.locator("#play-found li").first.get_attribute("data-word") == dragged["word"]
    shot(page, "play" if size == "desktop" else "play-phone")
    page.fill("#play-input", dragged["word"])  # the same word typed: already found, so the two are one word
    page.keyboard.press("Enter")
    feedback(page, "already")
    page.fill("#play-input", typed["word"])
    page.keyboard.press("Enter")
    assert f"+{typed['points']}" in feedback(page, "found")
    drag_mouse(page, typed["path"])  # the typed word dragged: already found too
    feedback(page, "already")
    assert page.evaluate("state.game.score") == dragged["points"] + typed["points"]


def test_swipe_with_a_finger(pages: Pages, server: Server) -> None:
    page = pages.new("phone", locale="nl-NL")
    open_page(page, server, "?lang=nl")
    solved = game(page, server)
    word = pick_words(solved, 1)[0]
    drag_touch(page, word["path"])
    text = feedback(page, "found")
    assert text.startswith(word["word"]) and f"+{word['points']}" in text and "gevonden" in text
    assert page.evaluate("state.game.score") == word["points"]
    assert page.evaluate("window.scrollY") == 0  # the swipe played, it did not scroll the page


def test_backtracking_one_cell_undoes_it(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    solved = game(page, server)
    rows, cols = solved["rows"], solved["cols"]
    for word in pick_words(solved, min(len(solved["words"]), 40)):
        last = word["path"][-1]
        extra = next(
            (
                [r, c]
                for r in range(rows)
                for c in range(cols)
                if [r, c] not in word["path"] and max(abs(r - last[0]), abs(c - last[1])) == 1 and solved["grid"][r][c]
            ),
            None,
        )
        if extra is not None:
            break
    assert extra is not None
    page.mouse.move(*centre(page, word["path"][0]))
    page.mouse.down()
    for cell in word["path"][1:]:
        page.mouse.move(*centre(page, cell), steps=5)
    page.mouse.move(*centre(page, extra), steps=5)
    longer = word["word"] + solved["grid"][extra[0]][extra[1]]
    assert page.text_content("#play-current").lower() == longer
    page.mouse.move(*centre(page, last), steps=5)  # back onto the cell before: the extra cell is undone
    assert page.text_content("#play-current").lower() == word["word"]
    page.mouse.up()
    assert f"+{word['points']}" in feedback(page, "found")


def test_tap_letters_one_by_one(pages: Pages, server: Server) -> None:
    page = pages.new("narrow")
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    solved = game(page, server)
    word = pick_words(solved, 1)[0]
    for cell in word["path"]:
        page.touchscreen.tap(*centre(page, cell))
    assert page.text_content("#play-current").lower() == word["word"]
    page.touchscreen.tap(*centre(page, word["path"][-1]))  # the last letter again sends the word
    assert f"+{word['points']}" in feedback(page, "found")


def test_a_game_by_keyboard_with_every_feedback_then_the_end_and_a_challenge(pages: Pages, server: Server) -> None:
    page = pages.new("desktop")
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    game(page, server)
    page.fill("#play-minutes", "2")
    page.focus("#play-start")
    page.keyboard.press("Enter")  # New game by keyboard
    page.wait_for_function("state.game && state.game.minutes === 2")
    solved = game(page, server)
    words = {w["word"]: w for w in solved["words"]}
    first = pick_words(solved, 1)[0]
    page.focus("#play-input")
    page.keyboard.type(first["word"])
    page.keyboard.press("Enter")
    assert f"+{first['points']}" in feedback(page, "found")
    page.keyboard.type(first["word"].upper())
    page.keyboard.press("Enter")
    feedback(page, "already")
    page.keyboard.type("blorf")
    page.keyboard.press("Enter")
    assert "blorf: not a word (not in the source list)" == feedback(page, "not-word")
    page.keyboard.type("qzxv")  # q without u: no Qu die spells it
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-feedback:has-text('qzxv')")
    assert "has letters the game does not use" in feedback(page, "not-word")
    off_board = next(w for w in ("zyzzyva", "jukebox", "quixotic", "rhythm", "oxygen") if w not in words)
    page.keyboard.type(off_board)
    page.keyboard.press("Enter")
    feedback(page, "not-on-board")
    page.keyboard.type("at")
    page.keyboard.press("Enter")
    feedback(page, "short")
    page.click("#play-end")
    over = feedback(page, "over")
    assert over.startswith("Game over.") and f"{first['points']} of {solved['score']:,} points" in over
    assert page.locator("#play-missed li").count() == solved["n_words"] - 1
    page.locator("#play-missed li").first.hover()
    missed = page.locator("#play-missed li").first.get_attribute("data-word")
    assert page.get_attribute("#play-path", "data-path") == " ".join(f"{r},{c}" for r, c in words[missed]["path"])
    assert page.is_disabled("#play-input")
    result = page.text_content("#play-result")
    assert f"{first['points']}/{solved['score']}" in result and "1/" in result
    link = page.input_value("#challenge-url")
    shot(page, "play-over", full=True)
    # The friend's page: the same board, rules and time, and the score to beat.
    friend = pages.new("phone", locale="de-DE")
    friend.goto(link)
    friend.wait_for_selector("body[data-ready=true]")
    theirs = game(friend, server)
    assert theirs["board"] == solved["board"] and theirs["score"] == solved["score"]
    assert friend.evaluate("state.game.minutes") == 2 and friend.evaluate("state.game.vs") == first["points"]
    rules = friend.evaluate("state.game.solved.rules")
    assert rules == solved["rules"]
    assert "Herausforderung" in friend.text_content("#play-feedback")


def test_time_runs_out(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    game(page, server)
    page.fill("#play-minutes", "0.05")
    page.click("#play-start")
    page.wait_for_function("state.game && state.game.minutes === 0.05")
    assert feedback(page, "over").startswith("Time's up!")
    assert page.text_content("#play-timer") == "0:00"


# ---------------------------------------------------------------- solve, share, word, search, compare, records


@pytest.mark.parametrize(("lang", "lexicon"), [("en", "en-enable2k"), ("nl", "nl"), ("uk", "uk")])
def test_roll_and_solve(page: Any, server: Server, lang: str, lexicon: str) -> None:
    open_page(page, server, "?view=solve")
    page.select_option("#lang", lang)
    page.select_option("#lexicon", lexicon)
    if lang == "uk":  # no Ukrainian dice: letters drawn by the lexicon's letter frequencies
        assert page.eval_on_selector("#dice", "d => d.value") == "letters:lexicon"
    page.click("#roll")
    settled(page, timeout=120_000)  # uk: 1.5M words to load
    assert f"· {lang} ·" in page.text_content("#solve-detail")
    board, score = solved_board(page)
    expected = api(server, "/api/solve", board=board, lang=lang, lexicon=lexicon)
    assert score == expected["score"] and page.locator("#words li").count() == expected["n_words"]
    cells = page.locator("#solve-board .cell").all_text_contents()
    assert [c.lower() for c in cells] == [f for row in expected["grid"] for f in row]
    if lang == "uk":
        assert all("\u0400" <= ch <= "\u04ff" for ch in "".join(cells))
    shot(page, f"solve-{lang}")


def test_a_thai_board_shows_a_mark_on_a_dotted_circle(page: Any, server: Server) -> None:
    """Thai faces are characters as stored: a tone mark or vowel sign alone is shown on a dotted circle (◌้),
    never in the board's key; the words are the solver's (บ้าน, its path through the mark's cell)."""
    open_page(page, server, "?view=solve&lang=th&lexicon=th&board=" + urllib.parse.quote("บ้/นา"))
    settled(page)
    board, score = solved_board(page)
    expected = api(server, "/api/solve", board=board, lang="th", lexicon="th")
    assert board == "บ้/นา" and score == expected["score"]
    assert page.locator("#solve-board .cell").all_text_contents() == ["บ", "◌้", "น", "า"]
    assert "บ้าน" in {w["word"] for w in expected["words"]}
    assert "บ้าน" in " ".join(page.locator("#words li").all_text_contents())
    shot(page, "solve-th")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_words_path_is_drawn_and_stays_in_view(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size)
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
    # A word low in the list, tapped: its path is drawn on a board still on screen.
    low = page.locator("#words li").nth(200)
    low.scroll_into_view_if_needed()
    low.click()
    box = page.locator("#solve-board").bounding_box()
    height = page.viewport_size["height"]
    assert box["y"] >= -1 and box["y"] + box["height"] <= height + 1, box
    assert page.get_attribute("#solve-path", "data-path") == low.get_attribute("data-path")
    shot(page, "solve" if size == "desktop" else "solve-phone")
    page.fill("#filter", "plaster")
    assert all("plaster" in w for w in page.locator("#words li .w").all_text_contents())


def test_a_shared_url_gives_the_same_board_and_score(pages: Pages, server: Server) -> None:
    page = pages.new("desktop")
    open_page(page, server, "?view=solve&lang=nl")
    page.fill("#min-length", "4")
    page.uncheck("#diagonals")
    page.click("#roll")
    page.wait_for_function("state.solved && state.solved.rules.min_length === 4 && !state.solved.rules.diagonals")
    settled(page)
    board, score = solved_board(page)
    url = page.input_value("#share-url")
    assert "min_length=4" in url and "diagonals=false" in url
    other = pages.new("phone")
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]")
    assert solved_board(other) == (board, score)
    assert other.locator("#words li").count() == page.locator("#words li").count()
    rules = other.text_content("#rules-summary")
    assert "4 letters or more" in rules and "diagonals off" in rules
    other.reload()
    other.wait_for_selector("body[data-ready=true]")
    assert solved_board(other) == (board, score)


def test_the_web_refuses_what_the_cli_refuses(page: Any, server: Server) -> None:
    """ñ on an English board: one clear error, as `boggle-i18n solve` gives (tests/test_web_parity.py)."""
    open_page(page, server, "?view=solve&board=%C3%B1art%2Fabcd%2Fefgh%2Fijkl&lang=en&lexicon=en-enable2k")
    page.wait_for_selector("#message.error")
    text = page.text_content("#message")
    expected = api_error(server, "/api/solve", board="ñart/abcd/efgh/ijkl", lang="en", lexicon="en-enable2k")
    assert expected["code"] == "board.outside_alphabet"
    assert text == "Error: The face “ñ” has a letter outside the alphabet of en (ñ): abcdefghijklmnopqrstuvwxyz"


def api_error(server: Server, path: str, **params: Any) -> Any:
    """The JSON body of a refused request (a 4xx)."""
    try:
        api(server, path, **params)
    except urllib.error.HTTPError as exc:
        return json.load(exc)
    raise AssertionError(f"{path} {params} was not refused")


ISOLATE = "\u2068{}\u2069".format  # a value in a right-to-left sentence: first-strong isolate ... pop isolate
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize(
    ("ui", "size", "query", "action", "said"),
    [
        (  # a shared link whose board has a face outside the board language's alphabet
            "de",
            "desktop",
            "?view=solve&board=%C3%B1art%2Fabcd%2Fefgh%2Fijkl&lang=en&lexicon=en-enable2k",
            None,
            f"Fehler: Das Feld „ñ“ hat einen Buchstaben außerhalb des Alphabets von en (ñ): {ALPHABET}",
        ),
        (  # the same in Hebrew, right to left: the face, the code and the alphabet isolated from the sentence
            "he",
            "phone",
            "?view=solve&board=%C3%B1art%2Fabcd%2Fefgh%2Fijkl&lang=en&lexicon=en-enable2k",
            None,
            "שגיאה: "
            + ISOLATE(
                f"במשבצת „{ISOLATE('ñ')}” יש אות מחוץ לאלפבית של {ISOLATE('en')} ({ISOLATE('ñ')}): {ISOLATE(ALPHABET)}"
            ),
        ),
        (  # two letters outside: the plural form of the interface language
            "pl",
            "narrow",
            "?view=solve&board=%5B%C3%B1%C3%A7%5Dart%2Fabcd%2Fefgh%2Fijkl&lang=en&lexicon=en-enable2k",
            None,
            f"Błąd: Pole „ñç” ma litery spoza alfabetu en (çñ): {ALPHABET}",
        ),
        (  # a challenge link whose board does not parse
            "fr",
            "phone",
            "?view=play&board=%5Bqu%2Fabc%2Fdef&lang=en&lexicon=en-enable2k&minutes=3",
            None,
            "Erreur : Les crochets de la rangée « [qu » ne correspondent pas.",
        ),
        (  # a word looked up in a word list whose name is no name (from a hand-made link)
            "uk",
            "desktop",
            "?view=word&lang=nl&lexicon=..%2Fnl",
            "word",
            "Помилка: «../nl» — не назва словника.",
        ),
        (  # a comparison of no language
            "it",
            "desktop",
            "?view=compare&lang=en",
            "compare",
            "Errore: Scegli almeno una lingua da confrontare.",
        ),
    ],
)
def test_a_refusal_is_worded_in_the_interface_language(
    pages: Pages, server: Server, ui: str, size: str, query: str, action: str | None, said: str
) -> None:
    """The library's code and params (tests/test_web_parity.py), worded by the interface language's catalogue."""
    page = pages.new(size)
    open_page(page, server, f"{query}&ui={ui}")
    if action == "word":
        page.fill("#word-input", "kaas")
        page.keyboard.press("Enter")
    elif action == "compare":
        page.click("#compare-start")
    page.wait_for_selector("#message.error")
    assert page.text_content("#message") == said
    if ui == "he":
        assert page.get_attribute("html", "dir") == "rtl"
        no_sideways_scroll(page)
        shot(page, "refusal-rtl")
    if ui == "de":
        shot(page, "refusal-de")


def test_a_code_a_catalogue_lacks_falls_back_to_the_servers_english(page: Any, server: Server) -> None:
    open_page(page, server, "?ui=de&view=word")
    said = page.evaluate("errorText(apiError('the English line', 'no.such_code', {}))")
    assert said == "the English line"
    assert page.evaluate("errorText(apiError('line', null, {}))") == "line"
    known = page.evaluate("errorText(apiError('unknown language', 'language.unknown', {lang: 'xx'}))")
    assert known == "Unbekannte Sprache „xx“."


@pytest.mark.parametrize(
    ("ui", "word", "lang", "category", "said"),
    [
        ("fr", "Amsterdam", "nl", "proper-name", "un nom propre"),
        ("de", "the", "nl", "foreign", "ein Wort einer anderen Sprache"),
        ("en", "kaasx", "nl", "not-in-source", "not in the source list"),
        ("nl", "Kaas", "nl", "word", "is een woord"),
    ],
)
def test_is_it_a_word_in_a_players_words(
    page: Any, server: Server, ui: str, word: str, lang: str, category: str, said: str
) -> None:
    open_page(page, server, f"?ui={ui}&lang={lang}&view=word")
    page.fill("#word-input", word)
    page.keyboard.press("Enter")
    page.wait_for_selector("#word-answer[data-category]")
    expected = api(server, "/api/lookup", word=word, lang=lang)
    assert page.get_attribute("#word-answer", "data-category") == expected["category"] == category
    assert said in page.text_content("#word-answer")
    if ui == "fr":
        shot(page, "word")


def test_start_and_stop_a_search_then_open_the_best_board(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k&view=search")
    page.fill("#search-time", "120")
    page.click("#search-start")
    page.wait_for_selector("#search-progress:has-text('boards/s')")
    shot(page, "search")
    page.click("#search-stop")
    page.wait_for_selector("#search-progress[data-state=stopped]", timeout=20_000)
    assert page.is_enabled("#search-start") and not page.is_enabled("#search-stop")
    best = page.locator("#search-best a").first
    board, score = best.get_attribute("data-board"), int(best.get_attribute("data-score"))
    best.click()
    page.wait_for_selector("body[data-ready=true]")
    assert solved_board(page) == (board, score)


@pytest.mark.parametrize("size", ["desktop", "narrow"])
def test_compare_chart(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size, locale="en-US" if size == "desktop" else "pl-PL")
    open_page(page, server, "?view=compare")
    assert page.locator("#compare-chart").bounding_box() is None  # hidden before any run: no empty box
    langs = ("en", "nl", "uk") if size == "desktop" else ("en", "nl")
    for lang in langs:
        page.check(f"#compare-langs input[value={lang}]")
    page.fill("#compare-boards", "300" if size == "desktop" else "100")
    page.click("#compare-start")
    page.wait_for_selector(f"#compare-chart polyline.series >> nth={len(langs) - 1}", state="attached", timeout=60_000)
    assert page.locator("#compare-table tbody tr").count() == len(langs)
    assert [x.get_attribute("data-lang") for x in page.locator("#compare-chart polyline.series").all()] == list(langs)
    progress = page.text_content("#compare-progress")
    # Progress and table in the interface language, from the server's numbers and names (with plural rules).
    if size == "desktop":
        assert "uk: 300 4x4 boards, letters drawn from the alphabet, as often as in word list uk" in progress
        assert "nl: done (2 of 3)" in progress and "done in" in progress
        assert page.text_content("#compare-table th") == "language"
    else:
        assert "en: wczytywanie listy słów" in progress and "en: 100 plansz 4x4, rzucone zestawem kości" in progress
        assert "nl: gotowe (2 z 2)" in progress and "gotowe w" in progress
        assert "loading" not in progress and "boards" not in progress
        heads = page.locator("#compare-table th").all_text_contents()
        assert heads[0] == "język" and "średnia" in heads
        assert "od 3 liter" in page.text_content("#compare-table td[data-col=rules]")
        page.select_option("#ui-lang", "he")  # the run is worded again in the new language
        page.wait_for_function("document.documentElement.lang === 'he'")
        again = page.text_content("#compare-progress")
        # values are isolated from the right-to-left text around them (FSI ... PDI)
        assert "\u2068en\u2069: 100 לוחות \u20684x4\u2069" in again and "plansz" not in again
        assert page.text_content("#compare-table th") == "שפה"
    box = page.locator("#compare-chart").bounding_box()
    assert box["width"] <= page.viewport_size["width"]
    # drawn for its width: on a phone a narrower viewBox, so its text is not scaled down below legibility
    view_width = int(page.get_attribute("#compare-chart", "viewBox").split()[2])
    assert view_width == (720 if size == "desktop" else 420) and box["width"] / view_width > 0.7
    no_sideways_scroll(page)
    shot(page, "compare" if size == "desktop" else "compare-phone", full=size != "desktop")


@pytest.mark.parametrize("size", ["desktop", "phone", "narrow"])
def test_records_show_the_shipped_proofs(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size)
    open_page(page, server, "?view=records")
    page.wait_for_selector("#records tbody tr")
    records = api(server, "/api/records")["records"]
    assert page.locator("#records tbody tr").count() == len(records) > 0
    proven = [r for r in records if r["proven"]]
    assert proven and page.locator("#records tbody tr:has-text('proven')").count() == len(proven)
    no_sideways_scroll(page)
    # Nothing scrolls sideways inside its box either: on a phone every record is a card that fits the screen,
    # each cell named by its column.
    fits = page.evaluate(
        """(() => { const box = document.querySelector('#records').parentElement;
             return box.scrollWidth <= box.clientWidth
               && [...document.querySelectorAll('#records td')].every((td) => td.getBoundingClientRect().right
                    <= innerWidth + 0.5 && td.getBoundingClientRect().left >= -0.5); })()"""
    )
    assert fits
    if size == "phone":
        card = page.locator("#records tbody tr").first
        assert card.evaluate("tr => getComputedStyle(tr).display") == "flex"
        label = card.locator("td[data-col=lexicon]").evaluate("td => getComputedStyle(td, '::before').content")
        assert "Word list" in label
        first = records[0]
        assert card.locator("td[data-col=board]").text_content() == first["board"]
    if size != "narrow":
        shot(page, "records" if size == "desktop" else "records-phone")


# ---------------------------------------------------------------- phone layout, languages, accessibility


@pytest.mark.parametrize("size", ["phone", "narrow"])
def test_no_sideways_scrolling_on_any_view(pages: Pages, server: Server, size: str) -> None:
    page = pages.new(size)
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    game(page, server)
    no_sideways_scroll(page)
    page.click("#play-end")
    feedback(page, "over")
    no_sideways_scroll(page)  # the end screen: result line, challenge link, missed words
    for view in ("room", "solve", "word", "compare", "search", "records"):
        page.click(f"#tab-{view}")
        if view == "solve":
            solved_board(page)
        if view == "records":
            page.wait_for_selector("#records tbody tr")
        no_sideways_scroll(page)
    page.click("#tab-solve")  # its board panel is open
    page.select_option("#size", "6x6")
    page.click("#roll")
    page.wait_for_selector("#solve-board[data-cols='6']")
    settled(page)
    no_sideways_scroll(page)
    box = page.locator("#solve-board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def test_the_interface_follows_the_browsers_language_and_the_switch(pages: Pages, server: Server) -> None:
    page = pages.new("phone", locale="de-DE")
    open_page(page, server)
    assert page.text_content("#tab-play") == "Spielen" and page.get_attribute("html", "lang") == "de"
    game(page, server)
    assert "Punkte" in page.text_content("#play-score")
    # Board languages are named in the interface language too (Intl.DisplayNames), with their codes.
    assert page.eval_on_selector("#lang option[value=nl]", "o => o.textContent") == "Niederländisch (nl)"
    shot(page, "play-de-phone")
    page.select_option("#ui-lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.text_content("#tab-play") == "Jouer" and page.text_content("#play-start") == "Nouvelle partie"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#tab-play") == "Jouer"  # the choice is remembered
    # Plural rules from Intl.PluralRules with each language's catalogue.
    page.select_option("#ui-lang", "pl")
    page.wait_for_function("document.documentElement.lang === 'pl'")
    said = page.evaluate("[1, 2, 5, 22].map((n) => I18n.t('play.score', {score: n, words: n}))")
    assert said == [
        "1 punkt, 1 słowo",
        "2 punkty, 2 słowa",
        "5 punktów, 5 słów",
        "22 punkty, 22 słowa",
    ]
    page.select_option("#ui-lang", "uk")
    page.wait_for_function("document.documentElement.lang === 'uk'")
    assert page.evaluate("I18n.t('play.score', {score: 21, words: 11})") == "21 очко, 11 слів"


def test_right_to_left(pages: Pages, server: Server) -> None:
    page = pages.new("phone", locale="he-IL")
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    assert page.get_attribute("html", "dir") == "rtl" and page.get_attribute("html", "lang") == "he"
    solved = game(page, server)
    play, solve = page.locator("#tab-play").bounding_box(), page.locator("#tab-solve").bounding_box()
    assert play["x"] > solve["x"]  # tabs run right to left
    a = page.locator("#play-board .cell[data-r='0'][data-c='0']").bounding_box()
    b = page.locator("#play-board .cell[data-r='0'][data-c='1']").bounding_box()
    assert a["x"] < b["x"]  # the board keeps its geometry: row 0, column 0 is top left
    word = pick_words(solved, 1)[0]
    drag_touch(page, word["path"])
    said = feedback(page, "found")
    assert f"+{word['points']}" in said
    assert f"\u2068{word['word']}\u2069" in said  # a Latin word isolated from the Hebrew around it
    assert page.eval_on_selector("#lang option[value=en]", "o => o.textContent") == "אנגלית (en)"
    no_sideways_scroll(page)
    shot(page, "play-rtl")


@pytest.mark.parametrize(
    ("view", "size", "ui"),
    [
        ("play", "desktop", "en"),
        ("solve", "desktop", "en"),
        ("play", "phone", "he"),
        ("solve", "narrow", "nl"),
        ("records", "narrow", "he"),  # its cards on a phone
        ("room", "phone", "he"),
    ],
)
def test_no_serious_accessibility_violations(pages: Pages, server: Server, view: str, size: str, ui: str) -> None:
    """axe-core (from the npm registry, injected into the page): no serious or critical violation."""
    page = pages.new(size)
    open_page(page, server, f"?view={view}&ui={ui}&lang=en&lexicon=en-enable2k")
    if view == "play":
        game(page, server)
    elif view == "records":
        page.wait_for_selector("#records tbody tr")
    elif view == "room":  # a room's lobby: its players, join link and QR code, the host's controls
        page.fill("#room-name", "Ann")
        page.click("#room-create")
        page.wait_for_selector("body[data-room=lobby]")
    else:
        solved_board(page)
    page.add_script_tag(content=axe_script())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert bad == [], bad


def test_keyboard_order_and_visible_focus(page: Any, server: Server) -> None:
    open_page(page, server, "?lang=en&lexicon=en-enable2k")
    game(page, server)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip-game"
    presses = 1
    while page.evaluate("document.activeElement.id") != "play-start" and presses < 10:
        page.keyboard.press("Tab")
        presses += 1
    assert page.evaluate("document.activeElement.id") == "play-start" and presses <= 5, presses
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    # Tabs are one Tab stop; the arrow keys move between them.
    page.focus("#tab-play")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-room" and page.is_visible("#view-room")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-solve" and page.is_visible("#view-solve")
    # Every control has a label (an accessible name).
    unnamed = page.evaluate(
        """[...document.querySelectorAll('input, select, button')].filter((e) => e.offsetParent !== null
             && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
             .map((e) => e.id)"""
    )
    assert unnamed == []


# ---------------------------------------------------------------- rooms


def test_a_room_round_host_and_two_phones(pages: Pages, server: Server) -> None:
    """A host (desktop) and two phones (390x844) play a whole round in one room on loopback: join by the link,
    the same board after the countdown, words by swipe, a reload mid-round, a duplicate struck in both lists,
    totals equal to `judge` on the same lists, then the rematch in the same room."""
    from boggle_i18n.judging import judge
    from boggle_i18n.lexicon.store import Lexicon
    from boggle_i18n.solving import choose_board

    host = pages.new("desktop")
    open_page(host, server, "?view=room&lang=en&lexicon=en-enable2k&size=4x4")
    host.fill("#room-name", "Ann")
    host.click("#room-create")
    host.wait_for_selector("body[data-room=lobby]")
    code = host.evaluate("state.room.code")
    assert host.get_attribute("#room-link", "href") == f"{server.url}/?room={code}"
    assert host.locator("#room-qr svg").count() == 1  # the join link's QR code, inline
    phones = []
    for name in ("Bob", "Cleo"):
        phone = pages.new("phone")
        open_page(phone, server, f"?room={code}")  # the join link
        assert phone.input_value("#room-code") == code
        for control in ("#room-name", "#room-code", "#room-join", "#room-create"):
            assert phone.locator(control).bounding_box()["height"] >= 44, control  # tap targets
        phone.fill("#room-name", name)
        phone.click("#room-join")
        phone.wait_for_selector("body[data-room=lobby]")
        assert phone.locator("#board-panel").is_hidden()  # the host chooses the board
        phones.append(phone)
    bob, cleo = phones
    everyone = [host, *phones]
    host.wait_for_function("document.querySelectorAll('#room-players li').length === 3")
    host.click("#room-share summary")
    shot(host, "room-lobby")
    assert host.locator("#room-start").bounding_box()["height"] >= 44

    host.fill("#room-seconds", "40")  # long enough for a loaded machine's reload
    host.click("#room-start")
    for page in everyone:
        page.wait_for_selector("body[data-room=countdown]")
    for page in everyone:
        page.wait_for_selector("body[data-room=running]")
    boards = {page.get_attribute("#room-board", "data-board") for page in everyone}
    assert len(boards) == 1  # the same board for everyone
    board = boards.pop()
    solved = api(server, "/api/solve", board=board, lang="en", lexicon="en-enable2k")
    one, two, three = pick_words(solved, 3)
    minutes, seconds = host.text_content("#room-timer").split(":")
    assert 0 < int(minutes) * 60 + int(seconds) <= 40

    def swipe(page: Any, word: dict[str, Any], count: int) -> None:
        drag_touch(page, word["path"], "#room-board")
        page.wait_for_function(f"document.querySelectorAll('#room-words li').length === {count}")
        assert page.get_attribute("#room-feedback", "data-kind") == "scored"
        assert page.get_attribute("#room-words li:first-child", "data-word") == word["word"]

    host.fill("#room-input", "zzqx")  # typed: not a word
    host.press("#room-input", "Enter")
    host.wait_for_selector("#room-feedback[data-kind=not-a-word]")
    swipe(bob, one, 1)
    swipe(bob, two, 2)
    swipe(cleo, two, 1)  # the same word as Bob: each sees it scored now, struck at the end
    cleo.reload()  # the phone reloads mid-round: back in the room, with its word
    cleo.wait_for_selector("body[data-room=running]")
    cleo.wait_for_function("document.querySelectorAll('#room-words li').length === 1")
    assert cleo.get_attribute("#room-board", "data-board") == board
    swipe(cleo, three, 2)
    shot(cleo, "room-play-phone")
    # the others see counts, never the words
    host.wait_for_function("document.querySelector('#room-players li[data-player=p2]').dataset.words === '2'")
    assert one["word"] not in host.text_content("#room-players")

    for page in everyone:
        page.wait_for_selector("body[data-room=over]", timeout=60_000)
    lists = {"Ann": ["zzqx"], "Bob": [one["word"], two["word"]], "Cleo": [two["word"], three["word"]]}
    store = server.store
    selection, parsed = choose_board(board, lang="en", lexicon="en-enable2k", store=store)
    judged = judge(parsed, Lexicon.load("en-enable2k", store), selection.rules, lists, selection=selection)
    totals = {p.name: p.total for p in judged.players}
    for page in everyone:
        for name in ("Bob", "Cleo"):  # the duplicate struck in both lists
            struck = page.locator(f".room-list[data-player={name}] li[data-word='{two['word']}']")
            assert struck.get_attribute("data-status") == "shared" and struck.locator("s").count() == 1
        shown = {name: int(page.get_attribute(f".room-list[data-player={name}]", "data-total")) for name in lists}
        assert shown == totals
        assert page.locator("#room-missed li").count() == len(judged.missed)
    assert totals["Bob"] == one["points"] and totals["Cleo"] == three["points"] and totals["Ann"] == 0
    no_sideways_scroll(bob)
    shot(bob, "room-results-phone", full=True)

    host.click("#room-start")  # Rematch: the same room, the same players, a new round
    for page in everyone:
        page.wait_for_function("state.room.data.round === 2 && state.room.data.phase !== 'over'")
        assert page.locator("#room-players li").count() == 3


def test_the_page_opens_on_a_language_it_can_play(browser: Any, built_store: Path, tmp_path: Path) -> None:
    """Issue 38: after the README's first command only nl is built and English's ENABLE is not here: the page opens
    on Dutch and plays it, instead of asking for an English build that stops with a download error."""
    import shutil

    store = tmp_path / "store"
    store.mkdir()
    for suffix in (".marisa", ".json"):
        shutil.copy(built_store / f"nl{suffix}", store / f"nl{suffix}")
    only_nl = Server(store, REPO / "results")
    context = browser.new_context(**DESKTOP, locale="en-US")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{only_nl.url}/")
        page.wait_for_selector("body[data-ready=true]")
        assert page.eval_on_selector("#lang", "s => s.value") == "nl"
        assert page.eval_on_selector("#lexicon", "s => s.value") == "nl"
        page.click("#play-start")
        page.wait_for_function("state.game && state.game.solved", timeout=TIMEOUT)
        assert page.is_hidden("#building") and not errors
    finally:
        context.close()
        code, err = only_nl.stop()
    assert code == 0 and "Traceback" not in err, err
