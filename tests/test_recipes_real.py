"""Acceptance checks: the shipped recipes on the real raw lists in ../shared/data/lexicons.

Reference results are computed here independently of the pipeline (real grep, plain
Python) or taken from the data README, never from the code under test.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tomllib
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import REPO, shared_file

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.pipeline.stages import read_list

TEUNCM_COUNT = 309_361  # teuncm/boggle-solver's filter on OpenTaal 2.20.23
ENABLE2K_BOGGLE_OK = 173_402  # hybrid-boggle README: "Boggle OK" words of ENABLE2K
OPENTAAL_LINES = 413_937
A_Z = re.compile(r"[a-z]+")


def readme_sha256(filename: str) -> str:
    """The checksum the data README records for `filename`."""
    text = shared_file("lexicons", "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == filename:
            return cells[-1]
    raise AssertionError(f"{filename} not in the data README")


def raw_lines(filename: str) -> list[str]:
    """The file's lines as grep sees them: split on LF only."""
    text = shared_file("lexicons", filename).read_text(encoding="utf-8")
    assert text.endswith("\n")
    return text[:-1].split("\n")


def boggle_ok(lines: list[str]) -> set[str]:
    """hybrid-boggle's rule: a-z, 3 or more letters, every q followed by u."""
    return {w for w in lines if A_Z.fullmatch(w) and len(w) >= 3 and not re.search(r"q(?!u)", w)}


@pytest.fixture(scope="module")
def teuncm_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("teuncm")
    build_lexicon("nl-teuncm", source=shared_file("lexicons", "nl-opentaal-wordlist.txt"), store=root, download=False)
    return root


@pytest.fixture(scope="module")
def teuncm(teuncm_store: Path) -> Lexicon:
    return Lexicon.load("nl-teuncm", teuncm_store)


@pytest.fixture(scope="module")
def german(built_store: Path) -> Lexicon:
    return Lexicon.load("de", built_store)


@pytest.fixture(scope="module")
def nl_manifest(built_store: Path) -> dict:
    return json.loads((built_store / "nl.json").read_text(encoding="utf-8"))


# --- nl-teuncm: identical to the grep pipeline ------------------------------------------------


def python_grep_reference() -> set[str]:
    """grep -P "^[a-z]{3,16}$" | grep -P "[aeiouy]+" | grep -P "[^aeiouy]+", in plain Python."""
    out = set()
    for line in raw_lines("nl-opentaal-wordlist.txt"):
        if re.search(r"^[a-z]{3,16}$", line) and re.search(r"[aeiouy]+", line) and re.search(r"[^aeiouy]+", line):
            out.add(line)
    return out


def test_teuncm_equals_python_grep_reimplementation(teuncm: Lexicon) -> None:
    """nl-teuncm must give exactly teuncm/boggle-solver's word set (309,361 words)."""
    reference = python_grep_reference()
    assert len(reference) == TEUNCM_COUNT
    assert len(teuncm) == TEUNCM_COUNT
    assert set(teuncm) == reference


def test_teuncm_equals_real_grep(teuncm: Lexicon) -> None:
    """The same check against the real shell pipeline, when GNU grep -P is available."""
    grep = shutil.which("grep")
    if grep is None or subprocess.run([grep, "-P", "x"], input=b"", capture_output=True).returncode == 2:
        pytest.skip("grep -P is not available")
    path = shared_file("lexicons", "nl-opentaal-wordlist.txt")
    cmd = f'{grep} -P "^[a-z]{{3,16}}$" "{path}" | {grep} -P "[aeiouy]+" | {grep} -P "[^aeiouy]+"'
    out = subprocess.run(cmd, shell=True, capture_output=True, check=True, env={"LC_ALL": "C"}).stdout
    words = out.decode("ascii").split()
    assert len(words) == TEUNCM_COUNT
    assert len(set(words)) == TEUNCM_COUNT
    assert set(teuncm) == set(words)


def test_teuncm_build_is_byte_identical(teuncm_store: Path, tmp_path: Path) -> None:
    """The same source and recipe always give the same trie bytes (reproducible lexicons)."""
    build_lexicon("nl-teuncm", source=shared_file("lexicons", "nl-opentaal-wordlist.txt"), store=tmp_path)
    first = (teuncm_store / "nl-teuncm.marisa").read_bytes()
    second = (tmp_path / "nl-teuncm.marisa").read_bytes()
    assert first == second
    assert hashlib.sha256(second).hexdigest() == json.loads((tmp_path / "nl-teuncm.json").read_text())["trie_sha256"]


# --- English ----------------------------------------------------------------------------------


