"""The page's message catalogues (boggle_i18n/web/static/i18n/*.json): complete, well-formed, and each the
same messages as English, so no language shows a key or drops a value. The browser tests check them in use."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from boggle_i18n.comparison.compare import COLUMNS
from boggle_i18n.errors import CODES
from boggle_i18n.lookup import CATEGORIES

STATIC = Path(__file__).resolve().parent.parent / "boggle_i18n" / "web" / "static"
CATALOGUES = {p.stem: p for p in sorted((STATIC / "i18n").glob("*.json"))}


def _load(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(CATALOGUES[code].read_text(encoding="utf-8"))
    return data


def _arguments(text: str) -> tuple[set[str], list[dict[str, Any]]]:
    """The value names a message uses, and its plural arguments' forms (a small ICU MessageFormat parser)."""
    names: set[str] = set()
    plurals: list[dict[str, Any]] = []
    i = 0
    while (start := text.find("{", i)) >= 0:
        depth, j = 0, start
        while True:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
            assert j < len(text), f"unbalanced braces: {text}"
        inner = text[start + 1 : j]
        if "," in inner:
            name, kind, body = (part.strip() for part in inner.split(",", 2))
            assert kind == "plural", text
            forms = dict(re.findall(r"(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", body))
            plurals.append({"name": name, "forms": forms})
            names.add(name)
            for form in forms.values():
                names |= _arguments(form)[0]
        else:
            names.add(inner.strip())
        i = j + 1
    return names, plurals


def test_at_least_ten_languages_and_one_right_to_left() -> None:
    assert len(CATALOGUES) >= 10 and {"en", "nl", "de", "fr", "es", "it", "pt", "pl", "uk"} <= set(CATALOGUES)
    assert [code for code in CATALOGUES if _load(code)["@dir"] == "rtl"] == ["he"]
    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    listed = dict(re.findall(r"(\w+): \"([^\"]+)\"", script.split("LANGS: {", 1)[1].split("}", 1)[0]))
    assert set(listed) == set(CATALOGUES)
    assert all(listed[code] == _load(code)["@name"] for code in CATALOGUES)


@pytest.mark.parametrize("code", sorted(CATALOGUES))
def test_a_catalogue_has_every_message_with_the_same_values(code: str) -> None:
    english, messages = _load("en"), _load(code)
    assert set(messages) == set(english), set(messages) ^ set(english)
    for key, text in messages.items():
        if key.startswith("@"):
            continue
        names, plurals = _arguments(text)
        assert names == _arguments(english[key])[0], (code, key)
        for p in plurals:
            assert "other" in p["forms"], (code, key, "a plural needs its `other` form")


def test_every_reason_category_of_the_library_is_translated() -> None:
    """The category comes from lookup.py; the page only translates it."""
    assert {k.removeprefix("reason.") for k in _load("en") if k.startswith("reason.")} == set(CATEGORIES)


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    english = _load("en")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', html))
    used |= set(re.findall(r"""\bt\(\s*["']([a-z_.\-]+)["']""", script))
    used = {k for k in used if not k.endswith(".")}  # `t("reason." + category)`: the test above
    assert used and used - set(english) == set()


def test_every_compare_column_and_board_source_is_worded() -> None:
    """The compare table's column ids come from the library (compare.COLUMNS); the page names them, and words
    each board source (dice, dice faces, alphabet) for the progress lines and the table."""
    english = _load("en")
    assert {k.removeprefix("compare.col.") for k in english if k.startswith("compare.col.")} == {
        *COLUMNS,
        "optimized",
    }
    for prefix in ("compare.source.", "compare.cell."):
        assert {f"{prefix}{kind}" for kind in ("dice", "faces", "alphabet")} <= set(english)


def test_every_error_code_of_the_library_is_worded_in_every_catalogue() -> None:
    """A refusal reaches the page as the library's code (errors.CODES) and params: each code has an `errors.<code>`
    message in English that uses exactly its params, and (by the test above) every catalogue words it with the
    same values. A new code without its messages, or a message for a code that is gone, fails here."""
    english = _load("en")
    worded = {k.removeprefix("errors.") for k in english if k.startswith("errors.")}
    assert worded == set(CODES), worded ^ set(CODES)
    for code, params in CODES.items():
        names = _arguments(english[f"errors.{code}"])[0]
        assert names == set(params), (code, names, params)
        for lang in CATALOGUES:
            text = _load(lang)[f"errors.{code}"]
            assert lang == "en" or text != english[f"errors.{code}"], (lang, code, "not translated")
            assert _arguments(text)[0] == set(params), (lang, code)


def test_every_error_code_is_raised_by_the_library() -> None:
    """The registry holds only codes some raise site uses (a code no one raises would be dead weight), and the
    raise sites use only registered codes (the constructor checks it too, when one is raised)."""
    package = Path(__file__).resolve().parent.parent / "boggle_i18n"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(package.rglob("*.py")) if p.name != "errors.py")
    used = set(re.findall(r"""\bcode["']?\s*[=:]\s*["']([a-z_]+\.[a-z_]+)["']""", source))
    assert used == set(CODES), used ^ set(CODES)
