"""Every shipped recipe built from its installed Debian word list (real data).

A list that is not installed is skipped on a developer's machine; under CI=true a
list whose package .ci/run installs (.ci/debian-lists.txt) must be there and build.
Lists over 5 MiB (Polish, Ukrainian, Bulgarian, Esperanto, Bokmål, Nynorsk, Catalan,
Galician, Faroese) are built here from their first 2 MiB, cut at a line end, to keep the
suite fast; tools/measure_builds.py builds every list in full and reports time and peak
memory (docs/languages.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import REPO, require_file, require_recipe_tools
from test_readme import readme_word_counts

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.comparison.frequency import coverage
from boggle_i18n.language.records import get_language, languages
from boggle_i18n.lookup import lookup
from boggle_i18n.pipeline import load_recipe, recipe_names

README_WORDS = readme_word_counts(any_source=False)  # counts tied to a release (nl-teuncm: 2.20.23) are test_readme's
FULL_LIMIT = 5 * 2**20
HEAD = 2 * 2**20
CI_LISTS = REPO / ".ci" / "debian-lists.txt"
CI_PACKAGES = {
    line.strip()
    for line in (CI_LISTS.read_text(encoding="utf-8").splitlines() if CI_LISTS.is_file() else [])
    if line.strip() and not line.startswith("#")
}
# Common tiers (XX-common) are their base recipe plus one stage: tests/test_frequency.py covers them.
ALL_DEBIAN = sorted(n for n in recipe_names() if load_recipe(n).source.system_package and not n.endswith("-common"))
# Issue 26's languages expanded by the affix expander take 10 s to 2 min each: this module builds a
# sample of them (af bs is sw, every other one is built whole by tools/new_languages_doc.py, figures in
# docs/languages.md); tests/test_affixes.py checks every expanded dictionary's forms against hunspell.
NOT_SAMPLED = {"be", "hr", "id", "kk", "lv", "ro", "sk", "sl", "sq", "sr"}
# The new scripts: Hebrew (95 s), Turkish (46 s), Russian (36 s) are built whole by tools/measure_builds.py
# (docs/languages.md), their special rules tested on their records in tests/test_stages.py; Greek (a 9 MiB
# list this module would cut to its first 2 MiB) is built whole by the tests that need it.
NOT_SAMPLED |= {"he", "ru", "tr", "el"}
# Occitan (13 s), Aragonese (12 s), Upper Sorbian (43 s): their anchor words, junk and letters are checked on a
# slice of their dictionary (tests/test_new_languages.py).
NOT_SAMPLED |= {"oc", "an", "hsb"}
# Basque (53 s, 3.0M words) is built whole by tools/measure_builds.py; its anchors: tests/test_new_languages.py.
NOT_SAMPLED |= {"eu"}
DEBIAN = [n for n in ALL_DEBIAN if n not in NOT_SAMPLED]
# Lao does not inflect: its whole dictionary is 30,549 entries (30,208 words), docs/languages.md.
# Arabic keeps the forms running text uses (Zipf >= 3, issue 35): 33,430 words, docs/languages.md.
FLOOR = {"lo": 25_000, "ar": 30_000}


def system_list(name: str) -> Path:
    """The installed list of recipe `name` (and the tool that expands it), or skip (fail under CI=true if .ci/run
    installs it)."""
    recipe = load_recipe(name)
    for candidate in recipe.source.system:
        if Path(candidate).is_file():
            require_recipe_tools(recipe)  # hunspell-es without hunspell-tools: a skip naming the tool, not 5 failures
            return Path(candidate)
    message = f"{recipe.source.system[0]} not installed (apt-get install {recipe.source.system_package})"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes") and recipe.source.system_package in CI_PACKAGES:
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def debian_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("debian-store")


def test_every_debian_recipe_is_installed_by_ci() -> None:
    """.ci/run installs the package of every recipe that reads a Debian list."""
    require_file(CI_LISTS, "a git checkout (.ci is not in the sdist)")
    assert {load_recipe(n).source.system_package for n in ALL_DEBIAN} <= CI_PACKAGES
    tools = {load_recipe(n).source.tool_package for n in ALL_DEBIAN} - {None}
    assert tools and tools <= CI_PACKAGES  # unmunch (hunspell-tools) and aspell expand the dictionaries


@pytest.mark.parametrize("name", DEBIAN)
def test_debian_list_builds(name: str, debian_store: Path, tmp_path: Path) -> None:
    """The recipe builds from the real list: a sizeable lexicon, only the language's letters, 3+ letters, provenance."""
    path = system_list(name)
    recipe = load_recipe(name)
    language = get_language(recipe.language)
    # An expanded dictionary is built whole: its file is the tool's input, not a list to cut.
    source, whole = path, recipe.source.expand is not None or path.stat().st_size <= FULL_LIMIT
    if not whole:
        head = path.open("rb").read(HEAD)
        source = tmp_path / path.name
        source.write_bytes(head[: head.rindex(b"\n") + 1])
    lexicon = build_lexicon(name, source=None if whole else source, store=debian_store, download=False)
    manifest = lexicon.manifest
    thin = language.status == "beta" or name != language.lexicon  # a kept variant (ga-wirish) may be small
    assert len(lexicon) > FLOOR.get(name, 5_000 if thin else 50_000)
    assert set(manifest["alphabet"]) <= set(language.alphabet) | set("".join(language.units))  # Breton c'h
    assert manifest["min_length"] >= language.min_length
    # A cut of the list, given with --source, is the user's own list: its licence is unknown (issue 38).
    assert manifest["licence"] == (recipe.licence if whole else "unknown") and manifest["status"] == language.status
    if whole and name in README_WORDS:  # the README's recipe table quotes this build's count (es): it cannot drift
        assert len(lexicon) == README_WORDS[name], f"README.md says {README_WORDS[name]:,} words for {name}"
    if whole:
        src = manifest["source"]
        assert src["kind"] == "system" and src["package"] == recipe.source.system_package
        assert src["version"] and src["upstream"] == recipe.source.upstream
        if recipe.source.expand:
            expanded = src["expanded"]
            assert expanded["tool"] == recipe.source.expand and expanded["tool_version"]
            assert str(path) in expanded["inputs"] and len(expanded["inputs"][str(path)]) == 64


