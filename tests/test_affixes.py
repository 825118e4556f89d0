"""The project's Hunspell affix expander (boggle_i18n/pipeline/affixes.py).

Small hand-made dictionaries pin each feature (flag types, aliases, conditions, continuation
classes, NEEDAFFIX, CIRCUMFIX, ONLYINCOMPOUND, FORBIDDENWORD, FULLSTRIP, IGNORE, encodings,
depth); where Debian's `hunspell` is installed the same forms are given to its checker, and
real dictionaries are checked form by form on a sample of stems (precision must be 100%).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from boggle_i18n.errors import SourceError
from boggle_i18n.pipeline.affixes import Depth, FormReader, expand, parse_aff
from boggle_i18n.pipeline.recipe import load_recipe

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def hunspell_exe() -> str:
    """Debian's hunspell (the checker), or skip (fail under CI=true: .ci/run installs it)."""
    exe = shutil.which("hunspell")
    if exe is None:
        if CI:
            pytest.fail("hunspell is not installed (apt-get install hunspell)")
        pytest.skip("hunspell is not installed (apt-get install hunspell)")
    return exe


def accepted(dic: Path, words: list[str]) -> set[str]:
    """The words hunspell's own checker accepts (`-G` prints the correct ones)."""
    out = subprocess.run(
        [hunspell_exe(), "-d", str(dic.with_suffix("")), "-i", "utf-8", "-G"],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    return set(out.stdout.split("\n")) - {""}


def write_pair(folder: Path, aff: str, dic: list[str], encoding: str = "utf-8", bom: bool = False) -> Path:
    """A .aff/.dic pair in `folder` (CRLF kept if written); returns the .dic path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.aff").write_bytes((b"\xef\xbb\xbf" if bom else b"") + aff.encode(encoding))
    path = folder / "t.dic"
    path.write_bytes(f"{len(dic)}\n{chr(10).join(dic)}\n".encode(encoding))
    return path


def forms(dic: Path, depth: Depth | None = None) -> set[str]:
    return set(expand(dic, None, depth))


LONG = """SET UTF-8
FLAG long
NEEDAFFIX Nx
CIRCUMFIX Cx
ONLYINCOMPOUND Oc
FORBIDDENWORD Fb

SFX Aa Y 3
SFX Aa 0 s [^y]
SFX Aa 0 s [aeiou]y
SFX Aa y ies [^aeiou]y

SFX Bb Y 1
SFX Bb 0 able/Aa .

SFX Nn Y 1
SFX Nn 0 er/NxAa .

PFX Un Y 1
PFX Un 0 un .

PFX Gg Y 1
PFX Gg 0 ge/Cx .

SFX Tt Y 1
SFX Tt 0 t/Cx .
"""


def test_long_flags_two_suffix_levels_and_cross_product(tmp_path: Path) -> None:
    """`conducible -> conducibles`: a suffix whose continuation names another suffix takes it after it."""
    dic = write_pair(tmp_path, LONG, ["read/BbUn", "fly/Aa", "play/AaUn"])
    got = forms(dic)
    assert {"read", "readable", "readables", "unread", "unreadable", "unreadables"} <= got
    assert {"fly", "flies", "play", "plays", "unplay", "unplays"} <= got
    assert "flys" not in got and "plaies" not in got  # conditions: [^aeiou]y only after a consonant
    assert forms(dic, Depth(1, 1)) == got - {"readables", "unreadables"}
    assert forms(dic, Depth(2, 0)) == {w for w in got if not w.startswith("un")}
    assert forms(dic, Depth(0, 0)) == {"read", "fly", "play"}


def test_suffix_letters_leaves_out_longer_suffix_rules(tmp_path: Path) -> None:
    """`suffix_letters = N`: no suffix rule adding more than N characters (its strip aside), at either level."""
    dic = write_pair(tmp_path, LONG, ["read/BbUn", "fly/Aa", "play/AaUn"])
    short = forms(dic, Depth(2, 1, suffix_letters=3))  # `able` (4) is out, `s`/`ies` (1, 3) stay
    assert short == {"read", "unread", "fly", "flies", "play", "plays", "unplay", "unplays"}
    assert forms(dic, Depth(2, 1, suffix_letters=2)) == short - {"flies"}  # `ies` adds 3
    assert forms(dic, Depth(2, 1, suffix_letters=4)) == forms(dic)  # every rule fits: the full expansion


def test_needaffix_circumfix_onlyincompound_forbidden(tmp_path: Path) -> None:
    dic = write_pair(tmp_path, LONG, ["walk/NxAaNn", "lach/GgTt", "part/OcAa", "bad/Aa", "bads/Fb"])
    got = forms(dic)
    assert "walk" not in got and "walks" in got  # NEEDAFFIX stem: no bare form
    assert "walker" not in got and "walkers" in got  # NEEDAFFIX on an affix: a further one is needed
    assert "gelacht" in got and "lacht" not in got and "gelach" not in got  # CIRCUMFIX: both or neither
    assert not {"part", "parts"} & got  # ONLYINCOMPOUND: compounds are not made
    assert "bad" in got and "bads" not in got  # a FORBIDDENWORD form is never given


def test_num_flags_af_aliases_and_ignore(tmp_path: Path) -> None:
    aff = """SET UTF-8
FLAG num
IGNORE ­
AF 2
AF 101,202
AF 202
SFX 101 Y 1
SFX 101 0 ar/2 .
SFX 202 Y 1
SFX 202 0 en .
"""
    dic = write_pair(tmp_path, aff, ["dag/1", "bil­ar"])  # soft hyphen ignored in the stem
    assert forms(dic) == {"dag", "dagar", "dagaren", "dagen", "bilar"}


def test_utf8_flags_and_conditions(tmp_path: Path) -> None:
    aff = """SET UTF-8
FLAG UTF-8
SFX Ж Y 2
SFX Ж а ы [^кгх]а
SFX Ж а и [кгх]а
"""
    dic = write_pair(tmp_path, aff, ["рыба/Ж", "рука/Ж"])
    assert forms(dic) == {"рыба", "рыбы", "рука", "руки"}


def test_set_encoding_bom_crlf_and_fullstrip(tmp_path: Path) -> None:
    """ISO-8859-2 bytes decoded by SET; a BOM and CRLF line ends read as Hunspell does."""
    aff = "SET ISO8859-2\r\nFULLSTRIP\r\nSFX A Y 1\r\nSFX A źle dobrze źle\r\n"
    dic = write_pair(tmp_path, aff, ["źle/A\r"], encoding="iso-8859-2", bom=True)
    assert parse_aff(tmp_path / "t.aff").encoding == "iso8859-2"
    assert forms(dic) == {"źle", "dobrze"}  # FULLSTRIP: the whole stem may be stripped
    no_full = write_pair(tmp_path / "b", aff.replace("FULLSTRIP\r\n", ""), ["źle/A"], encoding="iso-8859-2")
    assert forms(no_full) == {"źle"}


def test_rule_without_condition_field_matches_any_stem(tmp_path: Path) -> None:
    """hunspell-id writes `SFX a0 0 anlah` (no condition): Hunspell reads it as `.`."""
    aff = "SET UTF-8\nFLAG long\nSFX a0 Y 2\nSFX a0 0 an .\nSFX a0 0 anlah\n"
    assert forms(write_pair(tmp_path, aff, ["makan/a0"])) == {"makan", "makanan", "makananlah"}


def test_rule_with_a_condition_for_its_affix_is_left_out(tmp_path: Path) -> None:
    """hunspell-kk writes `SFX x у [аоуұыэ]ву` (the affix field missing): every form it would make holds
    brackets (268,212 of Kazakh's), so the rule is skipped and recorded, the well-formed one kept."""
    aff = "SET UTF-8\nSFX x Y 2\nSFX x у [аоуұыэ]ву\nSFX x у ып [аоуұыэ]ву\n"
    dic = write_pair(tmp_path, aff, ["абайлаву/x"])
    assert forms(dic) == {"абайлаву", "абайлавып"}
    assert parse_aff(tmp_path / "t.aff").skipped == ["SFX x у [аоуұыэ]ву"]


def test_form_reader_streams_lines(tmp_path: Path) -> None:
    dic = write_pair(tmp_path, LONG, ["read/BbUn", "fly/Aa"])
    reader = FormReader(expand(dic))
    data = b""
    while chunk := reader.read(5):
        data += chunk
    assert sorted(data.decode().split()) == sorted(forms(dic)) and data.endswith(b"\n")


def test_unknown_set_encoding_is_one_clear_error(tmp_path: Path) -> None:
    dic = write_pair(tmp_path, "SET NO-SUCH-CODEC\n", ["a"])
    with pytest.raises(SourceError, match="unknown SET encoding"):
        list(expand(dic))


def test_hand_made_forms_are_what_hunspell_accepts(tmp_path: Path) -> None:
    """Every form made is accepted by hunspell's checker, and forms the rules forbid are rejected."""
    dic = write_pair(tmp_path, LONG, ["read/BbUn", "fly/Aa", "walk/NxAaNn", "lach/GgTt", "bad/Aa", "bads/Fb"])
    made = sorted(forms(dic))
    assert accepted(dic, made) == set(made)
    assert not accepted(dic, ["walk", "walker", "lacht", "bads", "flys"])
    # Hunspell 1.7 checks CIRCUMFIX from the suffix's side only, so it takes `gelach` (a circumfix
    # prefix alone); the expander keeps the documented rule (both or neither): one form fewer, none wrong.
    assert "gelach" not in made


# --- real dictionaries: every form of a sample of stems is a word for hunspell --------------

REAL = ["es", "is", "sl", "be", "sk", "sr", "ko", "eu"]


def _sample_pair(name: str, folder: Path, n: int = 400, seed: int = 1) -> tuple[Path, Depth]:
    """A .dic of `n` random stems of recipe `name`'s dictionary, beside its own .aff (a copy)."""
    src = load_recipe(name).source
    dic = Path(src.system[0])
    if not dic.is_file():
        message = f"{dic} not installed (apt-get install {src.system_package})"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    raw = dic.read_bytes().split(b"\n")
    lines = [line for line in raw[1:] if line.strip()]
    chosen = random.Random(seed).sample(lines, min(n, len(lines)))
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(dic.with_suffix(".aff"), folder / "s.aff")
    out = folder / "s.dic"
    out.write_bytes(str(len(chosen)).encode() + b"\n" + b"\n".join(chosen) + b"\n")
    return out, Depth(
        src.suffix_levels, src.prefix_levels, frozenset(src.skip_flags), src.prefix_letters, src.suffix_letters
    )


@pytest.mark.parametrize("name", REAL)
def test_real_dictionary_forms_are_accepted_by_hunspell(name: str, tmp_path: Path) -> None:
    """Precision on real data: the forms of 400 random stems (letters only), each accepted by `hunspell -G`.

    The checker reads the sampled stems with the full .aff, so an affix rule read wrongly shows here.
    """
    sample, depth = _sample_pair(name, tmp_path)
    made = sorted({f for f in expand(sample, None, depth) if f.isalpha()})
    assert len(made) > 400
    rejected = sorted(set(made) - accepted(sample, made))
    assert len(rejected) <= KNOWN_GAP.get(name, 0.0) * len(made), rejected[:20]


# Slovak: Hunspell 1.7 rejects a few plural forms its class Z rule makes as written
# (`SFX Z a 0 [áéíóúŕýô].a`: `bravúr`, `chromosfér`; hunspell-sk lists some of them as words of
# their own, `bravúr` among them). Why the checker reads that rule differently is not found yet:
# 1 form in 1,000 (docs/languages.md), held at most at 1% here.
KNOWN_GAP = {"sk": 0.01}


# --- recipes: expand = "hunspell" and its depth ------------------------------------------------

BASE = """name = "t"
language = "es"
licence = "MIT"
[source]
name = "t"
system = ["/nowhere/t.dic"]
{extra}
[[stages]]
stage = "strip"
"""


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('expand = "hunspell"\nsuffix_levels = 3', "'suffix_levels' must be 0 to 2"),
        ('expand = "unmunch"\nprefix_levels = 1', "prefix_levels is a setting of expand = 'hunspell'"),
        ('expand = "hunspell"\nskip_flags = [""]', "'skip_flags' must be a list of affix flags"),
        ('expand = "hunspell"\nsuffix_levels = "2"', "'suffix_levels' must be an integer"),
        ('expand = "hunspell"\nsuffix_letters = 0', "'suffix_letters' must be 1 to 20, not 0"),
        ('expand = "hunspell"\nsuffix_letters = 21', "'suffix_letters' must be 1 to 20, not 21"),
        ('expand = "hunspell"\nsuffix_letters = true', "'suffix_letters' must be an integer"),
        ('expand = "aspell"\ndictionary = "ga"\nsuffix_letters = 3', "suffix_letters is a setting of expand"),
        ('expand = "hunspell"\nskip_affixes = ["et,ot"]', "'skip_affixes' must be a list of affix texts"),
        ('expand = "unmunch"\nskip_affixes = ["et"]', "skip_affixes is a setting of expand = 'hunspell'"),
    ],
)
def test_recipe_depth_fields_are_checked(tmp_path: Path, extra: str, message: str) -> None:
    from boggle_i18n.errors import RecipeError

    path = tmp_path / "t.toml"
    path.write_text(BASE.format(extra=extra), encoding="utf-8")
    with pytest.raises(RecipeError, match=message):
        load_recipe(str(path))


