"""tools/audit_evidence.py: a folded word's source spellings are recovered (accents, the Catalan middle dot,
a Latin-1 list, a Latin-1 hunspell dictionary), hunspell stems tell a headword from an inflection, and bad
input is one `Error:` line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, require_file, require_tool

sys.path.insert(0, str(REPO / "tools"))

from audit_evidence import evidence, folder, language_record, recipe_source, unfold


def test_unfold_restores_accents_and_the_catalan_middle_dot() -> None:
    fold = folder(language_record("ca"))
    assert fold("col·lecció") == "colleccio"
    spellings = unfold("colleccio", fold, "óé·")
    assert "col·lecció" in spellings and "colleccio" in spellings
    assert all(fold(s) == "colleccio" for s in spellings)
    assert unfold("sino", fold, "") == ["sino"]  # no pool: only the word itself


def test_letters_of_the_alphabet_are_not_unfolded() -> None:
    fold = folder(language_record("ro"))  # ă â î ș ț are Romanian letters, not accents
    assert unfold("casa", fold, "ăâ") == ["casa"]
    assert fold("ţara") == "țara"  # cedilla folds to the comma below, as the recipe folds it


def test_the_recipe_names_the_source_to_consult() -> None:
    assert recipe_source("ro").kind == "hunspell" and recipe_source("ro").where.endswith("ro_RO")
    ca = recipe_source("ca")
    assert (ca.kind, ca.where, ca.encoding) == ("list", "/usr/share/dict/catalan", "utf-8")
    assert recipe_source("nn").encoding == "iso-8859-1"
    assert recipe_source("ga").kind == "aspell"


def test_a_folded_catalan_word_is_traced_to_its_accented_spelling() -> None:
    require_file(Path("/usr/share/dict/catalan"), "Debian's wcatalan")
    by_word = {e.word: e for e in evidence("ca", [("sino", 20), ("qzxqzx", 1)])}
    assert [s.text for s in by_word["sino"].spellings] == ["sinó"]
    assert by_word["sino"].spellings[0].zipf > 4  # sinó is common Catalan, the folded sino is not a spelling
    assert by_word["qzxqzx"].spellings == [] and "NOT IN SOURCE" in by_word["qzxqzx"].line()


def test_a_latin1_list_is_read_in_its_encoding() -> None:
    require_file(Path("/usr/share/dict/nynorsk"), "Debian's wnorwegian")
    (item,) = evidence("nn", [("føta", 1)])
    assert [s.text for s in item.spellings] == ["føta"]


def test_hunspell_stems_tell_an_inflected_form_and_a_latin1_dictionary_is_unfolded() -> None:
    require_tool("hunspell", "hunspell")
    require_file(Path("/usr/share/hunspell/ro_RO.dic"), "hunspell-ro")
    (casei,) = evidence("ro", [("casei", 1)])
    assert casei.spellings[0].stems == ["casă"]  # the dative of casă: an inflected form, not a headword
    assert any("dat" in m for m in casei.spellings[0].morph)
    assert casei.neighbours and casei.zipf is not None and casei.zipf > 3
    require_file(Path("/usr/share/hunspell/an_ES.dic"), "hunspell-an")
    (dia,) = evidence("an", [("dia", 1)])  # an_ES is ISO-8859-1: its í is found all the same
    assert "día" in [s.text for s in dia.spellings]


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "audit_evidence.py"), *args], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [(["../etc"], "no language"), (["zz"], "no language"), (["ca", "--dir", "/nonexistent"], "does not exist")],
)
def test_bad_input_is_one_error_line(args: list[str], message: str) -> None:
    proc = run_tool(*args)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("Error: ") and message in proc.stderr and proc.stderr.count("\n") == 1