def test_enable2k_is_boggle_ok_set(enable2k: Lexicon) -> None:
    """en-enable2k keeps exactly hybrid-boggle's 173,402 "Boggle OK" words."""
    reference = boggle_ok(raw_lines("en-enable2k.txt"))
    assert len(reference) == ENABLE2K_BOGGLE_OK
    assert len(enable2k) == ENABLE2K_BOGGLE_OK
    assert set(enable2k) == reference


def test_enable1_is_boggle_ok_set(enable1: Lexicon) -> None:
    """`en` applies the same rules to enable1: a-z, 3+ letters, no q without u."""
    words = set(enable1)
    assert words == boggle_ok(raw_lines("en-enable1.txt"))
    assert {"quit", "cat", "zebra"} <= words
    assert not {"qi", "qat", "faqir", "aa"} & words


@pytest.mark.parametrize("name", ["en", "en-enable2k"])
def test_english_lexicons_are_clean(built_store: Path, name: str) -> None:
    """No short words, no bare q, only a-z, and a manifest whose stage counts chain."""
    lexicon = Lexicon.load(name, built_store)
    words = list(lexicon)
    assert min(len(w) for w in words) == 3
    assert all(A_Z.fullmatch(w) for w in words)
    assert not [w for w in words if re.search(r"q(?!u)", w)]
    manifest = lexicon.manifest
    stages = manifest["stages"]
    for prev, cur in pairwise(stages):
        assert cur["in"] == prev["kept"]
    assert stages[-1]["kept"] == manifest["word_count"] == len(words)


# --- nl: the Dutch default --------------------------------------------------------------------


def test_nl_contents(dutch: Lexicon) -> None:
    """Folded, no names: fiets and ideeen in; ideeën, Jansen and jansen out."""
    assert "fiets" in dutch
    assert "ideeen" in dutch
    assert "ideeën" not in dutch
    assert "Jansen" not in dutch
    assert "jansen" not in dutch
    assert "zwijnenpopulatie" in dutch


def nl_list(name: str) -> set[str]:
    """A shipped nl data list (block or allow), as the recipe reads it."""
    return set(read_list(REPO / "pipelines", f"lists/{name}"))


def test_nl_only_plain_words(dutch: Lexicon) -> None:
    """No space, digit, capital or non a-z; each word has a vowel and a consonant (or is allowed); 3+ letters."""
    words = list(dutch)
    allowed = nl_list("nl-allow.txt")
    assert len(words) > 300_000
    assert all(A_Z.fullmatch(w) for w in words)
    assert all(len(w) >= 3 for w in words)
    assert all(w in allowed or (re.search("[aeiouy]", w) and re.search("[^aeiouy]", w)) for w in words)


def test_nl_has_every_plain_opentaal_word(dutch: Lexicon) -> None:
    """Every raw entry that already is a plain a-z word passing the rules (and not blocked) must survive."""
    blocked = nl_list("nl-abbreviations.txt") | nl_list("nl-english.txt")
    allowed = nl_list("nl-allow.txt")
    plain = {
        w
        for w in raw_lines("nl-opentaal-wordlist.txt")
        if A_Z.fullmatch(w)
        and len(w) >= 3
        and (w in allowed or (re.search("[aeiouy]", w) and re.search("[^aeiouy]", w)))
        and w not in blocked
    }
    missing = plain - set(dutch)
    assert not missing, sorted(missing)[:10]


def test_nl_block_and_allow_lists(dutch: Lexicon, nl_manifest: dict) -> None:
    """hbo, havo, okt (abbreviations) go; ooi, aai, oei (real words with no consonant) stay; counts are reported."""
    raw = set(raw_lines("nl-opentaal-wordlist.txt"))
    for word in ("hbo", "mbo", "havo", "okt"):
        assert word in raw and word not in dutch
    for word in ("ooi", "aai", "oei", "brr"):
        assert word in raw and word in dutch
    assert "aio" not in dutch and "bbp" not in dutch  # the rules still drop abbreviations
    blocklist = next(s for s in nl_manifest["stages"] if s["stage"] == "blocklist")
    consonant = next(s for s in nl_manifest["stages"] if s["stage"] == "require-consonant")
    assert sorted(consonant["allowed"]) == ["aai", "oei", "ooi"]
    reaching = {w for w in nl_list("nl-abbreviations.txt") & raw if re.search("[aeiouy]", w)}  # mrt: no vowel
    assert blocklist["dropped"] == len(reaching) > 10


