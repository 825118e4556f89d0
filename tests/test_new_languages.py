"""Anchor words of issue 26's languages, on real data, without building the whole lexicons.

tests/test_debian_lists.py builds a sample of the new languages whole (af bs is sw); the others
take 30 s to 2 min each. Here each language's real recipe (its letter policy, its depth, its
Debian .aff) is run on the stems of its .dic that begin like an anchor word: everyday words must
come out, in the language's own letters; names and abbreviations must not. A form made from a
subset of the stems is made from all of them, so a word found here is in the full lexicon.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from boggle_i18n import build_lexicon
from boggle_i18n.lookup import lookup
from boggle_i18n.pipeline import load_recipe

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Everyday words (nouns with a plural, a verb form, adjectives, adverbs) and junk (names,
# abbreviations) per language, as a player would type them.
ANCHORS = {
    "sk": ("dom domy voda vody robím veľký dobre človek ľudia mesto", "bratislava sr"),
    "sl": ("hiša hiše voda delam velik dobro človek ljudje mesto", "ljubljana npr"),
    "hr": ("kuća kuće grad gradovi voda škola radim veliki dobro čovjek ljudi", "zagreb split"),
    "sr": ("кућа куће град вода школа радим велики добро људи", "београдац србијанка"),
    "ro": ("casă case apă școală lucrez mare bine omul oameni oraș", "bucurești"),
    "lv": ("māja mājas ūdens skola strādāju liels labi cilvēks cilvēki pilsēta", "rīga"),
    "be": ("дом вада школа вялікі добра чалавек людзі горад", "мінск"),
    "kk": ("кітап кітаптың кітабы мектеп үлкен жақсы адам адамдар қала", "адиль агзам"),
    "sq": ("shtëpi ujë shkollë punoj madh mirë njeri njerëz qytet", "tirana"),
    "id": ("rumah air sekolah kerja besar baik orang makan makanan", "jakarta"),
    # Occitan: accents fold (escòla -> escola), elided forms (l'ostal) and names (Tolosa) are not words.
    "oc": ("ostal ostals aiga escòla escòlas trabalhi parlam granda bon òme òmes vila femna lenga", "tolosa l'ostal"),
    # Aragonese: no clitic (-se) or elided (l') forms, no stacked diminutives, no -oas forms of a malformed rule.
    "an": (
        "casa casas augua escuela escuelas charrar charramos bueno buenas hombre hombres ciudat ciudatz libros canoas",
        "zaragoza alzamientoetet buenoas filoet afogatz-se",
    ),
    # Basque: one case ending on a noun (etxea, etxean, etxetik, etxearekin) in; names and the stacks of a
    # second ending (etxearenarentzat: "for the one of the house's") and of a diminutive out (etxetxoa)
    "eu": (
        "etxe etxea etxeak etxean etxeko etxetik etxera etxearekin etxeentzat eskolan gizonak handia ondo "
        "herrian mendira euskaraz txakurra haurrak",
        "bilbo donostia etxearenarentzat etxetxoa",
    ),
}


def _mini_recipe(name: str, words: list[str], folder: Path) -> Path:
    """Recipe `name` rewritten to read only the .dic stems beginning like one of `words`."""
    recipe = load_recipe(name)
    dic = Path(recipe.source.system[0])
    if not dic.is_file():
        message = f"{dic} not installed (apt-get install {recipe.source.system_package})"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    from boggle_i18n.pipeline.affixes import aff_encoding

    encoding = aff_encoding(dic.with_suffix(".aff"))
    starts = {w[:3] for w in words} | {w[:3].capitalize() for w in words}
    lines = dic.read_bytes().decode(encoding, "replace").split("\n")[1:]
    chosen = [line for line in lines if line[:3] in starts]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mini.aff").write_bytes(dic.with_suffix(".aff").read_bytes())
    (folder / "mini.dic").write_bytes(f"{len(chosen)}\n{chr(10).join(chosen)}\n".encode(encoding, "replace"))
    raw = dict(recipe.raw)
    raw.pop("extends", None)
    raw["name"] = f"{name}-mini"
    raw["source"] = {**raw["source"], "system": [str(folder / "mini.dic")]}
    path = folder / f"{name}-mini.toml"
    lines_out = [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in raw.items() if k not in ("source", "stages")]
    lines_out += ["[source]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in raw["source"].items()]
    for stage in raw["stages"]:
        if "file" in stage and recipe.path is not None:  # a list beside the real recipe (eu's abbreviations)
            stage = {**stage, "file": str(recipe.path.parent / stage["file"])}
        lines_out += ["[[stages]]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in stage.items()]
    path.write_text("\n".join(lines_out) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(ANCHORS))
def test_anchor_words_present_and_junk_absent(name: str, tmp_path: Path) -> None:
    everyday, junk = (text.split() for text in ANCHORS[name])
    path = _mini_recipe(name, everyday + junk, tmp_path / "dict")
    store = tmp_path / "store"
    lexicon = build_lexicon(str(path), store=store, download=False)
    assert len(lexicon) > 100
    answers = lookup(everyday + junk, lexicon=lexicon.name, store=store)
    found = {a.word for a in answers if a.found}
    assert set(everyday) - found == set()
    assert set(junk) & found == set()


def test_occitan_morphological_fields_never_become_forms() -> None:
    """hunspell-oc's .dic lines carry fields after a tab (`abaciala/sDl	po:nom	po:adj	is:fem`): the affix
    expander reads the stem and its flags only, so no form holds a tab, a field or its colon (unmunch's
    output did: the guide counted 9k such entries)."""
    from boggle_i18n.pipeline.affixes import expand

    dic = Path("/usr/share/hunspell/oc_FR.dic")
    if not dic.is_file():
        if CI:
            pytest.fail(f"{dic} not installed (apt-get install hunspell-oc)")
        pytest.skip(f"{dic} not installed (apt-get install hunspell-oc)")
    lines = dic.read_text(encoding="utf-8").split("\n")[1:]
    chosen = [line for line in lines if line.startswith(("abac", "abad", "aiga"))]
    assert any("\tpo:" in line for line in chosen)  # the fields are there to leak
    with _tmp_pair(dic, chosen) as mini:
        forms = set(expand(mini))
    assert {"abaciala", "abacialas", "abadessa", "abadessas", "aiga"} <= forms
    assert not [f for f in forms if "\t" in f or ":" in f]


@contextmanager
def _tmp_pair(dic: Path, lines: list[str]) -> Iterator[Path]:
    """A .dic of `lines` beside a copy of `dic`'s .aff, in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "mini.aff").write_bytes(dic.with_suffix(".aff").read_bytes())
        (folder / "mini.dic").write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
        yield folder / "mini.dic"


