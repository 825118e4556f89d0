"""`export-web`: the game as a static site, the same page `serve` serves, solving in the browser.

The folder holds the page (static/, as `serve` serves it, plus static/local_api.js, which answers the page's
API calls in the browser), the WebAssembly solver (web/wasmbuild.py), and per lexicon the compiled trie the
library caches (`.bgc`) and its rules data (web/export.py). `data/site.json` lists every file the page loads
on demand with its sha256, which the page checks before it uses a byte. Any static host serves it.

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
from .wasmbuild import solver_wasm

STATIC = Path(__file__).resolve().parent / "static"
MARK = "data/site.json"
GENERATOR = "boggle-i18n export-web"
SHELL = ("index.html", "app.js", "board.js", "i18n.js", "style.css", "solver.js", "local_api.js")
# Views that need the server's jobs (a compare or a search running for minutes) or its results folder.
SERVER_ONLY = ("compare", "search", "records")


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
    return html.replace(anchor, scripts + anchor)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(root: Path, relative: str, data: bytes) -> dict[str, Any]:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {"path": relative, "sha256": _sha256(data), "bytes": len(data)}


def build_site(root: Path, names: Sequence[str], store: Any = None) -> dict[str, Any]:
    """Write the site for lexicons `names` into the empty folder `root`; its site.json as a dict."""
    from ..api import load_lexicon
    from ..solver.compiled import cache_path, compile_lexicon, to_bytes

    for name in SHELL:
        data = page_html().encode("utf-8") if name == "index.html" else (STATIC / name).read_bytes()
        _write(root, name if name == "index.html" else f"static/{name}", data)
    for catalogue in sorted((STATIC / "i18n").glob("*.json")):
        _write(root, f"static/i18n/{catalogue.name}", catalogue.read_bytes())
    wasm = _write(root, "data/solver.wasm", solver_wasm().read_bytes())
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
            "trie": _write(root, f"data/lexicons/{name}.bgc.gz", gzip.compress(trie, 9, mtime=0)),
            "rules": _write(root, f"data/lexicons/{name}.json", rules),
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
    }
    _write(root, MARK, json.dumps(site, ensure_ascii=False, indent=1).encode("utf-8"))
    return site


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
