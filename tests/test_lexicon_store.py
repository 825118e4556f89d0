"""The lexicon store: loading checks, atomic builds, lookups and listing."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import BoggleI18nError, Lexicon, build_lexicon
from boggle_i18n.errors import LexiconError, OutputError, SourceError
from boggle_i18n.lexicon import built_lexicons

MINI_EN = FIXTURES / "mini-en.txt"
# What en-enable2k's recipe keeps of mini-en.txt: a-z, 3+ letters, no bare q, deduplicated.
MINI_EN_WORDS = ["cat", "catalog", "cats", "dog", "quit", "zebra"]


def build_mini(store: Path, name: str = "en-enable2k", source: Path = MINI_EN) -> Lexicon:
    return build_lexicon(name, source=source, store=store, download=False)


def files(folder: Path) -> set[str]:
    return set(os.listdir(folder)) if folder.is_dir() else set()


@pytest.fixture
def mini(store: Path) -> Lexicon:
    return build_mini(store)


# --- lookups ----------------------------------------------------------------------------------


def test_contents_and_len(mini: Lexicon, store: Path) -> None:
    """The built word set is exactly what the recipe keeps of the fixture list."""
    loaded = Lexicon.load("en-enable2k", store)
    for lexicon in (mini, loaded):
        assert list(lexicon) == MINI_EN_WORDS
        assert len(lexicon) == 6
        assert "cat" in lexicon and "quit" in lexicon
        assert "ca" not in lexicon and "qi" not in lexicon and "Dog" not in lexicon and "ox" not in lexicon


def test_has_prefix(mini: Lexicon) -> None:
    """has_prefix is true for proper prefixes and for whole words, false otherwise."""
    assert mini.has_prefix("")
    assert mini.has_prefix("c") and mini.has_prefix("ca") and mini.has_prefix("cata")
    assert mini.has_prefix("cat") and mini.has_prefix("catalog")
    assert not mini.has_prefix("catalogs")
    assert not mini.has_prefix("x")
    assert not mini.has_prefix("qi")
    assert mini.words_with_prefix("cat") == ["cat", "catalog", "cats"]


@pytest.mark.parametrize("name", ["enable2k", "dutch"])
def test_probes_yield_the_prefix_first_when_it_is_a_word(name: str, request: pytest.FixtureRequest) -> None:
    """The reference solver takes `next(starting(prefix)) == prefix` as "prefix is a word" (`Lexicon.probes`)."""
    lexicon: Lexicon = request.getfixturevalue(name)
    contains, starting = lexicon.probes()
    words = lexicon.keys()
    assert all(next(starting(word)) == word for word in words)
    prefixes = {word[:end] for word in words[::7] for end in range(1, len(word))}
    assert all((next(starting(prefix)) == prefix) is contains(prefix) for prefix in prefixes)
    assert any(not contains(prefix) for prefix in prefixes)


def test_from_words() -> None:
    """An in-memory lexicon offers the same interface."""
    lexicon = Lexicon.from_words(["kat", "kater", "hond"], name="t")
    assert len(lexicon) == 3 and lexicon.name == "t"
    assert "kater" in lexicon and not lexicon.has_prefix("katz") and lexicon.has_prefix("kate")


def test_load_by_marisa_path(mini: Lexicon, store: Path) -> None:
    """A .marisa path loads with the manifest beside it."""
    lexicon = Lexicon.load(str(store / "en-enable2k.marisa"))
    assert list(lexicon) == MINI_EN_WORDS
    assert lexicon.manifest_sha256 == hashlib.sha256((store / "en-enable2k.json").read_bytes()).hexdigest()


# --- load errors ------------------------------------------------------------------------------


def test_load_not_built(store: Path) -> None:
    """A lexicon that was never built says how to build it."""
    with pytest.raises(LexiconError, match=r"not built.*build-lexicon nl"):
        Lexicon.load("nl", store)


def test_load_corrupt_manifest(mini: Lexicon, store: Path) -> None:
    """A manifest that is not JSON is refused with a rebuild hint."""
    (store / "en-enable2k.json").write_text('{"format": "boggle-i18n-lex', encoding="utf-8")
    with pytest.raises(LexiconError, match=r"corrupt.*rebuild"):
        Lexicon.load("en-enable2k", store)


def test_load_manifest_not_utf8(mini: Lexicon, store: Path) -> None:
    """Binary garbage in the manifest is a LexiconError too, not a UnicodeDecodeError."""
    (store / "en-enable2k.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(LexiconError, match="rebuild"):
        Lexicon.load("en-enable2k", store)


def test_load_foreign_json(mini: Lexicon, store: Path) -> None:
    """Some other JSON file in the store is not taken for a lexicon."""
    (store / "en-enable2k.json").write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(LexiconError, match="not a boggle-i18n lexicon"):
        Lexicon.load("en-enable2k", store)


def test_load_wrong_format_version(mini: Lexicon, store: Path) -> None:
    """A lexicon from a future (or older) format is refused, with a rebuild hint."""
    path = store / "en-enable2k.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["format_version"] = 99
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"format_version is 99 \(a number\), this boggle-i18n reads 1.*rebuild"):
        Lexicon.load("en-enable2k", store)


def test_load_truncated_trie(mini: Lexicon, store: Path) -> None:
    """A half-copied trie fails its checksum instead of giving wrong answers."""
    path = store / "en-enable2k.marisa"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(LexiconError, match=r"corrupt.*rebuild"):
        Lexicon.load("en-enable2k", store)


def test_load_garbled_trie_with_matching_checksum(mini: Lexicon, store: Path) -> None:
    """Even when the manifest vouches for it, bytes that are no trie give a LexiconError."""
    garbage = b"not a marisa trie at all" * 50
    (store / "en-enable2k.marisa").write_bytes(garbage)
    path = store / "en-enable2k.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["trie_sha256"] = hashlib.sha256(garbage).hexdigest()
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"corrupt.*rebuild"):
        Lexicon.load("en-enable2k", store)


def test_load_missing_trie(mini: Lexicon, store: Path) -> None:
    """A manifest without its trie says the trie is missing."""
    (store / "en-enable2k.marisa").unlink()
    with pytest.raises(LexiconError, match=r"missing.*rebuild"):
        Lexicon.load("en-enable2k", store)


# --- atomic builds ----------------------------------------------------------------------------


def test_build_leaves_only_trie_and_manifest(mini: Lexicon, store: Path) -> None:
    """A build writes NAME.marisa and NAME.json and no temporary files."""
    assert files(store) == {"en-enable2k.marisa", "en-enable2k.json"}
    assert not [f for f in files(store) if f.endswith(".tmp")]


def test_empty_source_writes_nothing(store: Path, tmp_path: Path) -> None:
    """A source of only blank lines is an error, and no lexicon files appear."""
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n\n", encoding="utf-8")
    with pytest.raises(SourceError, match="empty"):
        build_mini(store, source=empty)
    assert files(store) == set()


def test_source_keeping_no_words_writes_nothing(store: Path, tmp_path: Path) -> None:
    """A list the recipe filters to nothing (wrong list?) is an error, not an empty lexicon."""
    useless = tmp_path / "useless.txt"
    useless.write_text("qi\nab\nOX\n12\n", encoding="utf-8")
    with pytest.raises(BoggleI18nError, match="kept no words"):
        build_mini(store, source=useless)
    assert files(store) == set()


@pytest.mark.parametrize("content", [b"", b"\n\n", b"qi\nab\n", b"caf\xe9\n"])
def test_failed_build_keeps_existing_lexicon(mini: Lexicon, store: Path, tmp_path: Path, content: bytes) -> None:
    """A failing rebuild must not clobber a good lexicon of the same name."""
    before = {f: (store / f).read_bytes() for f in files(store)}
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    with pytest.raises(BoggleI18nError):
        build_mini(store, source=bad)
    assert {f: (store / f).read_bytes() for f in files(store)} == before
    assert list(Lexicon.load("en-enable2k", store)) == MINI_EN_WORDS


def test_interrupted_write_leaves_no_temp_and_keeps_old(
    mini: Lexicon, store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the final rename fails, the temporary file is removed and the old files stay intact."""
    before = {f: (store / f).read_bytes() for f in files(store)}
    other = tmp_path / "other.txt"
    other.write_text("horse\nzebra\n", encoding="utf-8")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr("boggle_i18n.storage.os.replace", boom)
        with pytest.raises(OutputError, match=r"cannot write .*en-enable2k\.marisa: No space left"):
            build_mini(store, source=other)
    assert {f: (store / f).read_bytes() for f in files(store)} == before
    assert list(Lexicon.load("en-enable2k", store)) == MINI_EN_WORDS


