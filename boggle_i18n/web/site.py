"""`export-web`: the game as a static site, the same page `serve` serves, solving in the browser.

The folder holds the page (static/, as `serve` serves it, plus static/local_api.js, which answers the page's
API calls in the browser), the WebAssembly solver (web/wasmbuild.py), and per lexicon the compiled trie the
library caches (`.bgc`, gzipped) and its rules data (web/export.py). `data/site.json` lists every file the page
loads on demand with its sha256, which the page checks before it uses a byte; data files are named by their
content. A web app manifest with icons (web/icons.py) and a service worker (static/sw.js) make it installable
and playable offline after one visit. Any static host serves it.

The folder is written beside its destination and renamed into place, so a failed export leaves nothing
half-written; a folder that exists is replaced only when it is empty or a previous export.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from .export import languages_answer, lexicon_rules
from .icons import icon_png, icon_svg
from .wasmbuild import solver_wasm

STATIC = Path(__file__).resolve().parent / "static"
MARK = "data/site.json"
GENERATOR = "boggle-i18n export-web"
SHELL = ("index.html", "app.js", "board.js", "i18n.js", "style.css", "solver.js", "local_api.js")
# Views that need the server: rooms (its clock and WebSocket), jobs (a compare or a search running for minutes),
# its results folder.
SERVER_ONLY = ("room", "compare", "search", "records")
# Controls that change the server's state (a word removed from the player's list of a lexicon: `word remove`).
SERVER_ONLY_CONTROLS = "button.not-word"
ICON_SIDES = (192, 512)
THEME = "#1f5fbf"  # the page's accent (style.css)


def default_lexicons(store: Any = None) -> list[str]:
    """Every built stable language's default lexicon."""
    answer = languages_answer(store)
    return [
        lang["default_lexicon"]
        for lang in answer["languages"]
        if lang["status"] == "stable"
        and any(x["name"] == lang["default_lexicon"] and x["state"] == "built" for x in lang["lexicons"])
    ]


def check_destination(dest: Path) -> None:
    """One clear error unless `dest` is absent, an empty folder, or a previous export (its site.json says so)."""
    if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
        raise BoggleI18nError(f"{dest} exists and is not a folder: give a new or empty folder")
    if not dest.exists() or not any(dest.iterdir()):
        return
    try:
        mark = json.loads((dest / MARK).read_text("utf-8"))
    except (OSError, ValueError):
        mark = None
    if not isinstance(mark, dict) or mark.get("generator") != GENERATOR:
        raise BoggleI18nError(f"{dest} is not empty and not a previous export-web folder: give a new or empty folder")


def page_html() -> str:
    """The page as `serve` serves it, loading the in-browser API and solver before the page's own script;
    its links relative, so the site works from any folder of any host (a project page: host/NAME/)."""
    html = (STATIC / "index.html").read_text("utf-8").replace('="/static/', '="static/')
    views = "|".join(SERVER_ONLY)  # their tabs go: the static page has no server to run them
    html = re.sub(rf'[ \t]*<button role="tab" data-view="(?:{views})"[^\n]*\n', "", html)
    scripts = '<script src="static/solver.js"></script>\n<script src="static/local_api.js"></script>\n'
    anchor = '<script src="static/i18n.js"></script>'
    if anchor not in html:
        raise BoggleI18nError("static/index.html has no i18n.js script tag to put the in-browser API before")
    head = (
        '<link rel="manifest" href="manifest.webmanifest">\n'
        f'<meta name="theme-color" content="{THEME}">\n'
        '<link rel="icon" href="static/icon.svg" type="image/svg+xml">\n'
        '<link rel="apple-touch-icon" href="static/icon-192.png">\n'
        f"<style>{SERVER_ONLY_CONTROLS} {{ display: none; }}</style>\n"
    )
    html = html.replace('<link rel="icon" href="data:,">\n', "").replace("</head>", head + "</head>", 1)
    return html.replace(anchor, scripts + anchor)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(root: Path, relative: str, data: bytes) -> dict[str, Any]:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {"path": relative, "sha256": _sha256(data), "bytes": len(data)}


def _named(root: Path, stem: str, suffix: str, data: bytes) -> dict[str, Any]:
    """A data file named by its content (`stem.<sha256 prefix>suffix`): a cache holding it is never stale."""
    return _write(root, f"{stem}.{_sha256(data)[:16]}{suffix}", data)


