"""Unit tests of the pipeline stages and of the runner that chains them and reports counts."""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boggle_i18n.errors import RecipeError
from boggle_i18n.language.records import get_language
from boggle_i18n.pipeline import runner
from boggle_i18n.pipeline.runner import run_stages
from boggle_i18n.pipeline.stages import STAGES, StageContext

EN = get_language("en")
NL = get_language("nl")


def ctx(
    tmp: Path | None = None, vowels: str = NL.vowels, dice: tuple[str, ...] = EN.dice, wordfreq: str | None = None
) -> StageContext:
    return StageContext(vowels=vowels, language_dice=dice, base_dir=tmp or Path("."), wordfreq=wordfreq)


def run(name: str, entries: list[str], context: StageContext | None = None, **params) -> list[str]:
    """Instantiate stage `name` with `params` and apply it to `entries`, one by one (None drops one)."""
    fn = STAGES[name](context or ctx(), **params)
    return [out for out in map(fn, entries) if out is not None]


def test_every_registered_stage_is_tested_here() -> None:
    """A stage added to the registry without tests here should be noticed."""
    assert set(STAGES) == {
        "strip",
        "skip-blank",
        "normalize",
        "lowercase",
        "drop-capitalised",
        "fold-accents",
        "regex-keep",
        "regex-drop",
        "length",
        "require-vowel",
        "require-consonant",
        "blocklist",
        "dedupe",
        "dice-alphabet",
        "case",
        "alphabet",
        "regex-replace",
        "frequent",
        "fold-marks",
        "order-marks",
    }


# --- strip, skip-blank, normalize, lowercase -------------------------------------------------


def test_strip_removes_bom_cr_and_surrounding_space() -> None:
    """Lists saved on Windows carry a BOM and CRs that would otherwise become part of words."""
    assert run("strip", ["\ufeffkat\r", "  hond  ", "\tfiets\r", "ide\ufeffe"]) == ["kat", "hond", "fiets", "idee"]


def test_strip_keeps_inner_space() -> None:
    """Only surrounding white space goes: a multi-word entry stays multi-word for later stages."""
    assert run("strip", [" de Akker "]) == ["de Akker"]


def test_skip_blank_drops_only_empty_entries() -> None:
    """Blank lines vanish; order of the rest is kept."""
    assert run("skip-blank", ["b", "", "a", "", "c"]) == ["b", "a", "c"]


def test_normalize_nfc_composes_diaeresis() -> None:
    """A decomposed e + U+0308 must become the single code point ë, or lookups miss it."""
    decomposed = "idee" + "e\u0308" + "n"
    assert len(decomposed) == 7
    (out,) = run("normalize", [decomposed])
    assert out == "idee\u00ebn"
    assert len(out) == 6


def test_normalize_nfd_and_unknown_form() -> None:
    """Other forms are honoured; a typo in the form is a recipe error, not a silent no-op."""
    assert run("normalize", ["\u00eb"], form="NFD") == ["e\u0308"]
    with pytest.raises(RecipeError, match="NFX"):
        run("normalize", ["x"], form="NFX")


def test_order_marks_puts_a_tone_mark_after_the_vowel_sign() -> None:
    """Thai: MAI EK typed before SARA II (ก่ี) is the written กี่; marks the order leaves out keep their place;
    a record without `mark_order` and no `order` is a recipe error, not a silent no-op."""
    th = StageContext(vowels="ี", language_dice=(), base_dir=Path("."), mark_order=get_language("th").mark_order)
    assert run("order-marks", ["ก่ี", "กี่", "บ้าน", "พันธุ์"], th) == ["กี่", "กี่", "บ้าน", "พันธุ์"]
    assert run("order-marks", ["e\u0301\u0300"], order="\u0300\u0301") == ["e\u0300\u0301"]
    with pytest.raises(RecipeError, match="mark_order"):
        run("order-marks", ["x"])


def test_lowercase() -> None:
    """Lower-casing covers non-ASCII capitals too."""
    assert run("lowercase", ["ÉCOLE", "IJs", "kat", "STRASSE"]) == ["école", "ijs", "kat", "strasse"]


# --- drop-capitalised ------------------------------------------------------------------------


