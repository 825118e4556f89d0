"""`folders.py` gives, as strings, what `pathlib` gives: the same paths in the same messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from boggle_i18n import folders
from boggle_i18n.resources import data_dir
from boggle_i18n.storage import cache_dir, store_dir

CASES = [
    *("", ".", "..", "a", "a/", "a//b", "./a/./b/", "/", "//", "///x", "//x/y", "/x", "x/../y", "/.."),
    *("a/b.c.json", ".json", "a/.json", "a.", "~", "a/b/", "/a/b.marisa", "x.marisa", "../x.marisa", "a/..marisa"),
]


@pytest.mark.parametrize("text", CASES)
def test_path_forms_as_pathlib(text: str) -> None:
    path = Path(text)
    assert folders.clean(text) == str(path)
    assert folders.parent(text) == str(path.parent)
    assert folders.stem(text) == path.stem
    assert folders.expand(text) == str(path.expanduser())
    if path.name:
        assert folders.with_suffix(text, ".json") == str(path.with_suffix(".json"))


@pytest.mark.parametrize("text", ["~", "~/x", "~/x//y/", "~root/y"])
def test_home_as_pathlib(text: str) -> None:
    assert folders.expand(text) == str(Path(text).expanduser())


def test_store_cache_and_data_as_the_path_functions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOGGLE_I18N_HOME", f"{tmp_path}//store/./")
    monkeypatch.setenv("BOGGLE_I18N_CACHE", f"{tmp_path}/cache/")
    assert folders.store_folder() == str(store_dir()) == str(tmp_path / "store")
    assert folders.store_folder(f"{tmp_path}/other//") == str(store_dir(f"{tmp_path}/other//"))
    assert folders.cache_folder() == str(cache_dir()) == str(tmp_path / "cache")
    for name in ("lexicons", "pipelines"):
        assert folders.data_folder(name) == str(data_dir(name))


def test_listed_as_glob(tmp_path: Path) -> None:
    for name in ("b.toml", "a.toml", ".toml", ".hidden.toml", "x.json", "c.toml.bak", "A.toml"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "d.toml").mkdir()
    expected = {path.stem: str(path) for path in sorted(tmp_path.glob("*.toml"))}
    assert folders.listed(str(tmp_path), ".toml") == expected
    assert list(folders.listed(str(tmp_path), ".toml")) == list(expected)
    assert folders.listed(str(tmp_path / "missing"), ".toml") == {}


@pytest.mark.parametrize("xdg", [None, "", "   ", "/abs/dir", "relative/dir", "~/tilde", "/abs/dir/"])
def test_user_folders_as_platformdirs(xdg: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without $BOGGLE_I18N_HOME/$BOGGLE_I18N_CACHE the store and the cache are where platformdirs puts them
    (on Linux folders.py applies the XDG rule itself, not to import platformdirs on every command)."""
    platformdirs = pytest.importorskip("platformdirs")
    monkeypatch.delenv(folders.HOME_ENV, raising=False)
    monkeypatch.delenv(folders.CACHE_ENV, raising=False)
    for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
        if xdg is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, xdg)
    assert folders.store_folder() == str(Path(platformdirs.user_data_dir(folders.APP)))
    assert folders.cache_folder() == str(Path(platformdirs.user_cache_dir(folders.APP)))