def build_long(tmp_path: Path, options: str) -> tuple[Any, Path]:
    """The lexicon an English recipe with `options` builds from the LONG affix file's small dictionary, and
    the .dic's path."""
    from boggle_i18n import build_lexicon

    dic = write_pair(tmp_path / "dict", LONG, ["read/BbUn", "fly/Aa", "play/AaUn"])
    recipe = tmp_path / "t.toml"
    extra = f'expand = "hunspell"\nsuffix_levels = 1\nprefix_levels = 0\n{options}system_package = "none"'
    recipe.write_text(
        BASE.format(extra=extra).replace("/nowhere/t.dic", str(dic)).replace('language = "es"', 'language = "en"'),
        encoding="utf-8",
    )
    return build_lexicon(str(recipe), store=tmp_path / "store", download=False), dic


def test_recipe_depth_reaches_the_expansion_and_the_manifest(tmp_path: Path) -> None:
    """A recipe's depth is what the expander applies, and the manifest records it."""
    lexicon, dic = build_long(tmp_path, "")
    assert set(lexicon) == {"read", "readable", "fly", "flies", "play", "plays"}
    expanded = lexicon.manifest["source"]["expanded"]
    assert expanded["tool"] == "hunspell" and expanded["depth"] == {"suffixes": 1, "prefixes": 0, "skip_flags": []}
    assert str(dic) in expanded["inputs"] and "--suffixes=1" in expanded["command"]


