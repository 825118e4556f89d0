"""The TOML parse cache gives what `tomllib` gives, and trusts an entry only when it checks out."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_i18n import toml_cache
from boggle_i18n.resources import data_dir
from boggle_i18n.storage import cache_dir

SHIPPED = sorted([*data_dir("lexicons").rglob("*.toml"), *data_dir("pipelines").rglob("*.toml")])


def entry_of(path: Path) -> Path:
    import hashlib

    return cache_dir() / "toml" / f"{hashlib.sha256(path.read_bytes()).hexdigest()}.json"


def test_every_shipped_file_reads_as_tomllib_reads_it_parsed_and_cached() -> None:
    assert len(SHIPPED) > 60
    for path in SHIPPED:
        with path.open("rb") as handle:
            expected = tomllib.load(handle)
        assert toml_cache.read_toml(path) == expected  # parsed, then written to the cache
        assert entry_of(path).is_file()
        assert toml_cache.read_toml(path) == expected  # from the cache
        assert repr(toml_cache.read_toml(path)) == repr(expected)  # the same types: 1 stays int, 1.0 float


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: blob[:-3],  # truncated
        lambda blob: blob.replace(b'"', b"'", 1),  # one byte of the value changed
        lambda blob: blob.split(b"\n", 1)[1],  # no header
        lambda blob: b"",  # empty
        lambda blob: b"\xff\xfe garbage",
    ],
)
def test_damaged_entry_is_parsed_again_and_rewritten(tmp_path: Path, damage: Callable[[bytes], bytes]) -> None:
    path = tmp_path / "x.toml"
    path.write_text('name = "x"\nsizes = [1, 2.5, true]\n[table]\nkey = "vàlue"\n', encoding="utf-8")
    expected = {"name": "x", "sizes": [1, 2.5, True], "table": {"key": "vàlue"}}
    assert toml_cache.read_toml(path) == expected
    entry = entry_of(path)
    good = entry.read_bytes()
    entry.write_bytes(damage(good))
    assert toml_cache._cached(str(entry), entry.stem) is None
    assert toml_cache.read_toml(path) == expected
    assert entry.read_bytes() == good


def test_an_entry_for_other_bytes_is_not_used(tmp_path: Path) -> None:
    """A foreign entry (another file's, even well-formed) under this file's name is not trusted."""
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text("a = 1\n", encoding="utf-8")
    second.write_text("a = 2\n", encoding="utf-8")
    toml_cache.read_toml(first)
    entry_of(second).write_bytes(entry_of(first).read_bytes())
    assert toml_cache.read_toml(second) == {"a": 2}


def test_an_edit_counts_at_once(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    assert toml_cache.read_toml(path) == {"a": 1}
    path.write_text("a = 3\n", encoding="utf-8")
    assert toml_cache.read_toml(path) == {"a": 3}


def test_dates_are_parsed_every_time_never_cached(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("when = 2026-11-25\n", encoding="utf-8")
    with path.open("rb") as handle:
        expected = tomllib.load(handle)
    assert toml_cache.read_toml(path) == expected and not entry_of(path).exists()


def test_bad_toml_and_bad_bytes_raise_as_tomllib_does(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("a = \n", encoding="utf-8")
    with pytest.raises(tomllib.TOMLDecodeError) as real:
        tomllib.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(toml_cache.TomlError) as ours:
        toml_cache.read_toml(path)
    assert str(ours.value) == str(real.value)
    path.write_bytes(b"a = '\xff'\n")
    with pytest.raises(UnicodeDecodeError):
        toml_cache.read_toml(path)
    with pytest.raises(FileNotFoundError):
        toml_cache.read_toml(tmp_path / "missing.toml")


def test_an_unwritable_cache_still_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("BOGGLE_I18N_CACHE", str(blocker))
    path = tmp_path / "x.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    assert toml_cache.read_toml(path) == {"a": 1} == toml_cache.read_toml(path)
    assert os.path.isfile(blocker)


def test_a_fifo_at_the_entry_path_is_passed_over_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("a = 1\n", encoding="utf-8")
    entry = entry_of(path)
    entry.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(entry)
    assert toml_cache.read_toml(path) == {"a": 1}  # not waited on: opened without blocking, not a regular file
    assert entry.is_file() and toml_cache._cached(str(entry), entry.stem) == {"a": 1}
