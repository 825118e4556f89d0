"""Language records: letter policy, recipes, dice vs distribution, the `languages` command, Spanish on real data."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from boggle_i18n import Lexicon
from boggle_i18n.board.dice import dice_sets
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import LanguageError, SourceError
from boggle_i18n.language.records import _load, get_language, languages
from boggle_i18n.pipeline import load_recipe, recipe_names, resolve_source

REPO = Path(__file__).resolve().parent.parent

# Every language that Debian ships a word list for (issue 7), plus the ones with dice.
EXPECTED = {
    "en", "nl", "de", "fr", "es", "it", "pt", "pt-br", "sv", "da", "nb", "nn", "pl",
    "ca", "bg", "uk", "fo", "gl", "eo", "ga", "gd", "gv",
    # issue 26, from Hunspell dictionaries (the affix expander)
    "af", "be", "bs", "hr", "id", "is", "kk", "lv", "ro", "sk", "sl", "sq", "sr", "sw",
    # issue 26, the new scripts (Greek, Armenian, Hebrew, Arabic, Hangul) and Russian, Turkish, Welsh
    "el", "hy", "he", "ar", "fa", "ko", "ru", "tr", "cy",
    # issue 26, more Latin-script languages from Hunspell dictionaries
    "oc", "br", "an", "hsb",
    # issue 26, Basque (hunspell-eu, one case ending)
    "eu",
    # issue 26, the Thai and Lao scripts (hunspell-th, hunspell-lo: full-form lists)
    "th", "lo",
}  # fmt: skip


def test_languages_span_seven_scripts() -> None:
    """Issue 26's target: at least 45 languages whose alphabets span at least 7 Unicode scripts."""
    import unicodedata

    def script(ch: str) -> str:
        return unicodedata.name(ch).split()[0]  # LATIN, CYRILLIC, GREEK, ARMENIAN, HEBREW, ARABIC, HANGUL

    scripts = {script(ch) for lang in languages().values() for ch in lang.alphabet}
    assert len(languages()) >= 45 and len(scripts) >= 7, scripts
    for code, lang in languages().items():  # each record names the script its letters are in
        assert {script(ch) for ch in lang.alphabet} == {lang.script.upper()}, code
    # ... and the fair ones alone (stable, not beta): Korean is beta, Thai and Lao make the seventh and eighth
    stable = [lang for lang in languages().values() if lang.status == "stable"]
    assert len(stable) >= 45 and len({lang.script for lang in stable}) >= 7, len(stable)


def test_every_debian_language_has_a_record_and_recipe() -> None:
    assert set(languages()) == EXPECTED
    for code, lang in languages().items():
        assert lang.lexicon in lang.lexicons, code
        for name in lang.lexicons:
            assert load_recipe(name).language == code


def test_every_shipped_recipe_is_listed_by_its_language() -> None:
    for name in recipe_names():
        recipe = load_recipe(name)
        assert name in get_language(recipe.language).lexicons, name


def test_letter_policy_is_consistent() -> None:
    """Vowels are letters of the alphabet; fold targets are spelled in it; beta says why; no dice means distribution."""
    for code, lang in languages().items():
        alphabet = set(lang.alphabet)
        assert alphabet and len(alphabet) == len(lang.alphabet), code
        assert set(lang.vowels) & alphabet, code
        for source, target in lang.fold.items():
            assert source not in alphabet and set(target) <= alphabet, (code, source)
        assert (lang.status == "beta") == bool(lang.status_reason), code
        assert (lang.boards == "dice") == bool(lang.dice), code


def test_record_errors_name_file_and_field(tmp_path: Path) -> None:
    """A malformed language record is one line naming the file and the field."""
    base = 'code = "xx"\nname = "X"\nvowels = "a"\nmin_length = 3\nscoring = "classic-4x4"\nboards = "distribution"\n'
    cases = {
        "min_length = 3": ('min_length = "3"', "min_length"),
        'boards = "distribution"': ('boards = "random"', "boards"),
        'vowels = "a"': ('vowels = "a"\nvowel = "e"', "unknown field 'vowel'"),
    }
    for old, (new, message) in cases.items():
        path = tmp_path / "xx.toml"
        path.write_text(base.replace(old, new), encoding="utf-8")
        with pytest.raises(LanguageError, match=message):
            _load(path)
    path.write_text(base + 'status = "beta"\n', encoding="utf-8")
    with pytest.raises(LanguageError, match="status_reason"):
        _load(path)