@pytest.mark.parametrize("code", sorted({load_recipe(n).language for n in DEBIAN}))
def test_solve_lang_finds_a_word(code: str, debian_store: Path) -> None:
    """`solve --lang XX` on a 2x2 board spelling one of the language's 4-letter words finds it."""
    language = get_language(code)
    # English's default is ENABLE (no Debian package; tested in test_cli): use its first Debian recipe.
    name = language.lexicon if language.lexicon in DEBIAN else next(n for n in language.lexicons if n in DEBIAN)
    system_list(name)
    if not (debian_store / f"{name}.json").is_file():
        pytest.skip("built by test_debian_list_builds (run the module)")
    lexicon = Lexicon.load(name, debian_store)
    split = language.spelling.split  # Welsh: a word of 4 letters may be 5 characters (llan)
    word = next(w for w in lexicon.words_with_prefix("") if len(split(w)) == 4 and "q" not in w)
    faces = [f if len(f) == 1 else f"[{f}]" for f in split(word)]
    board = f"{''.join(faces[:2])}/{''.join(faces[2:])}"
    args = ["solve", board, "--lang", code, "--store", str(debian_store), "--json"]
    if name != language.lexicon:
        args += ["--lexicon", name]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert word in result.stdout


def test_solve_builds_a_missing_lexicon_from_the_system_list(tmp_path: Path) -> None:
    """No lexicon built yet: solve says it is building, builds from /usr/share/dict, answers."""
    system_list("gd")
    store = tmp_path / "store"
    result = CliRunner().invoke(app, ["solve", "bàta/mòra/cala/sona", "--lang", "gd", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert "built it first" in result.stderr
    assert (store / "gd.marisa").is_file()


# Everyday words the expanded dictionaries must hold (issue 12): the old lists lacked them.
EVERYDAY = {
    "es": "casas perros hablamos hablo niños grandes fue tengo quiero ciudades abdicación conducibles".split(),
    "gl": "pobo posible nación falamos fixo casas cidade escola auga galegos moitas bon día once".split(),
    "ga": (
        "teach madra cat uisce bean fear mór maith capall bord baile oíche bia scoil cathair leabhar páiste obair "
        "ceol aimsir"
    ).split(),
    # Issue 26's sampled languages: nouns, plurals, verb forms, in each language's own letters.
    "af": "huis huise hond honde water skool werk eet loop groot mooi kinders".split(),
    "bs": "kuća kuće grad gradovi voda škola radim idemo veliki dobro čovjek ljudi".split(),
    "is": "hús húsið hundur vatn skóli borða stór góður maður menn þetta ævintýri".split(),
    "sw": "nyumba mtoto watoto maji shule kula anakula kubwa nzuri mtu watu ngombe".split(),
    # The new scripts: typed as a reader writes them (accents, final forms, ZWNJ, syllable blocks).
    "el": "σπίτι νερό σχολείο μεγάλος άνθρωπος λόγος παιδιά".split(),
    "hy": "տուն մարդ ջուր դպրոց գիրք մեծ լավ".split(),
    # one joined particle (و ف ب ل ك س ال) in forms in use (issue 35)
    "ar": "كتاب مدرسة بيت ماء كبير الكتاب سيارة يكتب وهذا فهو والكتاب لهذا بعد التواصل".split(),
    "fa": ["کتاب", "خانه", "مدرسه", "بزرگ", "شهر", "می\u200cشود"],
    # Korean: nouns and verbs as listed, and verbs with one ending of at most 5 jamo (the recipe's house rule)
    "ko": "사람 학교 사랑 한국어 가공하다 합니다 됩니다 한다고 들어가 위해서 했다 하겠다 하세요 한눈판다".split(),
    # Welsh Scrabble has a J (issue 35): jwg, garej, jam play
    "cy": (
        "dyn cath ysgol llyfr bara dŵr mawr bach dangos cyngor llan rhaff ffordd parhau jwg garej jam ddoe chwys"
    ).split(),
    # German place names are dropped, common nouns that are also places stay (issue 35)
    "de": "essen boden kino porto sitten haus".split(),
    # Swedish on hunspell-sv (issue 26): the inflected forms and everyday words wswedish lacked (okej, sånt).
    "sv": "hus husen hund hundar vatten skola arbetar äter stora människor staden okej sånt grejer såklart".split(),
    # Breton: c'h and ch are letters (c'hoari, chom), ñ and ù fold (debriñ, levrioù).
    "br": "tiez dour skol labour bras mat den tud kêr c'hoari c’hoari brezhoneg levrioù chom marc'h debriñ".split(),
    # Built whole here (not sampled above): one particle prefix in Hebrew, ё as е, Turkish ı and i apart.
    # one particle in forms in use, possessives as Hspell lists them, infinitives with their ל (issue 35)
    # (שמרנו "we guarded" and מחפשים "searching" are also object-suffix verbs: they stay words)
    "he": "שלום ספר הספר ובית מלך ילדים לעשות שהוא לעצמו בעצמו להגיע בתוך ביתו שמרנו מחפשים שחקן".split(),
    "ru": "дом книги говорю ещё большой работать".split(),
    "tr": "ışık kız kitap evler geliyorum çocuklar aşlar aşları lala lalalar".split(),  # aş, lala: not junk
    # Thai and Lao: tone marks kept, AM typed as NIKHAHIT/NIGGAHITA + AA is AM (นํ้า, ກໍາປູເຈຍ)
    "th": "บ้าน แมว ไก่ น้ำ นํ้า กิน ข้าว โรงเรียน ประเทศ สวัสดี ขอบคุณ ความทรงจํา".split(),
    "lo": "ເຮືອນ ແມວ ໄກ່ ນ້ຳ ກິນ ເຂົ້າ ໂຮງຮຽນ ປະເທດ ສະບາຍດີ ຂອບໃຈ ກໍາປູເຈຍ".split(),
}
# Junk the recipes must leave out (names, abbreviations, forms hunspell rejects, vowel-less
# abbreviations the dictionary writes in lower case: preset wordlist-vowels), per language.
JUNK = {
    "es": ["madrid", "adsl", "coceros", "enamorela"],
    "gl": ["csr", "pxm", "eaa", "bpq"],  # codes the .dic lists bare in lower case (issue 35)
    "af": ["johannesburg", "sms", "bnw", "kmdt"],
    "bs": ["sarajevo", "tuzla"],
    "is": ["reykjavík", "amk", "bls", "skv"],
    "sw": ["nairobi", "mombasa", "kwk"],
    "el": ["αθήνα", "θεσσαλονίκη", "ΗΠΑ"],  # names and abbreviations are capitalised in el_GR
    "hy": ["իւր", "գիւղ"],  # classical orthography
    "cy": ["caerdydd", "abertawe", "nghath", "chath", "phen", "ddyn"],  # names; nasal/aspirate mutations
    "br": ["kemper", "naoned", "roazhon", "d'ar", "acoli"],
    # names; abbreviations in lower case (wordlist-vowels); ONLYINCOMPOUND parts, no words alone
    "sv": [
        "stockholm",
        "göteborg",
        "bnp",
        "html",
        "abborr",
        "affärsidkar",
    ],  # names; an elided particle; a bare c (a loanword)
    # two particles; a particle on a possessive no text uses (issue 35: כפנימכם "like your inside")
    # and verbs with an object suffix (biblical and literary: ישמרך, גידלתו, made by Hspell's analyser)
    "he": ["והבית", "ושהוא", "כפנימכם", "ונמריכן", "כנחרתן", "מיעפתך", "ישמרך", "גידלתו", "תשתיתוך", "כילם"],
    # two joined conjunctions; names (issue 35); aspell-ar strings no text uses (عفنج, صخد; و/ف + one: ونفا)
    "ar": ["ووهذا", "فوهذا", "كرواتيا", "القاهرة", "والقاهرة", "مصر", "فرنسا", "عفنج", "صخد", "ونفا", "فارل"],
    "ru": ["москва", "ссср"],
    # kız with a dotted i is another word or none; hunspell-tr's junk (issue 35): başla- cut, lalala
    "tr": ["istanbul", "ankara", "kiz", "lalala", "aşlan", "aşladığı", "aşlayan"],
    "de": ["donau", "mosel", "kanada", "unna", "ätna", "Ätna", "berlin"],  # names and places (issue 35)
    # Korean: a particle or the copula on a noun, the honorific -시- class, an ending of 6 jamo (ᆫ다는),
    # a bare verb stem and a bound particle (hunspell rejects both), a form whose jamo make no syllable
    "ko": ["사람이", "사람을", "사람입니다", "하셨다", "한다는", "기다리", "로부터", "한눈팔\u11abᄃ\u1161"],
    # Thai, Lao: abbreviations with ฯ, hyphenated foreign names, words repeated with ๆ / ໆ, digits
    "th": ["กรุงเทพฯ", "นายกฯ", "ติมอร์-เลสเต", "ว/ด/ป", "สงครามโลกครั้งที่2"],
    "lo": ["ງ່າຍໆ", "ຕ່າງໆ"],
}


@pytest.mark.parametrize("name", sorted(JUNK))
def test_named_junk_is_absent(name: str, debian_store: Path) -> None:
    """Names and abbreviations (capitalised in the dictionary) and forms hunspell rejects are not words."""
    system_list(name)
    if not (debian_store / f"{name}.json").is_file():
        build_lexicon(name, store=debian_store, download=False)
    answers = lookup(JUNK[name], lexicon=name, store=debian_store)
    assert not [a.word for a in answers if a.found]


@pytest.mark.parametrize("name", sorted(EVERYDAY))
def test_expanded_dictionary_has_everyday_words(name: str, debian_store: Path) -> None:
    """Plurals, conjugated verbs and common nouns are in, in the language's own folding."""
    system_list(name)
    if not (debian_store / f"{name}.json").is_file():
        build_lexicon(name, store=debian_store, download=False)
    answers = lookup(EVERYDAY[name], lexicon=name, store=debian_store)
    assert not [a.word for a in answers if not a.found]


@pytest.mark.parametrize("code", sorted({load_recipe(n).language for n in DEBIAN}))
def test_lookup_every_language(code: str, debian_store: Path) -> None:
    """`lookup` through the CLI: a word of the lexicon is found, typed in capitals too; a word with a
    letter outside the alphabet is a clear no naming the stage; an empty word is one Error: line."""
    language = get_language(code)
    name = language.lexicon if language.lexicon in DEBIAN else next(n for n in language.lexicons if n in DEBIAN)
    system_list(name)
    if not (debian_store / f"{name}.json").is_file():
        pytest.skip("built by test_debian_list_builds (run the module)")
    word = next(w for w in Lexicon.load(name, debian_store).words_with_prefix("") if len(w) >= 4)
    runner = CliRunner()
    base = ["lookup", "--lang", code, "--lexicon", name, "--store", str(debian_store)]
    result = runner.invoke(app, [*base, word, word.upper(), word + "1", "--json"])
    assert result.exit_code == 0, result.output
    found, upper, digit = json.loads(result.stdout)
    assert found["found"] and found["normalised"] == word
    assert upper["found"] or upper["dropped_by"]["stage"] in ("case", "drop-capitalised")
    # a form wordfreq does not list is dropped by `frequent` first (ar: forms in use), else by regex-drop
    assert not digit["found"] and digit["dropped_by"]["stage"] in ("regex-drop", "frequent")
    text = runner.invoke(app, [*base, word])
    assert text.stdout == f"{word}: yes, in lexicon {name}\n"
    empty = runner.invoke(app, [*base, " "])
    assert empty.exit_code == 1 and empty.stderr == "Error: not a word: an empty string\n"


def built_whole(name: str) -> bool:
    """Whether test_debian_list_builds builds recipe `name` from its whole list (not its first 2 MiB)."""
    recipe = load_recipe(name)
    present = [Path(p) for p in recipe.source.system if Path(p).is_file()]
    return recipe.source.expand is not None or not present or present[0].stat().st_size <= FULL_LIMIT


WHOLE_COVERED = sorted(
    c for c, lang in languages().items() if lang.wordfreq and lang.lexicon in DEBIAN and built_whole(lang.lexicon)
)


@pytest.mark.parametrize("code", WHOLE_COVERED)
def test_everyday_word_coverage(code: str, debian_store: Path) -> None:
    """At least 93% of the frequency source's top 2,000 words of 3+ letters are in the default lexicon
    (names and English words in the frequency list count as misses). Lists this module cuts to their
    first 2 MiB are measured in full by tools/coverage_doc.py (docs/languages.md), not here."""
    pytest.importorskip("wordfreq")
    language = get_language(code)
    system_list(language.lexicon)
    if not (debian_store / f"{language.lexicon}.json").is_file():
        build_lexicon(language.lexicon, store=debian_store, download=False)
    result = coverage(Lexicon.load(language.lexicon, debian_store), language)
    assert result.share >= BELOW_TARGET.get(code, 0.93), (result.share, result.missing[:20])


# Beta languages whose frequency source does not fit them (status_reason in their record says why):
# held at their measured floor so a regression still fails.
BELOW_TARGET = {"bs": 0.92, "fa": 0.895, "ko": 0.63}


def _solve(code: str, board: str, store: Path, *extra: str) -> str:
    result = CliRunner().invoke(app, ["solve", board, "--lang", code, "--store", str(store), *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_welsh_digraph_is_one_face_both_ways(debian_store: Path) -> None:
    """ll is one letter: `llan` needs the [ll] face (two l faces never spell it) and counts 3 letters;
    `dangos` has n and g (the record's dan|gos), so it needs those two faces, not [ng]."""
    system_list("cy")
    if not (debian_store / "cy.json").is_file():
        build_lexicon("cy", store=debian_store, download=False)
    words = json.loads(_solve("cy", "[ll]a/.n", debian_store, "--json"))["words"]
    assert {"word": "llan", "length": 3} in [{"word": w["word"], "length": w["length"]} for w in words]
    assert "llan" not in _solve("cy", "la/ln", debian_store)
    assert "dangos" in _solve("cy", "da/ng/os", debian_store)
    assert "dangos" not in _solve("cy", "da/[ng]o/s.", debian_store)


def test_breton_c_h_and_ch_are_one_face_each_both_ways(debian_store: Path) -> None:
    """c'h is one letter of Breton, written with an apostrophe: `c'hoari` needs the [c'h] face and counts 5
    letters, the [ch] face never spells it; `chom` needs the [ch] face, never [c'h]; c alone is no face."""
    system_list("br")
    if not (debian_store / "br.json").is_file():
        build_lexicon("br", store=debian_store, download=False)
    words = json.loads(_solve("br", "[c'h]oa/.ir", debian_store, "--json"))["words"]
    assert {"word": "c'hoari", "length": 5} in [{"word": w["word"], "length": w["length"]} for w in words]
    assert "c'hoari" not in _solve("br", "[ch]oa/.ir", debian_store).split()
    assert "chom" in _solve("br", "[ch]o/.m", debian_store).split()
    assert "chom" not in _solve("br", "[c'h]o/.m", debian_store).split()
    refused = CliRunner().invoke(app, ["solve", "cho/.m.", "--lang", "br", "--store", str(debian_store)])
    assert refused.exit_code == 1 and "outside the br alphabet" in refused.stderr


def test_bosnian_digraphs_are_one_face_both_ways(debian_store: Path) -> None:
    """lj is one letter of Bosnian: `ljudi` needs the [lj] face and counts 4 letters, an l and a j face never
    spell it; `injekcija` meets n and j across a loanword's parts (the record's in|jek), so two faces spell it
    and [nj] never does."""
    system_list("bs")
    if not (debian_store / "bs.json").is_file():
        build_lexicon("bs", store=debian_store, download=False)
    words = json.loads(_solve("bs", "[lj]u/id", debian_store, "--json"))["words"]
    assert {"word": "ljudi", "length": 4} in [{"word": w["word"], "length": w["length"]} for w in words]
    assert "ljudi" not in _solve("bs", "lu/jd/i.", debian_store).split()
    assert "injekcija" in _solve("bs", "inj/cke/ija", debian_store).split()
    assert "injekcija" not in _solve("bs", "i[nj]e/.ck/aji", debian_store).split()


def test_turkish_dotted_and_dotless_i_are_two_faces(debian_store: Path) -> None:
    """kız takes the dotless ı face, never the dotted i; the grid prints them as I and İ (Turkish capitals)."""
    system_list("tr")
    if not (debian_store / "tr.json").is_file():
        build_lexicon("tr", store=debian_store, download=False)
    text = _solve("tr", "kı/.z", debian_store)
    assert text.startswith("K I\n. Z\n") and "kız" in text.split()
    dotted = _solve("tr", "ki/.z", debian_store)
    assert dotted.startswith("K İ\n. Z\n") and "kız" not in dotted.split()


def test_every_korean_word_shows_as_syllables_and_back(debian_store: Path) -> None:
    """Words of the real ko lexicon (stored as keystroke jamo) compose into syllable blocks, and those blocks
    spell the same keys again: display never loses or guesses a letter. Every 20th of its 2.5M words (the
    whole list takes a minute), in the trie's order, and the named ones."""
    import unicodedata
    from itertools import islice

    system_list("ko")
    if not (debian_store / "ko.json").is_file():
        build_lexicon("ko", store=debian_store, download=False)
    ko = get_language("ko")
    fold = dict(ko.fold)
    lexicon = Lexicon.load("ko", debian_store)
    words = list(islice(lexicon.probes()[1](""), 0, None, 20))
    assert len(words) > 100_000
    shown = [ko.display(w) for w in words]
    assert all(0xAC00 <= ord(c) <= 0xD7A3 for s in shown for c in s)
    assert ["".join(fold.get(c, c) for c in unicodedata.normalize("NFD", s)) for s in shown] == words
    assert [ko.display(w) for w in lexicon.words_with_prefix("ㄴㅏㄹㅏ") if len(w) == 4] == ["나라"]
    assert ko.display("ㅎㅏㅂㄴㅣㄷㅏ") == "합니다" and "ㅎㅏㅂㄴㅣㄷㅏ" in lexicon


def test_korean_misses_sorted_by_hunspells_checker(debian_store: Path) -> None:
    """tools/korean_coverage.py on the real lexicon: the figures docs/languages.md quotes. English is outside
    the alphabet, bound endings and bare verb stems are rejected by hunspell-ko's own checker, what it accepts
    the lexicon mostly has; and random words of the lexicon, shown as syllables, are accepted by it."""
    pytest.importorskip("wordfreq")
    import importlib
    import sys

    system_list("ko")
    if not (debian_store / "ko.json").is_file():
        build_lexicon("ko", store=debian_store, download=False)
    sys.path.insert(0, str(REPO / "tools"))
    tool = importlib.import_module("korean_coverage")
    r = tool.classify("ko", str(debian_store))
    assert {"the", "com"} <= set(r["letters"]) and {"로부터", "기다리"} <= set(r["rejected"])
    assert "으로서" in dict(r["accepted"]["skipped"]) and "한다는" in dict(r["accepted"]["beyond"])
    assert 0.6 < r["ceiling"] < 0.7 and r["coverage_of_checker_words"] > 0.95 and not r["found_rejected_by_checker"]
    p = tool.precision("ko", 300, 1, str(debian_store))
    assert p["accepted"] == p["sample"] == 300, p["rejected"]


def test_armenian_u_is_one_face(debian_store: Path) -> None:
    """ու is one letter of Armenian: տուն (house) on a board with the [ու] face, 3 letters."""
    system_list("hy")
    if not (debian_store / "hy.json").is_file():
        build_lexicon("hy", store=debian_store, download=False)
    words = json.loads(_solve("hy", "տ[ու]/ն.", debian_store, "--json"))["words"]
    assert {"word": "տուն", "length": 3} in [{"word": w["word"], "length": w["length"]} for w in words]


def test_greek_final_sigma_is_one_face_and_printed_final(debian_store: Path) -> None:
    """ς and σ are one face (the lexicon keeps σ); solve prints a word's last σ as ς; tonos folds."""
    system_list("el")
    if not (debian_store / "el.json").is_file():
        build_lexicon("el", store=debian_store, download=False)
    [answer] = lookup(["λόγος"], lexicon="el", store=debian_store)
    assert answer.found and answer.normalised == "λογοσ"
    text = _solve("el", "λο/σγ/ο.", debian_store)
    assert "λογος" in text.split()


def test_rtl_word_in_logical_order(debian_store: Path) -> None:
    """Persian: stored and solved in logical order (first letter first), ZWNJ folded away; the text grid
    keeps its columns (a LRM after each cell) and `languages --json` flags the direction."""
    system_list("fa")
    if not (debian_store / "fa.json").is_file():
        build_lexicon("fa", store=debian_store, download=False)
    words = json.loads(_solve("fa", "کت/با", debian_store, "--json"))["words"]
    kitab = next(w for w in words if w["word"] == "کتاب")
    assert kitab["path"] == [[0, 0], [0, 1], [1, 1], [1, 0]]  # ک first: logical order, left-to-right grid
    text = _solve("fa", "کت/با", debian_store)
    assert text.splitlines()[0] == "\u200eک\u200e ت\u200e"
    listed = json.loads(
        CliRunner().invoke(app, ["languages", "--all", "--json", "--store", str(debian_store)]).stdout
    )  # --all: fa and ko are beta
    direction = {e["lang"]: (e["script"], e["direction"]) for e in listed}
    assert direction["fa"] == ("Arabic", "rtl") and direction["he"] == ("Hebrew", "rtl")
    assert direction["hy"] == ("Armenian", "ltr") and direction["ko"] == ("Hangul", "ltr")


def test_thai_and_lao_faces_are_characters_both_ways(debian_store: Path) -> None:
    """One face per character as stored: a tone mark and a vowel sign are faces of their own and count as
    letters (บ้าน is 4: บ ้ า น), SARA AM ำ is one face (น้ำ needs it: ํ + า spell nothing), and a word is read
    in stored order (เ before the consonant it follows in speech). The path is the word's faces in order."""
    for code in ("th", "lo"):
        system_list(code)
        if not (debian_store / f"{code}.json").is_file():
            build_lexicon(code, store=debian_store, download=False)
    words = json.loads(_solve("th", "บ้/นา", debian_store, "--json"))["words"]
    house = next(w for w in words if w["word"] == "บ้าน")
    assert house["length"] == 4 and house["path"] == [[0, 0], [0, 1], [1, 1], [1, 0]]
    assert "บ้าน" not in _solve("th", "บา/น.", debian_store).split()  # no tone-mark face: no word
    assert "น้ำ" in _solve("th", "น้/ำ.", debian_store).split()
    assert "น้ำ" not in _solve("th", "น้/า.", debian_store).split()  # า alone is not ำ
    assert CliRunner().invoke(app, ["solve", "น้/ํา", "--lang", "th", "--store", str(debian_store)]).exit_code == 1
    lao = json.loads(_solve("lo", "ເຮື/ນອ.", debian_store, "--json"))["words"]
    house_lo = next(w for w in lao if w["word"] == "ເຮືອນ")
    assert house_lo["length"] == 5 and house_lo["path"] == [[0, 0], [0, 1], [0, 2], [1, 1], [1, 0]]
    assert "ນ້ຳ" in _solve("lo", "ນ້/ຳ.", debian_store).split()


def test_a_mark_face_is_shown_on_a_dotted_circle(debian_store: Path) -> None:
    """A face that is a combining mark alone (ิ, ่) is printed on a dotted circle in the text grid, the columns
    kept; --json keeps the face itself (the dotted circle is never in a key), and a printed grid reads back."""
    system_list("th")
    if not (debian_store / "th.json").is_file():
        build_lexicon("th", store=debian_store, download=False)
    grid = _solve("th", "ไก/่ิ", debian_store).splitlines()[:2]
    assert grid == ["ไ ก", "◌่ ◌ิ"]  # one column each: the mark sits on its circle
    data = json.loads(_solve("th", "ไก/่ิ", debian_store, "--json"))
    assert data["grid"] == [["ไ", "ก"], ["่", "ิ"]] and data["shown_grid"] == [["ไ", "ก"], ["◌่", "◌ิ"]]
    again = json.loads(_solve("th", "ไก/◌่◌ิ", debian_store, "--json"))
    assert again["grid"] == data["grid"] and "ไก่" in {w["word"] for w in again["words"]}
