"""The docs tools: `--only` mode (tools/measure_builds.py), a few recipes' rows replaced where they stood;
tools/miss_check.py's checker call."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO, require_tool

sys.path.insert(0, str(REPO / "tools"))

from measure_builds import merge
from miss_check import accepted

OLD = """Measured on day 1.

| recipe | words |
| --- | ---: |
| `a` | 1 |
| `ko` | 2 |
| `ko-common` | 3 |
| `z` | 4 |

What each stage did:

| recipe | # | stage |
| --- | ---: | --- |
| `a` | 1 | strip |
| `ko` | 3 | regex-replace |
| `ko` | 4 | normalize |
| `z` | 2 | case |"""

NEW = """| recipe | words |
| --- | ---: |
| `ko` | 20 |
| `ko-common` | 30 |

| recipe | # | stage |
| --- | ---: | --- |
| `ko` | 3 | normalize |"""


def test_merge_replaces_the_named_rows_in_place_in_each_table() -> None:
    got = merge(OLD, NEW, ["ko", "ko-common"], "Rows of `ko` measured again.")
    assert got.splitlines()[:3] == ["Measured on day 1.", "", "Rows of `ko` measured again."]
    assert "| `a` | 1 |\n| `ko` | 20 |\n| `ko-common` | 30 |\n| `z` | 4 |" in got
    assert "| `a` | 1 | strip |\n| `ko` | 3 | normalize |\n| `z` | 2 | case |" in got  # two old rows, one new
    assert "regex-replace" not in got and "| `ko` | 2 |" not in got


def test_merge_refuses_a_recipe_with_no_row() -> None:
    with pytest.raises(SystemExit, match="no rows of new"):
        merge(OLD, NEW, ["new"], "note")


def test_miss_check_asks_hunspell_which_words_it_accepts(tmp_path: Path) -> None:
    """A hand-made pair: `kot` and `koty` (its suffix) accepted as written, `Kot` capitalised too, `kots` not."""
    require_tool("hunspell", "hunspell")
    (tmp_path / "t.aff").write_text("SET UTF-8\nSFX A Y 1\nSFX A 0 y .\n", encoding="utf-8")
    (tmp_path / "t.dic").write_text("1\nkot/A\n", encoding="utf-8")
    checker = f"hunspell:{tmp_path / 't'}"
    assert accepted(checker, ["kot", "koty", "kots", "Kot"]) == {"kot", "koty", "Kot"}


def test_miss_check_refuses_an_unknown_checker_in_one_line() -> None:
    with pytest.raises(SystemExit, match=r"^Error: a checker is hunspell:DIC or aspell:LANG"):
        accepted("ispell:x", ["kot"])