def test_nl_manifest_stage_counts_chain(nl_manifest: dict) -> None:
    """Per-stage counts start at the raw line count and chain to the word count."""
    stages = nl_manifest["stages"]
    recipe = tomllib.loads((REPO / "pipelines" / "nl.toml").read_text(encoding="utf-8"))
    assert [s["stage"] for s in stages] == [s["stage"] for s in recipe["stages"]]
    assert stages[0]["in"] == nl_manifest["raw_entries"] == OPENTAAL_LINES
    for prev, cur in pairwise(stages):
        assert cur["in"] == prev["kept"]
    for st in stages:
        assert st["in"] - st["kept"] == st["dropped"] >= 0
    assert stages[-1]["kept"] == nl_manifest["word_count"]
    by_name = {s["stage"]: s for s in stages}
    assert by_name["fold-accents"]["changed"] > 0
    assert by_name["drop-capitalised"]["dropped"] > 0
    assert by_name["dedupe"]["dropped"] > 0  # folding made duplicates


def test_nl_manifest_fields(nl_manifest: dict, built_store: Path, dutch: Lexicon) -> None:
    """The manifest records format, source checksum, recipe hash, counts, alphabet and trie hash."""
    m = nl_manifest
    assert m["format"] == "boggle-i18n-lexicon"
    assert m["format_version"] == 1
    assert m["name"] == "nl" and m["language"] == "nl"
    assert m["source"]["kind"] == "file"
    assert m["source"]["sha256"] == readme_sha256("nl-opentaal-wordlist.txt")
    assert m["source"]["bytes"] == 5_104_598
    raw_recipe = tomllib.loads((REPO / "pipelines" / "nl.toml").read_text(encoding="utf-8"))
    assert m["recipe"] == raw_recipe
    canon = json.dumps(raw_recipe, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert m["recipe_sha256"] == hashlib.sha256(canon.encode("utf-8")).hexdigest()
    words = list(dutch)
    assert m["word_count"] == len(words)
    assert m["alphabet"] == "".join(sorted(set("".join(words))))
    assert m["alphabet"] == "abcdefghijklmnopqrstuvwxyz"
    longest = max(len(w) for w in words)
    assert len(m["longest_word"]) == longest and m["longest_word"] in dutch
    trie = (built_store / "nl.marisa").read_bytes()
    assert m["trie_sha256"] == hashlib.sha256(trie).hexdigest()
    # Built from ../shared's copy with --source: it has the recipe's sha256, so it is the recipe's own list, with
    # its name and licence (a list of the user's own would be recorded as theirs, licence unknown).
    assert m["licence"] == raw_recipe["licence"]
    assert m["source"]["name"] == raw_recipe["source"]["name"]


def test_enable2k_rebuild_is_byte_identical(built_store: Path, tmp_path: Path) -> None:
    """Rebuilding a lexicon from the same list gives identical .marisa bytes."""
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=tmp_path)
    assert (tmp_path / "en-enable2k.marisa").read_bytes() == (built_store / "en-enable2k.marisa").read_bytes()


def test_source_checksums_match_readme(built_store: Path) -> None:
    """Each built lexicon's source sha256 is the README's checksum of the file it came from."""
    for name, filename in [("en", "en-enable1.txt"), ("en-enable2k", "en-enable2k.txt")]:
        manifest = json.loads((built_store / f"{name}.json").read_text(encoding="utf-8"))
        assert manifest["source"]["sha256"] == readme_sha256(filename)


# --- de ---------------------------------------------------------------------------------------


def test_german_transliterated(german: Lexicon) -> None:
    """Häuser becomes haeuser and Straße strasse (the raw list has neither spelling); only a-z."""
    raw = set(raw_lines("de-ngerman.txt"))
    assert "Häuser" in raw and "Haeuser" not in raw and "haeuser" not in raw
    assert "haeuser" in german
    assert "strasse" in german
    assert "häuser" not in german
    words = list(german)
    assert all(A_Z.fullmatch(w) for w in words)
    assert min(len(w) for w in words) == 3
    assert german.manifest["source"]["sha256"] == readme_sha256("de-ngerman.txt")


def test_german_keeps_nouns_drops_abbreviations_and_names(german: Lexicon) -> None:
    """German capitalises nouns (Haus, Häuser kept); BMW, CDU, GmbH are abbreviations; Berlin is a listed name."""
    raw = set(raw_lines("de-ngerman.txt"))
    for noun, folded in (("Haus", "haus"), ("Häuser", "haeuser"), ("Straße", "strasse"), ("Bach", "bach")):
        assert noun in raw and folded in german
    for entry in ("BMW", "CDU", "GmbH", "Berlin", "Hamburg"):
        assert entry in raw and entry.lower() not in german
    assert "gehen" in german and "gingen" in german
    stages = {s["stage"]: s for s in german.manifest["stages"]}
    assert stages["case"]["dropped"] == sum(
        1
        for w in raw
        if sum(ch.isupper() for ch in w) >= 2 or (any(ch.isupper() for ch in w[1:]) and not w[:1].isupper())
    )