def test_drop_capitalised_first_letter_only() -> None:
    """By default only entries starting with a capital (names) go; `pH` stays."""
    entries = ["Jansen", "pH", "kat", "Émile", "AOW", "mkB"]
    assert run("drop-capitalised", entries) == ["pH", "kat", "mkB"]


def test_drop_capitalised_anywhere() -> None:
    """With anywhere, any capital drops the entry (abbreviations such as pH, mkB)."""
    entries = ["Jansen", "pH", "kat", "Émile", "AOW", "mkB", "école"]
    assert run("drop-capitalised", entries, anywhere=True) == ["kat", "école"]


# --- fold-accents ----------------------------------------------------------------------------


def test_fold_accents_default() -> None:
    """Dutch dice have no ë: ideeën must become ideeen; plain ASCII is untouched."""
    assert run("fold-accents", ["ideeën", "café", "naïef", "kat"]) == ["ideeen", "cafe", "naief", "kat"]


def test_fold_accents_overrides() -> None:
    """Per-language overrides beat the default transliteration (German ä -> ae, not a)."""
    assert run("fold-accents", ["häuser"]) == ["hauser"]
    out = run(
        "fold-accents", ["häuser", "straße", "öl", "café"], overrides={"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
    )
    assert out == ["haeuser", "strasse", "oel", "cafe"]


def test_fold_accents_override_can_differ_from_default() -> None:
    """An override is really used, not just coincidentally equal to unidecode (ß -> sz)."""
    assert run("fold-accents", ["straße"], overrides={"ß": "sz"}) == ["strasze"]


def test_fold_accents_keep() -> None:
    """Spanish keeps ñ (a letter of its own) while other accents fold."""
    assert run("fold-accents", ["año", "canción"]) == ["ano", "cancion"]
    assert run("fold-accents", ["año", "canción"], keep="ñ") == ["año", "cancion"]


# --- fold-marks, language case rules, length in letters ------------------------------------

GREEK = StageContext(
    vowels="αεηιουω", language_dice=(), base_dir=Path("."), alphabet="αβγδεζηθικλμνξοπρστυφχψω", fold={"ς": "σ"}
)


def test_fold_marks_greek_tonos_dialytika_and_final_sigma() -> None:
    """Greek: tonos and dialytika are marks (folded), final ς is σ; nothing becomes Latin."""
    assert run("fold-marks", ["λόγος", "ΐδιος", "πρωτεΐνη", "καλός"], GREEK) == ["λογοσ", "ιδιοσ", "πρωτεινη", "καλοσ"]


def test_fold_marks_keeps_letters_of_the_alphabet_and_maps_the_table() -> None:
    """Russian й keeps its breve (a letter of the alphabet); Hebrew finals fold, niqqud goes; ZWNJ folds away."""
    ru = StageContext(vowels="а", language_dice=(), base_dir=Path("."), alphabet="айкмнорт", fold={"ё": "е"})
    assert run("fold-marks", ["мой", "ёж"], ru) == ["мой", "еж"]
    record = get_language("he")  # Hebrew as its record has it: finals fold, niqqud goes
    he = StageContext(
        vowels=record.vowels, language_dice=(), base_dir=Path("."), alphabet=record.alphabet, fold=record.fold
    )
    assert run("fold-marks", ["שָׁלוֹם", "מֶלֶךְ"], he) == ["שלומ", "מלכ"]
    fa = StageContext(vowels="ا", language_dice=(), base_dir=Path("."), alphabet="یمیشود", fold={"\u200c": ""})
    assert run("fold-marks", ["می\u200cشود"], fa) == ["میشود"]


def test_case_turkish_dotted_and_dotless_i() -> None:
    """Turkish: I -> ı and İ -> i (Unicode's default would give i and i + a combining dot)."""
    record = get_language("tr")  # the rule as the Turkish record states it
    tr = StageContext(vowels=record.vowels, language_dice=(), base_dir=Path("."), lower=record.lower)
    assert run("case", ["IŞIK", "İSTANBUL", "Ilık"], tr, policy="lower") == ["ışık", "istanbul", "ılık"]
    assert run("lowercase", ["KIZ"], tr) == ["kız"]
    assert run("case", ["KIZ"], policy="lower") == ["kiz"]  # without the record's rule: Unicode's default


def test_case_german_capital_sharp_s() -> None:
    """German ẞ lower-cases to ß, which the de record then folds to ss."""
    de = get_language("de")
    context = StageContext(vowels=de.vowels, language_dice=(), base_dir=Path("."), alphabet=de.alphabet, fold=de.fold)
    lowered = run("case", ["STRAẞE"], context, policy="lower")
    assert lowered == ["straße"]
    assert run("fold-accents", lowered, context) == ["strasse"]


def test_length_counts_a_multi_letter_letter_once() -> None:
    from boggle_i18n.spelling import spelling

    cy = StageContext(vowels="aeiouwy", language_dice=(), base_dir=Path("."), spelling=spelling(["ll", "ch"]))
    assert run("length", ["llan", "lla", "chwe", "ach"], cy, min=3) == ["llan", "chwe"]


# --- regex-keep / regex-drop -----------------------------------------------------------------


def test_regex_keep_has_grep_search_semantics() -> None:
    """Like grep, the pattern is searched, not matched against the whole entry."""
    entries = ["kat", "atoom", "kip", "KAT"]
    assert run("regex-keep", entries, pattern="at") == ["kat", "atoom"]
    assert run("regex-keep", entries, pattern="^at") == ["atoom"]
    assert run("regex-keep", entries, pattern="^[a-z]{3}$") == ["kat", "kip"]


def test_regex_drop_is_grep_v() -> None:
    """regex-drop removes entries in which the pattern is found anywhere."""
    entries = ["de Akker", "CO2", "kat", "3D", "auto's"]
    assert run("regex-drop", entries, pattern=r"[\s\d]") == ["kat", "auto's"]


# --- length ----------------------------------------------------------------------------------


def test_length_counts_letters_not_apostrophes_or_hyphens() -> None:
    """auto's and e-mail are 5 letters though 6 characters; zo'n is 3 letters."""
    entries = ["auto's", "e-mail", "zo'n", "abcde", "abcdef", "ab"]
    assert run("length", entries, min=5, max=5) == ["auto's", "e-mail", "abcde"]
    assert run("length", entries, min=3, max=4) == ["zo'n"]


def test_length_defaults() -> None:
    """Without max there is no upper bound; min defaults to 1 (drops only letterless entries)."""
    assert run("length", ["a" * 40, "ab", "x"], min=2) == ["a" * 40, "ab"]
    assert run("length", ["'", "a"]) == ["a"]


# --- require-vowel / require-consonant -------------------------------------------------------


def test_require_vowel_uses_language_vowels() -> None:
    """In Dutch y counts as a vowel; abbreviations like bnp have none."""
    assert run("require-vowel", ["bnp", "sky", "kat"], ctx(vowels=NL.vowels)) == ["sky", "kat"]
    assert run("require-vowel", ["bnp", "sky", "kat"], ctx(vowels="aeiou")) == ["kat"]


def test_require_vowel_explicit_vowels_param() -> None:
    """A recipe may name its own vowels, overriding the language's."""
    assert run("require-vowel", ["bnp", "sky", "kat"], ctx(vowels="aeiouy"), vowels="aeiou") == ["kat"]


def test_require_consonant_uses_language_vowels() -> None:
    """aai and aya are all vowels in Dutch; a non-letter is not a consonant."""
    entries = ["aai", "aya", "ijs", "ea'", "kat"]
    assert run("require-consonant", entries, ctx(vowels=NL.vowels)) == ["ijs", "kat"]
    assert run("require-consonant", entries, ctx(vowels="aeiou")) == ["aya", "ijs", "kat"]


# --- blocklist -------------------------------------------------------------------------------


def test_blocklist_substring() -> None:
    """Substring match: any entry containing a banned string goes."""
    entries = ["kut", "kutje", "bakut", "kat", "kuit"]
    assert run("blocklist", entries, words=["kut"]) == ["kat", "kuit"]


def test_blocklist_substring_matches_naive_search() -> None:
    """Aho-Corasick must agree with a plain `in` search, also for overlapping patterns."""
    banned = ["he", "she", "hers", "his", "rs", "ab", "bab", "zz"]
    rng = random.Random(1)
    entries = ["".join(rng.choice("abehirsz") for _ in range(rng.randint(1, 8))) for _ in range(2000)]
    expected = [e for e in entries if not any(b in e for b in banned)]
    assert 0 < len(expected) < len(entries)
    assert run("blocklist", entries, words=banned) == expected


def test_blocklist_word_match() -> None:
    """match='word' drops only exact entries, not words containing them."""
    entries = ["kut", "kutje", "bakut", "kat"]
    assert run("blocklist", entries, words=["kut"], match="word") == ["kutje", "bakut", "kat"]


def test_blocklist_prefix_match() -> None:
    """match='prefix' drops a stem and every entry that starts with it, not entries that only contain it."""
    entries = ["aşla", "aşlan", "aşladığı", "başla", "başladı", "aş", "kaşla"]
    assert run("blocklist", entries, words=["aşla", "zzz"], match="prefix") == ["başla", "başladı", "aş", "kaşla"]


def test_blocklist_from_file_relative_to_recipe(tmp_path: Path) -> None:
    """A relative `file` is read beside the recipe; comments and blank lines are ignored."""
    (tmp_path / "banned.txt").write_text("# rude words\n\nkut\n  lul  \n", encoding="utf-8")
    entries = ["kutje", "lullig", "kat", "#", "rude"]
    assert run("blocklist", entries, ctx(tmp_path), file="banned.txt") == ["kat", "#", "rude"]
    assert run("blocklist", [*entries, "lul"], ctx(tmp_path), file="banned.txt", match="word") == entries


def test_blocklist_errors(tmp_path: Path) -> None:
    """A blocklist with nothing in it, a missing file or an unknown match mode is a recipe error."""
    with pytest.raises(RecipeError, match="words"):
        run("blocklist", ["kat"])
    with pytest.raises(RecipeError, match=r"missing\.txt"):
        run("blocklist", ["kat"], ctx(tmp_path), file="missing.txt")
    with pytest.raises(RecipeError, match="match"):
        run("blocklist", ["kat"], words=["x"], match="suffix")


# --- dedupe ----------------------------------------------------------------------------------


def test_frequent_keeps_words_wordfreq_counts_often() -> None:
    """Zipf 3 or more (once per million words), matched case-folded as wordfreq stores words."""
    pytest.importorskip("wordfreq")
    english = ctx(wordfreq="en")
    assert run("frequent", ["House", "the", "zymurgy", "xylograph", "RAIN"], english) == ["House", "the", "RAIN"]
    assert run("frequent", ["tern", "house"], english) == ["house"]
    assert run("frequent", ["tern", "house"], english, min_zipf=2.0) == ["tern", "house"]  # tern: Zipf 2.7
    assert run("frequent", ["Straße", "strasse"], ctx(wordfreq="de")) == ["Straße", "strasse"]
    with pytest.raises(RecipeError, match="no frequency source"):
        run("frequent", ["house"])
    with pytest.raises(RecipeError, match="wordfreq has no list for 'xx'"):
        run("frequent", ["house"], english, source="xx")


def test_dedupe_keeps_first_occurrence_in_order() -> None:
    """Dedupe keeps the first of equal entries and the original order."""
    assert run("dedupe", ["b", "a", "b", "c", "a"]) == ["b", "a", "c"]


# --- dice-alphabet ---------------------------------------------------------------------------


def test_dice_alphabet_english_drops_bare_q() -> None:
    """English dice print Qu: qi, qat and tranq can never be played, quit can."""
    entries = ["qi", "quit", "qat", "tranq", "cat", "queue"]
    assert run("dice-alphabet", entries, ctx(dice=EN.dice)) == ["quit", "cat", "queue"]


def test_dice_alphabet_named_dice() -> None:
    """With Dutch dice (plain Q) qi is fine; Italian dice have no j, k, w, x or y."""
    assert run("dice-alphabet", ["qi", "quit"], dice=["nl-4x4"]) == ["qi", "quit"]
    assert run("dice-alphabet", ["jazz", "pizza", "casa"], dice=["it-4x4"]) == ["pizza", "casa"]


def test_dice_alphabet_needs_dice() -> None:
    """A language without dice sets must name them, or the stage cannot work."""
    with pytest.raises(RecipeError, match="dice"):
        run("dice-alphabet", ["kat"], ctx(dice=()))


# --- the runner: reports and errors ----------------------------------------------------------

SPECS = [
    ("strip", {}),
    ("skip-blank", {}),
    ("lowercase", {}),
    ("length", {"min": 3}),
    ("dedupe", {}),
]


def test_runner_reports_counts_and_examples() -> None:
    """The per-stage report is what tells a user why words vanished: its numbers must be exact."""
    entries = [" Kat\r", "", "HOND", "kat", "ab", "", "hond", "x", "fiets", "Fiets"]
    words, reports = run_stages(entries, SPECS, ctx())
    assert words == ["kat", "hond", "fiets"]
    got = [(r.stage, r.entries_in, r.kept, r.dropped, r.changed, r.examples) for r in reports]
    assert got == [
        ("strip", 10, 10, 0, 1, (" Kat\r -> Kat",)),
        ("skip-blank", 10, 8, 2, 0, ("", "")),
        ("lowercase", 8, 8, 0, 3, ("Kat -> kat", "HOND -> hond", "Fiets -> fiets")),
        ("length", 8, 6, 2, 0, ("ab", "x")),
        ("dedupe", 6, 3, 3, 0, ("kat", "hond", "fiets")),
    ]
    assert reports[3].params == {"min": 3}


def test_runner_report_to_dict_and_chaining() -> None:
    """The manifest form uses in/kept/dropped; each stage's `in` is the previous stage's `kept`."""
    entries = ["a", "bb", "ccc", "dddd", "ccc"] * 3
    _, reports = run_stages(entries, SPECS, ctx())
    dicts = [r.to_dict() for r in reports]
    assert set(dicts[0]) == {"stage", "params", "in", "kept", "dropped", "changed", "examples"}
    assert dicts[0]["in"] == 15
    for prev, cur in pairwise(dicts):
        assert cur["in"] == prev["kept"]
    for d in dicts:
        assert d["in"] - d["kept"] == d["dropped"]
        assert len(d["examples"]) <= 3
    assert dicts[-1]["kept"] == 2


def test_runner_calls_progress_per_stage() -> None:
    """Progress sees every stage, in order, with its index."""
    seen = []
    run_stages(["kat"], SPECS, ctx(), progress=lambda i, name: seen.append((i, name)))
    assert seen == [(i, name) for i, (name, _) in enumerate(SPECS)]


def test_unknown_stage_names_its_number() -> None:
    """A typo in a stage name fails with the stage's position, before any work is done."""
    with pytest.raises(RecipeError, match=r"stage 2\b.*'lowercsae'"):
        run_stages(["kat"], [("strip", {}), ("lowercsae", {})], ctx())


def test_unknown_parameter_names_its_number() -> None:
    """Parameters are keyword-only, so a misspelt one is an error, not silently ignored."""
    with pytest.raises(RecipeError, match=r"stage 3 \(length\).*bad parameters"):
        run_stages(["kat"], [("strip", {}), ("skip-blank", {}), ("length", {"minimum": 3})], ctx())


def test_missing_parameter_names_its_number() -> None:
    """regex-keep without a pattern cannot run."""
    with pytest.raises(RecipeError, match=r"stage 1 \(regex-keep\)"):
        run_stages(["kat"], [("regex-keep", {})], ctx())


def test_bad_regex_names_its_number() -> None:
    """An invalid pattern is reported with its stage number and the pattern."""
    with pytest.raises(RecipeError, match=r"stage 2\b.*\[a-z"):
        run_stages(["kat"], [("strip", {}), ("regex-keep", {"pattern": "^[a-z"})], ctx())
    with pytest.raises(RecipeError, match=r"stage 1\b"):
        run_stages(["kat"], [("regex-drop", {"pattern": "(("})], ctx())


def test_factory_errors_carry_stage_number() -> None:
    """Errors raised inside a stage factory gain the stage number."""
    with pytest.raises(RecipeError, match=r"stage 2\b.*NFX"):
        run_stages(["kat"], [("strip", {}), ("normalize", {"form": "NFX"})], ctx())
    with pytest.raises(RecipeError, match=r"stage 1\b.*blocklist"):
        run_stages(["kat"], [("blocklist", {})], ctx())


@pytest.mark.parametrize(
    "spec",
    [
        ("length", {"min": "3"}),  # a string where a number belongs only fails when compared
        ("fold-accents", {"overrides": "x"}),  # not a table
        ("regex-keep", {"pattern": 3}),
    ],
)
def test_wrong_parameter_types_are_recipe_errors(spec) -> None:
    """A TOML value of the wrong type must give a RecipeError naming the stage, not a raw TypeError."""
    with pytest.raises(RecipeError, match=rf"stage 2 \({spec[0]}\)"):
        run_stages(["kat", "hond"], [("strip", {}), spec], ctx())


def test_stages_do_not_mutate_input() -> None:
    """Stages return new lists; the caller's entries (used for the report) stay as they were."""
    entries = [" Kat ", "Kat", "hond"]
    copy = list(entries)
    for name in ("strip", "lowercase", "dedupe", "skip-blank"):
        run(name, entries)
    assert entries == copy


# --- case, alphabet, regex-replace -----------------------------------------------------------


def test_case_nouns_keeps_nouns_drops_abbreviations() -> None:
    """German capitalises every noun: Haus stays (as haus); BMW, CDU, GmbH and pH are abbreviations."""
    entries = ["Haus", "gehen", "BMW", "CDU", "GmbH", "pH", "Äpfel", "A"]
    assert run("case", entries, policy="nouns") == ["haus", "gehen", "äpfel", "a"]


def test_case_policies_and_language_default() -> None:
    """`lower` keeps everything lower-cased, `drop-capitalised` drops any capital; the default is the language's."""
    entries = ["Jansen", "kat", "pH"]
    assert run("case", entries, policy="lower") == ["jansen", "kat", "ph"]
    assert run("case", entries, policy="drop-capitalised") == ["kat"]
    assert run("case", entries, StageContext("aeiou", (), Path("."), case="drop-capitalised")) == ["kat"]
    with pytest.raises(RecipeError, match="policy"):
        run("case", entries, policy="upper")


def test_alphabet_stage_uses_language_alphabet() -> None:
    """Only words made of the language's letters survive (Polish has no q, v or x)."""
    polish = StageContext("aąeęioóuy", (), Path("."), alphabet="aąbcćdeęfghijklłmnńoóprsśtuwyzźż")
    assert run("alphabet", ["żółw", "quiz", "video", "łódź", ""], polish) == ["żółw", "łódź"]
    assert run("alphabet", ["abc", "abd"], letters="abc") == ["abc"]
    with pytest.raises(RecipeError, match="alphabet"):
        run("alphabet", ["abc"])


def test_alphabet_stage_keeps_units_whose_characters_stand_only_inside_them() -> None:
    """Breton: c is no letter and the apostrophe no letter, but ch and c'h are (units): c'hoari and chom are
    kept, a bare c (acoli) or an elided particle (d'ar) drops the word; the length stage counts c'h once."""
    from boggle_i18n.spelling import spelling

    br = StageContext("aeiouy", (), Path("."), alphabet="abdefghijklmnoprstuvwyz", spelling=spelling(["c'h", "ch"]))
    words = ["c'hoari", "chom", "marc'h", "acoli", "d'ar", "c'", "'ch", "bara"]
    assert run("alphabet", words, br) == ["c'hoari", "chom", "marc'h", "bara"]
    assert run("length", ["c'hoari", "c'hat", "c'ha", "c'hc'h"], br, min=3, max=5) == ["c'hoari", "c'hat"]
    assert run("length", ["c'hoari"], br, min=6) == []  # 5 letters: c'h-o-a-r-i


def test_fold_accents_keeps_the_characters_of_units() -> None:
    """Upper Sorbian writes ź only inside the letter dź: it is not in the alphabet, yet not folded to z (a folded
    dźěći would lose its letter); an accent on a loanword still folds (abbé)."""
    from boggle_i18n.spelling import spelling

    hsb = StageContext(
        "aeěioóuy", (), Path("."), alphabet="abcčćdeěfghijkłlmnńoóprřsštuwyzž", spelling=spelling(["ch", "dź"])
    )
    assert run("fold-accents", ["dźěći", "abbé"], hsb) == ["dźěći", "abbe"]
    assert run("alphabet", ["dźěći", "źěći", "chěža"], hsb) == ["dźěći", "chěža"]


def test_fold_accents_keeps_letters_of_the_alphabet() -> None:
    """Letters of the language's alphabet are played as themselves; the rest folds (Spanish ñ vs á)."""
    spanish = StageContext("aeiou", (), Path("."), alphabet="abcdefghijklmnñopqrstuvwxyz", fold={"ü": "u"})
    assert run("fold-accents", ["año", "canción", "pingüino"], spanish) == ["año", "cancion", "pinguino"]


def test_fold_table_can_remove_ascii_punctuation() -> None:
    """A fold entry for an ASCII character applies too: Ukrainian м'ясо is played as мясо; others keep '."""
    ukrainian = StageContext("аеєиіїоуюя", (), Path("."), alphabet="мясо", fold={"'": "", "ʼ": ""})
    assert run("fold-accents", ["м'ясо", "мʼясо", "мясо"], ukrainian) == ["мясо", "мясо", "мясо"]
    assert run("fold-accents", ["auto's"]) == ["auto's"]


def test_regex_replace_strips_affix_flags() -> None:
    """Irish lines such as `achomharcainn/E` carry ispell flags that are not part of the word."""
    assert run("regex-replace", ["ainm/E", "bád"], pattern="/.*$") == ["ainm", "bád"]


# --- allowlists ------------------------------------------------------------------------------


def test_allowlist_saves_entries_and_reports_them(tmp_path: Path) -> None:
    """`allow` / `allow_file` entries pass the stage; the report lists those it actually saved."""
    (tmp_path / "allow.txt").write_text("# real words\nooi  # ewe\n", encoding="utf-8")
    specs = [("require-consonant", {"allow": ["aai", "kat"], "allow_file": "allow.txt"})]
    words, (report,) = run_stages(["aai", "kat", "aio", "ooi", "eau"], specs, ctx(tmp_path))
    assert words == ["aai", "kat", "ooi"]
    assert report.dropped == 2 and report.allowed == ("aai", "ooi")  # kat needed no saving
    assert report.to_dict()["allowed"] == ["aai", "ooi"]
    _, (plain,) = run_stages(["aai"], [("require-consonant", {})], ctx())
    assert "allowed" not in plain.to_dict()


def test_allowlist_parameters_are_type_checked() -> None:
    with pytest.raises(RecipeError, match=r"stage 1 \(length\): bad parameters: field 'allow'"):
        run_stages(["kat"], [("length", {"allow": "ooi"})], ctx())


# --- the streamed runner agrees with whole-list semantics --------------------------------------

WHOLE_LIST = {
    "strip": lambda es: [e.strip() for e in es],
    "skip-blank": lambda es: [e for e in es if e],
    "lowercase": lambda es: [e.lower() for e in es],
    "fold-accents": lambda es: [e.replace("é", "e").replace("ë", "e") for e in es],
    "length": lambda es: [e for e in es if sum(ch.isalpha() for ch in e) >= 2],
    "dedupe": lambda es: list(dict.fromkeys(es)),
}


@given(st.lists(st.text(alphabet="aAbéë \t'", max_size=5), max_size=60), st.integers(1, 7))
@settings(max_examples=200, deadline=None)
def test_streamed_reports_equal_whole_list_reports(entries: list[str], chunk: int) -> None:
    """Counts and examples from the chunked stream equal those of applying each stage to the whole list.

    Chunks of 1 to 7 entries (4,096 in real builds), so tallies and dedupe must carry across chunks.
    """
    specs = [(name, {"min": 2} if name == "length" else {}) for name in WHOLE_LIST]
    saved, runner.CHUNK = runner.CHUNK, chunk
    try:
        words, reports = run_stages(entries, specs, ctx())
    finally:
        runner.CHUNK = saved
    current = list(entries)
    for (name, _), report in zip(specs, reports, strict=True):
        after = WHOLE_LIST[name](current)
        assert (report.entries_in, report.kept) == (len(current), len(after)), name
        if len(after) == len(current):
            changes = [f"{a} -> {b}" for a, b in zip(current, after, strict=True) if a != b]
            assert report.changed == len(changes) and report.examples == tuple(changes[:3]), name
        else:
            if name == "dedupe":  # every later copy of an entry is a drop
                dropped = [e for i, e in enumerate(current) if e in current[:i]]
            else:  # a filter: the entries it refuses on their own
                dropped = [e for e in current if WHOLE_LIST[name]([e]) == []]
            assert report.examples == tuple(dropped[:3]), name
        current = after
    assert words == current