def test_a_record_is_found_by_its_file_name(tmp_path: Path) -> None:
    """`get_language` reads only the asked code's file, so a record whose code is not its file's name is refused,
    and an unknown code names the known ones without reading any record."""
    path = tmp_path / "xx.toml"
    path.write_text('code = "yy"\nname = "X"\nvowels = "a"\nmin_length = 3\nscoring = "classic-4x4"\n'
                    'boards = "distribution"\n', encoding="utf-8")  # fmt: skip
    with pytest.raises(LanguageError, match="code 'yy' is not its file's name"):
        _load(path)
    with pytest.raises(LanguageError, match=r"unknown language 'zz' \(known: af, an, ar, "):
        get_language("zz")
    assert get_language(" NL ") is languages()["nl"]


def test_every_dice_face_is_in_its_language_alphabet() -> None:
    """A die face no word of the language can use would be dead: every face's letters are in the alphabet."""
    for ds in dice_sets().values():
        alphabet = set(get_language(ds.language).alphabet)
        for face in ds.faces - {""}:
            assert set(face) <= alphabet, (ds.id, face)


@pytest.mark.parametrize("code", ["en", "nl", "de"])
def test_every_dice_face_is_in_the_built_lexicon_alphabet(code: str, built_store: Path) -> None:
    """The same against the alphabet of the lexicon actually built from real data (../shared)."""
    lexicon = Lexicon.load(code, built_store)
    alphabet = set(lexicon.manifest["alphabet"])
    for ds in dice_sets().values():
        if ds.language == code:
            for face in ds.faces - {""}:
                assert set(face) <= alphabet, (ds.id, face)


def test_bare_q_comes_from_the_record_or_the_dice() -> None:
    assert get_language("en").shorthands == {"q": "qu"}  # English dice: Qu faces
    assert get_language("nl").shorthands == {}  # plain Q face
    assert get_language("es").shorthands == {}  # no dice: the record's bare_q = "q"


# --- Spanish and German on real data (../shared) ------------------------------------------


def test_spanish_keeps_enye_folds_accents(built_store: Path) -> None:
    """ñ is a letter of its own (año stays año), accents fold (canción -> cancion), nothing outside the alphabet."""
    es = Lexicon.load("es", built_store)
    assert "año" in es and "ano" in es  # two different words
    assert "cancion" in es and "canción" not in es
    assert "pinguino" in es and "pingüino" not in es
    assert set(es.manifest["alphabet"]) <= set(get_language("es").alphabet)
    assert "ñ" in es.manifest["alphabet"]
    assert es.manifest["status"] == "stable"
    # Built from ../shared's es-wspanish.txt with --source, not the recipe's own dictionary: recorded as the user's
    # list (its file name, no upstream, licence unknown), not as the recipe's (issue 38).
    source = es.manifest["source"]
    assert source["name"] == "es-wspanish.txt" and source["upstream"] is None and es.manifest["licence"] == "unknown"
    assert load_recipe("es").source.upstream  # the recipe's own list would record it


def test_german_letters_folded_as_declared(built_store: Path) -> None:
    de = Lexicon.load("de", built_store)
    assert set(de.manifest["alphabet"]) <= set("abcdefghijklmnopqrstuvwxyz")
    for word in ("haeuser", "strasse", "muessen", "oel"):  # Häuser, Straße, müssen, Öl
        assert word in de
    for word in ("häuser", "straße", "hauser"):
        assert word not in de


# --- the `languages` command --------------------------------------------------------------


