"""Compiled caches are shown, removed with their lexicon, and pruned when no lexicon names their trie."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.housekeeping import prune_caches, remove_lexicon
from boggle_i18n.solver import compiled

runner = CliRunner()
MINI_EN = FIXTURES / "mini-en.txt"


def _score(store: Path, name: str) -> None:
    compiled._MEMO.clear()
    result = runner.invoke(app, ["score", "--lexicon", name, "--store", str(store)], input="perslatgsineters\n")
    assert result.exit_code == 0, result.output


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=root)
    build_lexicon("en", source=MINI_EN, store=root, save_as="twin")  # the same words: the same trie and cache
    _score(root, "en-enable2k")
    return root


def _caches(store: Path) -> list[str]:
    return sorted(p.name for p in (store / "compiled").glob("*.bgc"))


def test_lexicons_shows_cache_sizes(store: Path) -> None:
    data = json.loads(runner.invoke(app, ["lexicons", "--json", "--store", str(store)]).stdout)
    sizes = {e["name"]: e["compiled_bytes"] for e in data["built"]}
    assert sizes["en-enable2k"] == (store / "compiled" / _caches(store)[0]).stat().st_size > 0
    text = runner.invoke(app, ["lexicons", "--store", str(store)]).stdout
    assert "compiled cache" in text


def test_remove_keeps_a_cache_another_lexicon_shares_then_removes_it(store: Path) -> None:
    sha = Lexicon.load("twin", store).manifest["trie_sha256"]
    assert _caches(store) == [f"{sha}.bgc"]
    result = runner.invoke(app, ["remove-lexicon", "twin", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert not (store / "twin.json").exists() and not (store / "twin.marisa").exists()
    assert _caches(store) == [f"{sha}.bgc"]  # en-enable2k still uses it
    remove_lexicon("en-enable2k", store)
    assert _caches(store) == [] and sorted(p.name for p in store.iterdir()) == ["compiled"]


def test_prune_removes_only_orphaned_caches(store: Path, tmp_path: Path) -> None:
    orphan = store / "compiled" / ("0" * 64 + ".bgc")
    orphan.write_bytes(b"old")
    keep = store / "compiled" / "notes.txt"
    keep.write_text("mine", encoding="utf-8")
    outside = tmp_path / "outside.bgc"
    outside.write_bytes(b"not in the store")
    (store / "compiled" / ("1" * 64 + ".bgc")).symlink_to(outside)
    removed = prune_caches(store)
    assert sorted(p.name for p in removed.files) == ["0" * 64 + ".bgc", "1" * 64 + ".bgc"]
    assert keep.exists() and outside.read_bytes() == b"not in the store"  # a link is removed, never its target
    assert len(_caches(store)) == 1


def test_a_broken_lexicon_can_be_removed(store: Path) -> None:
    (store / "twin.json").write_text("{broken", encoding="utf-8")
    result = runner.invoke(app, ["remove-lexicon", "twin", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert not (store / "twin.json").exists()


def test_bad_names_remove_nothing(store: Path) -> None:
    before = sorted(p.name for p in store.rglob("*"))
    for args in (["../escape"], ["nope"], ["en-enable2k", "Sub/Dir"]):
        result = runner.invoke(app, ["remove-lexicon", *args, "--store", str(store)])
        assert result.exit_code == 1 and result.stderr.startswith("Error: "), result.output
        assert len(result.stderr.splitlines()) == 1
    assert sorted(p.name for p in store.rglob("*")) == before