def build_site(root: Path, names: Sequence[str], store: Any = None) -> dict[str, Any]:
    """Write the site for lexicons `names` into the empty folder `root`; its site.json as a dict."""
    from ..api import load_lexicon
    from ..solver.compiled import cache_path, compile_lexicon, to_bytes

    shell = []
    for name in SHELL:
        data = page_html().encode("utf-8") if name == "index.html" else (STATIC / name).read_bytes()
        shell.append(_write(root, name if name == "index.html" else f"static/{name}", data))
    for catalogue in sorted((STATIC / "i18n").glob("*.json")):
        shell.append(_write(root, f"static/i18n/{catalogue.name}", catalogue.read_bytes()))
    shell.append(_write(root, "static/icon.svg", icon_svg().encode("utf-8")))
    icons = [_write(root, f"static/icon-{side}.png", icon_png(side)) for side in ICON_SIDES]
    shell += icons
    shell.append(_write(root, "manifest.webmanifest", web_manifest(icons).encode("utf-8")))
    wasm = _named(root, "data/solver", ".wasm", solver_wasm().read_bytes())
    lexicons = {}
    for name in names:
        lexicon = load_lexicon(name, store)
        compiled = compile_lexicon(lexicon)
        cached = cache_path(lexicon)
        key = str(lexicon.manifest.get("trie_sha256", ""))
        trie = cached.read_bytes() if cached is not None and cached.is_file() else to_bytes(compiled, key)
        rules = json.dumps(lexicon_rules(name, store), ensure_ascii=False, sort_keys=True).encode("utf-8")
        lexicons[name] = {
            "lang": lexicon.manifest.get("language"),
            "word_count": len(lexicon),
            # gzip, so any static host sends it compressed (a sixth of the trie); the page inflates it after
            # checking the digest of the bytes it fetched (DecompressionStream).
            "trie": _named(root, f"data/lexicons/{name}", ".bgc.gz", gzip.compress(trie, 9, mtime=0)),
            "rules": _named(root, f"data/lexicons/{name}", ".json", rules),
        }
    answer = languages_answer(store)
    languages = []
    for lang in answer["languages"]:
        kept = [dict(x, state="built") for x in lang["lexicons"] if x["name"] in lexicons]
        if kept:
            default = lang["default_lexicon"] if lang["default_lexicon"] in lexicons else kept[0]["name"]
            languages.append({**lang, "lexicons": kept, "default_lexicon": default})
    site = {
        "generator": GENERATOR,
        "format": 1,
        "wasm": wasm,
        "lexicons": lexicons,
        "languages": {"languages": languages, "scoring": answer["scoring"]},
        "shell": shell,
    }
    body = json.dumps(site, ensure_ascii=False, indent=1).encode("utf-8")
    _write(root, MARK, body)
    # The service worker names this export (a new export is a new worker, with a fresh cache) and its shell.
    urls = ["./", MARK, wasm["path"]] + [f["path"] for f in shell]  # index.html too: a link may name it
    head = f"const VERSION = {json.dumps(_sha256(body)[:16])};\nconst SHELL = {json.dumps(urls)};\n"
    _write(root, "sw.js", head.encode("utf-8") + (STATIC / "sw.js").read_bytes())
    return site


def web_manifest(icons: Sequence[dict[str, Any]]) -> str:
    """The web app manifest: what a phone's "Add to Home screen" installs."""
    listed = [{"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    for side, icon in zip(ICON_SIDES, icons, strict=True):
        listed.append({"src": icon["path"], "sizes": f"{side}x{side}", "type": "image/png", "purpose": "any maskable"})
    manifest = {
        "name": "boggle-i18n",
        "short_name": "boggle-i18n",
        "description": "Boggle in many languages: play, solve and check words, offline.",
        "start_url": "./?view=play",
        "scope": "./",
        "display": "standalone",
        "background_color": "#fafafa",
        "theme_color": THEME,
        "icons": listed,
    }
    return json.dumps(manifest, indent=1)


def export_site(dest: Path, names: Sequence[str], store: Any = None) -> dict[str, Any]:
    """Write the site for `names` to `dest` atomically: built beside it, then renamed into place."""
    if not names:
        raise BoggleI18nError("no lexicon to export: build one first (boggle-i18n build-lexicon en), or name one")
    dest = dest.absolute()
    check_destination(dest)
    parent = dest.parent
    if not parent.is_dir():
        raise BoggleI18nError(f"no folder {parent} to write {dest.name} in")
    umask = os.umask(0)
    os.umask(umask)
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise BoggleI18nError(f"cannot write in {parent}: {exc.strerror}") from None
    old = None
    try:
        os.chmod(work, 0o777 & ~umask)  # mkdtemp makes it private: the site gets the user's umask like any folder
        site = build_site(work, names, store)
        if dest.exists():
            old = parent / f"{work.name}.old"
            os.replace(dest, old)
        os.replace(work, dest)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        if old is not None and old.exists() and not dest.exists():
            os.replace(old, dest)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return site