def test_skipped_affix_texts_are_never_added_whatever_their_flag(tmp_path: Path) -> None:
    """`skip_affixes`: a rule adding exactly that text is left out (Aragonese's stacking diminutive -et), every
    other rule of its class still applies, and so do its continuations from the other rules; the recipe's list
    reaches the expansion and the manifest."""
    aff = "SET UTF-8\nSFX B Y 3\nSFX B 0 s [^s]\nSFX B 0 et/B [^a]\nSFX B a eta/B a\n"
    dic = write_pair(tmp_path / "dict", aff, ["can/B", "casa/B"])
    assert forms(dic) >= {"can", "cans", "canet", "canets", "canetet", "casa", "casas", "caseta", "casetas"}
    assert forms(dic, Depth(exclude_affixes=frozenset({"et", "eta"}))) == {"can", "cans", "casa", "casas"}
    from boggle_i18n import build_lexicon

    recipe = tmp_path / "t.toml"
    extra = 'expand = "hunspell"\nskip_affixes = ["et", "eta"]\nsystem_package = "none"'
    recipe.write_text(BASE.format(extra=extra).replace("/nowhere/t.dic", str(dic)), encoding="utf-8")
    lexicon = build_lexicon(str(recipe), store=tmp_path / "store", download=False)
    assert set(lexicon) == {"can", "cans", "casa", "casas"}
    expanded = lexicon.manifest["source"]["expanded"]
    assert expanded["depth"]["skip_affixes"] == ["et", "eta"] and "--exclude-affixes=et,eta" in expanded["command"]


def test_recipe_suffix_letters_reaches_the_expansion_and_the_manifest(tmp_path: Path) -> None:
    """`suffix_letters` in a recipe: the expander applies it, the manifest and its command record it."""
    lexicon, _ = build_long(tmp_path, "suffix_letters = 3\n")
    assert set(lexicon) == {"read", "fly", "flies", "play", "plays"}  # `able` adds 4 letters: out
    expanded = lexicon.manifest["source"]["expanded"]
    assert expanded["depth"] == {"suffixes": 1, "prefixes": 0, "skip_flags": [], "suffix_letters": 3}
    assert "--suffix-letters=3" in expanded["command"]