def test_upper_sorbian_ch_and_dz_are_one_face_each_both_ways(tmp_path: Path) -> None:
    """ch and dź are letters of Upper Sorbian: the real recipe, on aspell-hsb's own expansion of a few of its
    stems, keeps chěža and dźěći; chěža needs the [ch] face (4 letters), c and h faces (letters of their own) never
    spell it; dźěći needs [dź], and ź, written only inside dź, is no face; names are not words."""
    import shutil
    import subprocess

    from boggle_i18n.cli import app
    from boggle_i18n.cli.testing import CliRunner

    if not (Path("/usr/lib/aspell/hsb.rws").is_file() and shutil.which("aspell")):
        if CI:
            pytest.fail("aspell-hsb not installed (apt-get install aspell aspell-hsb)")
        pytest.skip("aspell-hsb not installed (apt-get install aspell aspell-hsb)")
    dump = subprocess.run(["aspell", "-d", "hsb", "dump", "master"], capture_output=True, check=True).stdout
    chosen = b"\n".join(line for line in dump.split(b"\n") if line.startswith(tuple(s.encode() for s in STEMS)))
    expanded = subprocess.run(["aspell", "--lang=hsb", "expand"], input=chosen, capture_output=True, check=True)
    source = tmp_path / "hsb-slice.txt"
    source.write_bytes(expanded.stdout.replace(b" ", b"\n"))
    store = tmp_path / "store"
    lexicon = build_lexicon("hsb", source=source, store=store, download=False)
    answers = {a.word: a for a in lookup(["chěža", "dźěći", "dobry", "budyšin"], lexicon="hsb", store=store)}
    assert [w for w, a in answers.items() if a.found] == ["chěža", "dźěći", "dobry"]
    assert answers["chěža"].length == 4 and answers["dźěći"].length == 4 and len(lexicon) > 100

    def solve(board: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(app, ["solve", board, "--lang", "hsb", "--store", str(store)])
        return result.exit_code, result.stdout, result.stderr

    assert "chěža" in solve("[ch]ě/až")[1].split()
    assert "chěža" not in solve("chě/až.")[1].split()
    assert "dźěći" in solve("[dź]ě/ić")[1].split()
    code, _, err = solve("dźě/ić.")
    assert code == 1 and "outside the hsb alphabet" in err


STEMS = ("chěž", "dźěć", "dobr", "budyšin")


def abbreviations(dic: Path, folder: Path) -> list[str]:
    """hunspell-eu's abbreviations: bare flagless entries of 3+ letters whose form with a final full stop is an
    entry too (`adb` beside `adb.`), unless a flagged entry of the stem gives the bare form (a word: `orok`).
    How pipelines/lists/eu-abbreviations.txt was made."""
    import re

    from boggle_i18n.pipeline.affixes import Depth, expand

    lines = dic.read_text(encoding="utf-8").split("\n")[1:]
    dotted = {m.group(1) for line in lines if (m := re.fullmatch(r"([a-zñ]+)\.", line.partition("/")[0]))}
    flagged = [line for line in lines if "/" in line and line.partition("/")[0] in dotted]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "flagged.dic").write_text(f"{len(flagged)}\n" + "\n".join(flagged) + "\n", encoding="utf-8")
    (folder / "flagged.aff").write_bytes(dic.with_suffix(".aff").read_bytes())
    words = set(expand(folder / "flagged.dic", None, Depth(1, 0)))
    return sorted({line for line in lines if line in dotted and len(line) >= 3 and line not in words})


def test_basque_abbreviation_list_is_the_dictionarys(tmp_path: Path) -> None:
    """pipelines/lists/eu-abbreviations.txt is what `abbreviations` finds in the installed hunspell-eu."""
    from boggle_i18n.pipeline.stages import read_list

    recipe = load_recipe("eu")
    dic = Path(recipe.source.system[0])
    if not dic.is_file():
        if CI:
            pytest.fail(f"{dic} not installed (apt-get install hunspell-eu)")
        pytest.skip(f"{dic} not installed (apt-get install hunspell-eu)")
    listed = read_list(Path(__file__).resolve().parent.parent / "pipelines", "lists/eu-abbreviations.txt")
    assert listed == abbreviations(dic, tmp_path)
    assert {"adb", "etc", "pta"} <= set(listed) and not {"orok", "jas", "kap"} & set(listed)
