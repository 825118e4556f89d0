"""`boggle-i18n export-web`: the game as a static site, served here by `python -m http.server` on loopback.

The folder: every file the page loads listed with its sha256, the page `serve` serves with the in-browser
API, written atomically with the user's umask, refusing a folder that is not empty nor a previous export.
In Debian's Chromium: a challenge link plays a game whose end screen's total is `boggle-i18n solve`'s on that
board, a word typed is found, a non-word is told apart, and no request leaves the static host.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import REPO, Server, free_port

from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner

TIMEOUT = 30_000
BOARD = "pers/latg/sine/ters"


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def site_store(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Path:
    """en-enable2k and nl from the session's built store."""
    root = tmp_path_factory.mktemp("export-store")
    for name in ("en-enable2k", "nl"):
        for suffix in (".marisa", ".json"):
            shutil.copy(built_store / f"{name}{suffix}", root / f"{name}{suffix}")
    return root


def export(dest: Path, store: Path, *names: str) -> Any:
    args = ["export-web", str(dest), "--store", str(store)]
    for name in names:
        args += ["--lang", name] if len(name) == 2 else ["--lexicon", name]
    return CliRunner().invoke(app, args)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, site_store: Path) -> Path:
    dest = tmp_path_factory.mktemp("export") / "site"
    result = export(dest, site_store, "en-enable2k", "nl")
    assert result.exit_code == 0, result.output
    assert "2 lexicons: nl, en-enable2k" in result.stderr  # --lang first, then --lexicon
    return dest


