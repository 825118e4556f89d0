"""`export-web`: the game as a static site (web/site.py decides what goes in; this names the lexicons)."""

from __future__ import annotations

from pathlib import Path

from . import app
from .common import StoreOption, handle_errors, load_or_build, note
from .framework import Argument, Option


@app.command("export-web")
@handle_errors
def export_web_cmd(
    folder: Path = Argument(..., metavar="DIR", help="Folder to write (new, empty, or a previous export)."),
    langs: list[str] = Option(
        [], "--lang", "-l", metavar="CODE", help="A language (its default lexicon); repeatable.", show_default=False
    ),
    lexicons: list[str] = Option(
        [], "--lexicon", metavar="NAME", help="A lexicon by name; repeatable.", show_default=False
    ),
    store: Path | None = StoreOption,
) -> None:
    """Write the game as a static site: play, solve and check words in the browser, offline, on any static host.

    Without --lang or --lexicon: every built stable language's default lexicon. A named lexicon that is not
    built yet is built first. Serve DIR with any static web server (python -m http.server -d DIR).
    """
    from ..language.selection import select
    from ..web.site import default_lexicons, export_site

    names = [select(lang=code, store=store).require_lexicon() for code in langs] + list(lexicons)
    names = list(dict.fromkeys(names)) or default_lexicons(store)
    for name in names:
        load_or_build(name, store)
    site = export_site(folder, names, store)
    total = sum(f["bytes"] for x in site["lexicons"].values() for f in (x["trie"], x["rules"]))
    note(
        f"export-web: {folder} ({len(names)} lexicon{'s' if len(names) != 1 else ''}: {', '.join(names)}; "
        f"{total / 1e6:.1f} MB of word lists, loaded on first use)"
    )