def test_languages_command_text_and_json(built_store: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(app, ["languages", "--store", str(built_store)])
    assert text.exit_code == 0, text.output
    assert "pl     Polski (Polish)  [stable]" in text.stdout
    assert "sv     Svenska (Swedish)  [stable]" in text.stdout  # hunspell-sv since issue 26
    assert "es     Español (Spanish)  [stable]" in text.stdout
    assert "nl (built, " in text.stdout and "distribution (" in text.stdout
    # Beta languages (a list below the bar for a fair one) are left out of the list, named at its end ...
    beta = sorted(code for code, lang in languages().items() if lang.status == "beta")
    assert beta and "gd     " not in text.stdout
    assert (
        f"In beta, not listed (their word lists are below the bar for a fair list; they build and play when "
        f"named): {', '.join(beta)}." in " ".join(text.stdout.split())
    )
    # ... and shown with their reason by --all.
    every = runner.invoke(app, ["languages", "--all", "--store", str(built_store)])
    assert "gd     Gàidhlig (Scottish Gaelic)  [beta: wgaelic has 15,670 entries" in every.stdout
    assert "In beta, not listed" not in every.stdout
    data = json.loads(runner.invoke(app, ["languages", "--json", "--store", str(built_store)]).stdout)
    assert {e["lang"] for e in data} == EXPECTED - set(beta) and {e["status"] for e in data} == {"stable"}
    assert len(data) >= 45 and len({e["script"] for e in data}) >= 7  # issue 26's target, on the fair ones
    data = json.loads(runner.invoke(app, ["languages", "--all", "--json", "--store", str(built_store)]).stdout)
    by_code = {e["lang"]: e for e in data}
    assert set(by_code) == EXPECTED
    assert by_code["nl"]["boards"] == {"kind": "dice", "dice": ["nl-4x4"]}
    assert by_code["pl"]["boards"]["kind"] == "distribution" and by_code["pl"]["boards"]["dice"] == []
    assert by_code["de"]["lexicons"][0] == {
        "name": "de",
        "state": "built",
        "word_count": Lexicon.load("de", built_store).manifest["word_count"],
        "source": "igerman98 ngerman",
        "package": "wngerman",
        "licence": "GPL-2.0-or-later",
        "at_hand": Path("/usr/share/dict/ngerman").is_file(),
    }
    assert by_code["de"]["playable_lexicon"] == "de"  # built: playable without a download
    assert by_code["bg"]["alphabet"] == "абвгдежзийклмнопрстуфхцчшщъьюя" and by_code["bg"]["bare_q"] is None


def _copied_lexicon(built_store: Path, tmp_path: Path, name: str) -> Path:
    """A fresh store holding a copy of lexicon `name` from the session's built store (to edit its manifest)."""
    store = tmp_path / "store"
    store.mkdir()
    for suffix in (".marisa", ".json"):
        (store / f"{name}{suffix}").write_bytes((built_store / f"{name}{suffix}").read_bytes())
    return store


def test_languages_command_flags_a_stale_lexicon(built_store: Path, tmp_path: Path) -> None:
    """A lexicon built from an older recipe shows as stale, never as plainly built."""
    store = _copied_lexicon(built_store, tmp_path, "es")
    manifest = json.loads((store / "es.json").read_text(encoding="utf-8"))
    manifest["recipe_sha256"] = "0" * 64
    (store / "es.json").write_text(json.dumps(manifest), encoding="utf-8")
    data = json.loads(CliRunner().invoke(app, ["languages", "--json", "--store", str(store)]).stdout)
    (es,) = [e for e in data if e["lang"] == "es"]
    assert es["lexicons"][0]["state"].startswith("stale")


def test_a_changed_letter_policy_makes_a_lexicon_stale(built_store: Path, tmp_path: Path) -> None:
    """A lexicon built under another letter policy of its language (say, before Croatian's lj became one
    letter) is stale: by the recorded policy hash, or for an older manifest without it, by its spelling."""
    from boggle_i18n.lexicon.ensure import stale_reason

    store = _copied_lexicon(built_store, tmp_path, "es")
    path = store / "es.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    recipe = load_recipe(manifest["recipe"]["name"])
    assert manifest["letter_policy_sha256"] == get_language("es").policy_sha256
    assert stale_reason(path, recipe) is None
    path.write_text(json.dumps(dict(manifest, letter_policy_sha256="0" * 64)), encoding="utf-8")
    assert "older letter policy of language 'es'" in str(stale_reason(path, recipe))
    data = json.loads(CliRunner().invoke(app, ["languages", "--json", "--store", str(store)]).stdout)
    (es,) = [e for e in data if e["lang"] == "es"]
    assert es["lexicons"][0]["state"] == "stale (built under an older letter policy)"
    listed = json.loads(CliRunner().invoke(app, ["lexicons", "--json", "--store", str(store)]).stdout)
    assert [r["state"] for r in listed["recipes"] if r["name"] == "es"] == [es["lexicons"][0]["state"]]
    old = {k: v for k, v in manifest.items() if k != "letter_policy_sha256"}
    path.write_text(json.dumps(old), encoding="utf-8")
    assert stale_reason(path, recipe) is None  # no hash recorded, same (plain) spelling
    path.write_text(json.dumps(dict(old, spelling={"units": ["ch"], "apart": []})), encoding="utf-8")
    assert stale_reason(path, recipe) is not None


def test_loading_a_current_lexicon_skips_the_recipe_schema_but_not_the_staleness_rules(
    built_store: Path, tmp_path: Path
) -> None:
    """`ensure_lexicon` loads a lexicon built from its recipe and letter policy as they are now by hashes alone;
    one built from another recipe or under another letter policy takes the full path (which rebuilds it)."""
    from boggle_i18n.lexicon.ensure import _current_build

    store = _copied_lexicon(built_store, tmp_path, "es")
    path = store / "es.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert _current_build("es", store) == "es"
    assert _current_build("es-nope", store) is None  # no such recipe
    for stale in ({"letter_policy_sha256": "0" * 64}, {"recipe_sha256": "0" * 64}, {"recipe": {"name": "x"}}):
        path.write_text(json.dumps(dict(manifest, **stale)), encoding="utf-8")
        assert _current_build("es", store) is None, stale
    path.write_text("[]", encoding="utf-8")
    assert _current_build("es", store) is None


# --- a missing Debian list ----------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in recipe_names() if load_recipe(n).source.system_package])
def test_missing_debian_list_names_package_and_source_option(name: str, tmp_path: Path) -> None:
    """Without the system list (and no cache or download), one line says which package to install or --source."""
    recipe = load_recipe(name)
    absent = dataclasses.replace(recipe.source, system=(str(tmp_path / "absent"),), url=None, sha256=None)
    with pytest.raises(SourceError) as err:
        resolve_source(dataclasses.replace(recipe, source=absent))
    text = str(err.value)
    assert f"apt-get install {recipe.source.system_package}" in text and "--source PATH" in text
    assert "\n" not in text


def test_solve_missing_list_is_one_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve --lang sv` with no Swedish list anywhere: exit 1, one Error line naming hunspell-sv and build-lexicon."""
    import boggle_i18n.pipeline.recipe as recipe_module

    real = recipe_module._parse

    def without_system(raw, where, path, extends=()):  # type: ignore[no-untyped-def]
        recipe = real(raw, where, path, extends)
        return dataclasses.replace(recipe, source=dataclasses.replace(recipe.source, system=(str(tmp_path / "no"),)))

    monkeypatch.setattr(recipe_module, "_parse", without_system)
    result = CliRunner().invoke(app, ["solve", "abcd/efgh/ijkl/mnop", "--lang", "sv", "--store", str(tmp_path / "s")])
    assert result.exit_code == 1
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and "apt-get install hunspell-sv" in lines[0]
    # the command that works, not an option solve lacks (issue 38)
    assert "boggle-i18n build-lexicon sv --source FILE" in lines[0] and "--source PATH" not in lines[0]


def test_random_for_a_language_without_dice(built_store: Path) -> None:
    """No sourced dice: letters weighted by the lexicon, as compare and the web do (issue 38: it used to refuse);
    with --letters lexicon, the same; cells come from its alphabet."""
    runner = CliRunner()
    fallen = runner.invoke(app, ["random", "--lang", "es", "--seed", "5", "--json", "--store", str(built_store)])
    assert fallen.exit_code == 0, fallen.output
    assert json.loads(fallen.stdout)["letters"] == "lexicon"
    rolled = runner.invoke(
        app, ["random", "--lang", "es", "--letters", "lexicon", "--seed", "5", "--json", "--store", str(built_store)]
    )
    assert rolled.exit_code == 0, rolled.output
    board = json.loads(rolled.stdout)["board"].replace("/", "")
    assert len(board) == 16 and set(board) <= set(get_language("es").alphabet), board


# --- each recipe's policy on anchor entries (no word list needed) ----------------------------

ANCHORS = {
    # recipe: [(raw entry as the Debian list writes it, the word it becomes, or None if dropped)]
    "pl": [
        ("żółw", "żółw"),
        ("Kraków", None),
        ("quiz", None),
        ("abbé", "abbe"),
        ("ŁÓDŹ", None),
        ("kpr", None),
        ("pgf", None),
        ("brr", "brr"),
        ("łódź", "łódź"),
    ],
    "de": [("Häuser", "haeuser"), ("Straße", "strasse"), ("BMW", None), ("GmbH", None), ("Berlin", None)]
    + [(w, None) for w in ("bzw", "usw", "vgl", "ggf", "jmd", "Kfz", "Lkw", "Pkw", "Mio", "Okt")]
    + [(w, None) for w in ("Udo", "Uta", "Uwe", "Hans", "Peter", "Maria", "München", "Wien", "Bayern")]
    + [("Haus", "haus"), ("Kai", "kai"), ("oder", "oder"), ("essen", "essen")],
    "de-no-umlauts": [("Häuser", None), ("Straße", None), ("Haus", "haus"), ("bzw", None), ("Café", "cafe")],
    "de-ch": [("Strasse", "strasse"), ("CDU", None)],
    "es": [("año", "año"), ("canción", "cancion"), ("abdicación", "abdicacion"), ("ADSL", None), ("Madrid", None)],
    "es-wspanish": [("año", "año"), ("canción", "cancion"), ("pingüino", "pinguino")],
    "fr": [
        ("brisé", "brise"),
        ("cœur", "coeur"),
        ("aujourd'hui", None),
        ("porte-monnaie", None),
        ("qqn", None),
        ("cpt", None),
        ("and", None),
        ("dog", None),
        ("façade", "facade"),
        ("box", "box"),
    ],
    "it": [("città", "citta"), ("jazz", None), ("quasi", "quasi"), ("l'amico", None)],
    "pt": [("coração", "coraçao"), ("Lisboa", None)],
    "sv": [("öga", "öga"), ("abbé", "abbe"), ("Göteborg", None), ("bnp", None), ("bl.a", None)],
    "sv-wswedish": [("öga", "öga"), ("abbé", "abbe"), ("Göteborg", None)],
    "da": [("blåbær", "blåbær"), ("café", "cafe"), ("dvd", None), ("ddt", None), ("prr", "prr")],
    "nb": [("blåbær", "blåbær"), ("Oslo", None), ("pgf", None), ("dvs", None), ("mhm", "mhm")],
    "ca": [("col·lecció", "colleccio"), ("dilluns", "dilluns"), ("adeu-siau", None)],
    "uk": [
        ("м'ясо", "мясо"),
        ("мʼясо", "мясо"),
        ("Київ", None),
        ("пʼять", "пять"),
        ("грн", None),
        ("млн", None),
        ("гм", None),
        ("брр", "брр"),
        ("йод", "йод"),
        ("їжак", "їжак"),
    ],
    "bg": [("котка", "котка"), ("София", None)],
    "eo": [("ĉevalo", "ĉevalo"), ("hund'", None)],
    "fo": [("ðað", "ðað"), ("Tórshavn", None)],
    "gl": [("nación", "nacion"), ("Vigo", None), ("'t", None)],
    "ga": [("féar", "féar"), ("b'éigean", None), ("n-athair", None), ("Éire", None)],
    "ga-wirish": [("achomharcainn/E", "achomharcainn"), ("féar", "féar"), ("b'éigean", None)],
    "gd": [("bàta", "bàta"), ("bóta", "bòta"), ("Alba", None)],
    "en-us": [
        ("café", "cafe"),
        ("aardvark's", None),
        ("Aaron", None),
        ("qi", None),
        ("xxxviii", None),
        ("lxiv", None),
        ("mix", "mix"),
        ("civic", "civic"),
        ("adj", None),
        ("adv", None),
    ],
    "en-gb": [("xxxviii", None), ("mix", "mix"), ("adv", None), ("colour", "colour")],
    "nl": [("ideeën", "ideeen"), ("hbo", None), ("ooi", "ooi"), ("bbp", None), ("Jansen", None)]
    + [(w, None) for w in ("apk", "pda", "ivf", "fte", "azc", "lbo", "vbo", "the", "yes", "try")]
    + [("app", "app"), ("kaas", "kaas")],
}


@pytest.mark.parametrize("name", sorted(ANCHORS))
def test_recipe_policy_on_anchor_entries(name: str) -> None:
    """Letters are kept or folded as the language declares; names, abbreviations, punctuation go."""
    from boggle_i18n.lexicon.build import stage_context
    from boggle_i18n.pipeline.runner import StageRun

    recipe = load_recipe(name)
    context = stage_context(recipe, get_language(recipe.language))
    for raw, expected in ANCHORS[name]:
        got = list(StageRun(recipe.stages, context).words([raw]))  # a fresh run: dedupe starts empty
        assert got == ([expected] if expected else []), (name, raw)


def test_faces_print_in_the_languages_own_capitals() -> None:
    """A face is printed capitalised by the record's case pairs: Turkish i -> İ and ı -> I (Unicode's
    default would print both as I), every other language as Unicode capitalises (qu -> Qu, ß stays)."""
    from boggle_i18n.board.board import Board

    tr = get_language("tr")
    assert [tr.display_face(f) for f in ("i", "ı", "ş", "")] == ["İ", "I", "Ş", "."]
    assert [get_language("de").display_face(f) for f in ("i", "ß", "qu")] == ["I", "ß", "Qu"]
    assert Board(2, 2, ("k", "ı", "i", "z")).grid(tr.display_face) == "K I\nİ Z"