def test_rebuild_replaces_lexicon(mini: Lexicon, store: Path, tmp_path: Path) -> None:
    """A successful rebuild from another list replaces both files consistently."""
    other = tmp_path / "other.txt"
    other.write_text("horse\nzebra\n", encoding="utf-8")
    build_mini(store, source=other)
    assert list(Lexicon.load("en-enable2k", store)) == ["horse", "zebra"]
    assert files(store) == {"en-enable2k.marisa", "en-enable2k.json"}


def test_build_as_other_name(store: Path) -> None:
    """--as stores a shipped recipe's result under another name, recorded in the manifest."""
    lexicon = build_lexicon("en-enable2k", source=MINI_EN, store=store, save_as="en-mine")
    assert lexicon.name == "en-mine"
    assert files(store) == {"en-mine.marisa", "en-mine.json"}
    assert Lexicon.load("en-mine", store).manifest["recipe"]["name"] == "en-mine"


# --- listing ----------------------------------------------------------------------------------


def test_built_lexicons_lists_built_ones(store: Path) -> None:
    """Only real manifests count; stray or broken JSON files are skipped."""
    assert built_lexicons(store) == {}
    build_mini(store)
    build_lexicon("en", source=MINI_EN, store=store)
    (store / "notes.json").write_text('{"format": "something-else"}', encoding="utf-8")
    (store / "broken.json").write_text("{", encoding="utf-8")
    (store / "list.json").write_text("[1, 2]", encoding="utf-8")
    listed = built_lexicons(store)
    assert set(listed) == {"en", "en-enable2k"}
    assert listed["en"]["word_count"] == 6
    assert listed["en-enable2k"]["name"] == "en-enable2k"


def test_built_lexicons_missing_store(tmp_path: Path) -> None:
    """A store folder that does not exist yet lists nothing rather than failing."""
    assert built_lexicons(tmp_path / "nowhere") == {}


def test_default_store_is_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without --store, lexicons go to $BOGGLE_I18N_HOME."""
    monkeypatch.setenv("BOGGLE_I18N_HOME", str(tmp_path / "home"))
    build_lexicon("en-enable2k", source=MINI_EN)
    assert files(tmp_path / "home") == {"en-enable2k.marisa", "en-enable2k.json"}
    assert set(built_lexicons()) == {"en-enable2k"}