def solve_cli(board: str, lexicon: str, store: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["solve", board, "--lexicon", lexicon, "--store", str(store), "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_every_file_the_page_loads_is_listed_with_its_digest(site: Path) -> None:
    """site.json lists the solver and each lexicon's trie and rules with sha256 and size; the trie is the
    library's compiled form, gzipped; the languages answer offers only what was exported."""
    data = json.loads((site / "data" / "site.json").read_text("utf-8"))
    assert data["generator"] == "boggle-i18n export-web" and set(data["lexicons"]) == {"en-enable2k", "nl"}
    entries = [data["wasm"]] + [x[k] for x in data["lexicons"].values() for k in ("trie", "rules")]
    for entry in entries:
        body = (site / entry["path"]).read_bytes()
        assert hashlib.sha256(body).hexdigest() == entry["sha256"] and len(body) == entry["bytes"]
    trie = gzip.decompress((site / data["lexicons"]["en-enable2k"]["trie"]["path"]).read_bytes())
    assert trie.startswith(b"BGLXC003")
    langs = {lang["lang"]: lang for lang in data["languages"]["languages"]}
    assert set(langs) == {"en", "nl"} and langs["en"]["default_lexicon"] == "en-enable2k"
    assert all(x["state"] == "built" for lang in langs.values() for x in lang["lexicons"])


def test_the_page_is_serves_page_with_the_in_browser_api(site: Path) -> None:
    """One front end: serve's index.html, links made relative, local_api.js and solver.js before the page's
    scripts, and no tab for the views that need the server."""
    html = (site / "index.html").read_text("utf-8")
    served = (REPO / "boggle_i18n" / "web" / "static" / "index.html").read_text("utf-8")
    assert html.index("static/local_api.js") < html.index("static/app.js") and '"/static/' not in html
    assert 'data-view="compare"' not in html and 'data-view="room"' not in html and 'data-view="play"' in html
    for name in ("app.js", "board.js", "i18n.js", "style.css"):
        assert (site / "static" / name).read_bytes() == (REPO / "boggle_i18n" / "web" / "static" / name).read_bytes()
    assert served.count("<section") == html.count("<section")


def test_a_folder_that_is_not_an_export_is_refused_and_kept(tmp_path: Path, site_store: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    result = export(mine, site_store, "nl")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ") and "not empty" in result.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    afile = tmp_path / "afile"
    afile.write_text("x")
    result = export(afile, site_store, "nl")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ") and afile.read_text() == "x"


def test_a_failed_export_leaves_nothing_and_a_new_one_replaces_a_previous(tmp_path: Path, site_store: Path) -> None:
    dest = tmp_path / "site"
    result = export(dest, site_store, "no-such-list")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
    assert export(dest, site_store, "en-enable2k").exit_code == 0
    (dest / "stale.txt").write_text("from the first export")
    assert export(dest, site_store, "nl").exit_code == 0
    lexicons = json.loads((dest / "data" / "site.json").read_text("utf-8"))["lexicons"]
    assert not (dest / "stale.txt").exists() and list(lexicons) == ["nl"]
    assert sorted(p.name.split(".")[0] for p in (dest / "data" / "lexicons").iterdir()) == ["nl", "nl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no temporary folder left beside it


def test_files_get_the_users_umask(tmp_path: Path, site_store: Path) -> None:
    old = os.umask(0o027)
    try:
        assert export(tmp_path / "site", site_store, "nl").exit_code == 0
    finally:
        os.umask(old)
    assert (tmp_path / "site").stat().st_mode & 0o777 == 0o750
    assert (tmp_path / "site" / "data").stat().st_mode & 0o777 == 0o750
    assert (tmp_path / "site" / "index.html").stat().st_mode & 0o777 == 0o640


def test_the_sha256_fallback_agrees_with_hashlib(tmp_path: Path) -> None:
    """Without SubtleCrypto (plain http from another machine) the page digests in JavaScript: the same sha256."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not installed") if _ci() else pytest.skip("node not installed")
    samples = [b"", b"abc", bytes(range(256)) * 5, os.urandom(100_003)]
    paths = []
    for i, data in enumerate(samples):
        paths.append(tmp_path / f"s{i}")
        paths[-1].write_bytes(data)
    script = (
        "const api = require(process.argv[1]); const fs = require('fs');"
        "for (const p of process.argv.slice(2)) console.log(api.sha256Plain(new Uint8Array(fs.readFileSync(p))));"
    )
    local_api = REPO / "boggle_i18n" / "web" / "static" / "local_api.js"
    out = subprocess.run([node, "-e", script, str(local_api), *map(str, paths)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [hashlib.sha256(d).hexdigest() for d in samples]


# ---------------------------------------------------------------- in the browser, from a static host


class StaticHost:
    """`python -m http.server` on loopback serving the export: no server of ours."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "-d", str(folder)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.url + "/data/site.json", timeout=5):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("http.server did not start") from None
                time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def host(site: Path) -> Iterator[StaticHost]:
    served = StaticHost(site)
    yield served
    served.stop()


@pytest.fixture
def page(browser: Any, host: StaticHost) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    outside: list[str] = []
    errors: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith((host.url, "data:", "blob:")) else outside.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not outside, f"requests left the static host: {outside}"
    assert not errors, errors


def open_challenge(page: Any, host: StaticHost, board: str, lexicon: str, lang: str) -> None:
    query = urllib.parse.urlencode({"view": "play", "board": board, "lang": lang, "lexicon": lexicon, "minutes": 3})
    page.goto(f"{host.url}/?{query}")
    page.wait_for_selector("body[data-ready=true]", state="attached")
    page.wait_for_selector("body[data-game=running]", state="attached")


def play(page: Any, word: str) -> str:
    page.fill("#play-input", word)
    page.press("#play-input", "Enter")
    page.wait_for_function("state.busy === 0")
    return str(page.text_content("#play-feedback"))


def test_a_challenge_link_plays_and_scores_as_the_cli(page: Any, host: StaticHost, site_store: Path) -> None:
    """The end screen's total is `boggle-i18n solve`'s on the link's board; a word typed scores its points."""
    expected = solve_cli(BOARD, "en-enable2k", site_store)
    open_challenge(page, host, BOARD, "en-enable2k", "en")
    best = expected["words"][0]
    assert f"+{best['points']}" in play(page, best["word"])
    assert "not in this word list" in play(page, "zzxq")
    assert "already found" in play(page, best["word"])
    page.click("#play-end")
    page.wait_for_selector("body[data-game=over]", state="attached")
    result = page.text_content("#play-result")
    assert f"{best['points']}/{expected['score']:,} points" in result
    assert f"1/{expected['n_words']:,} words" in result
    removal = page.locator("#play-found button.not-word")  # the player's blocklist is the server's
    assert removal.count() == 1 and not removal.is_visible()
    missed = page.eval_on_selector_all("#play-missed li", "els => els.map(e => e.dataset.word)")
    assert sorted(missed) == sorted(w["word"] for w in expected["words"][1:])
    link = page.input_value("#challenge-url")
    assert link.startswith(host.url + "/?view=play&board=") and "lexicon=en-enable2k" in link


def test_a_dutch_board_with_an_ij_face_and_a_rolled_game(page: Any, host: StaticHost, site_store: Path) -> None:
    """A bracketed face read with the library's token table, and New game rolls from the Dutch dice."""
    board = "[ij]sbe/rkaa/sove/nlij"
    expected = solve_cli(board, "nl", site_store)
    open_challenge(page, host, board, "nl", "nl")
    page.click("#play-end")
    page.wait_for_selector("body[data-game=over]", state="attached")
    assert f"/{expected['score']:,} points" in page.text_content("#play-result")
    page.click("#play-start")
    page.wait_for_selector("body[data-game=running]", state="attached")
    faces = page.eval_on_selector_all("#play-board .cell", "els => els.map(e => e.textContent)")
    assert len(faces) == 16 and all(faces) and page.text_content("#play-board") != "[IJ]SBERKAASOVENLIJ"


def test_installable_a_manifest_with_icons_and_a_service_worker(site: Path) -> None:
    """The manifest names PNG icons of 192 and 512 pixels (real PNGs of that size) and an SVG; the worker
    caches every file of the shell that site.json lists."""
    html = (site / "index.html").read_text("utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in html
    manifest = json.loads((site / "manifest.webmanifest").read_text("utf-8"))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./?view=play"
    sizes = {}
    for icon in manifest["icons"]:
        body = (site / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            assert body.startswith(b"\x89PNG") and int.from_bytes(body[16:20], "big") == int(
                icon["sizes"].split("x")[0]
            )
        sizes[icon["sizes"]] = icon["type"]
    assert sizes == {"any": "image/svg+xml", "192x192": "image/png", "512x512": "image/png"}
    worker = (site / "sw.js").read_text("utf-8")
    shell = json.loads(worker.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    data = json.loads((site / "data" / "site.json").read_text("utf-8"))
    assert {"./", "data/site.json", data["wasm"]["path"], "static/app.js", "static/i18n/he.json"} <= set(shell)
    assert all((site / path).is_file() for path in shell if path != "./")


def test_after_one_visit_a_game_plays_offline(browser: Any, host: StaticHost, site_store: Path) -> None:
    """One visit; then with the network off, a challenge link opens, a word scores, the end screen shows the
    CLI's total, and New game rolls and plays another board."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT)
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(host.url + "/")
        pg.wait_for_selector("body[data-game=running]", state="attached")
        pg.wait_for_function("navigator.serviceWorker.controller !== null")  # the worker took over, shell cached
        context.set_offline(True)
        expected = solve_cli(BOARD, "en-enable2k", site_store)
        open_challenge(pg, host, BOARD, "en-enable2k", "en")
        best = expected["words"][0]
        assert f"+{best['points']}" in play(pg, best["word"])
        pg.click("#play-end")
        pg.wait_for_selector("body[data-game=over]", state="attached")
        assert f"{best['points']}/{expected['score']:,} points" in pg.text_content("#play-result")
        pg.click("#play-start")
        pg.wait_for_selector("body[data-game=running]", state="attached")
        pg.click("#play-end")
        pg.wait_for_selector("body[data-game=over]", state="attached")
        assert " points" in pg.text_content("#play-result") and not pg.is_visible("#message.error")
        assert not errors, errors
    finally:
        context.close()


def test_serve_on_loopback_says_its_links_open_only_here(site_store: Path) -> None:
    """`serve` on 127.0.0.1 says plainly that its links work only on this machine, and what travels."""
    server = Server(site_store, REPO / "results")
    code, err = server.stop()
    assert code == 0, err
    line = next(ln for ln in err.splitlines() if "open only on this machine" in ln)
    assert "serve --lan" in line and "export-web" in line


def test_the_board_of_the_day_is_one_board_for_serve_and_the_static_site(site: Path, site_store: Path) -> None:
    """`/api/daily` under serve and the static site's table (made by the same library call) agree, day by day;
    another day, another board; a malformed day is one clear refusal."""
    from boggle_i18n.daily import board_of_the_day, parse_day, today
    from boggle_i18n.errors import BoggleI18nError
    from boggle_i18n.web.app import WebApp

    web = WebApp(site_store)
    data = json.loads((site / "data" / "site.json").read_text("utf-8"))
    for name, lang in (("en-enable2k", "en"), ("nl", "nl")):
        rules = json.loads((site / data["lexicons"][name]["rules"]["path"]).read_text("utf-8"))
        now = web.daily({"lang": lang, "lexicon": name})
        assert now["date"] == today().isoformat() and now["board"] == rules["daily"][now["date"]]
        later = sorted(rules["daily"])[200]
        assert web.daily({"lang": lang, "date": later})["board"] == rules["daily"][later] != now["board"]
    assert len(rules["daily"]) == 400
    day = parse_day("2026-01-01")
    assert board_of_the_day("en", day) == board_of_the_day("en", day)  # from the date alone, no state
    with pytest.raises(BoggleI18nError, match="YYYY-MM-DD"):
        web.daily({"lang": "en", "date": "tomorrow"})


def test_the_board_of_the_day_plays_in_the_static_site(page: Any, host: StaticHost, site: Path) -> None:
    """`?view=play&daily=1` starts today's board, the one the library rolled for today."""
    from boggle_i18n.daily import today

    data = json.loads((site / "data" / "site.json").read_text("utf-8"))
    rules = json.loads((site / data["lexicons"]["en-enable2k"]["rules"]["path"]).read_text("utf-8"))
    page.goto(f"{host.url}/?view=play&daily=1&lang=en&lexicon=en-enable2k")
    page.wait_for_selector("body[data-game=running]", state="attached")
    page.click("#play-end")
    page.wait_for_selector("body[data-game=over]", state="attached")
    link = urllib.parse.urlparse(page.input_value("#challenge-url"))
    assert urllib.parse.parse_qs(link.query)["board"] == [rules["daily"][today().isoformat()]]
