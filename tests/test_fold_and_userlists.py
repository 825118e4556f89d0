"""Issue 35: boards take what players type, and players correct their list.

Faces fold as `lookup` folds a typed word (pipeline/typed.py): Greek `ς` and `ά`, Hebrew `ם`,
Arabic `أ` and `ؤ` on a board are the letters the lexicon holds. The lexicons are built from
slices of the real Debian dictionaries (a few thousand entries each, well under a second), once
per session.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import require_file, require_tool

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoardError
from boggle_i18n.language.records import get_language, languages
from boggle_i18n.lexicon.userlists import write_list
from boggle_i18n.lookup import lookup
from boggle_i18n.pipeline.recipe import load_recipe
from boggle_i18n.pipeline.typed import FaceFold
from boggle_i18n.resources import data_dir
from boggle_i18n.solving import choose_board

runner = CliRunner()
HUNSPELL = Path("/usr/share/hunspell")


def _el_slice() -> list[str]:
    """Greek full forms (tonos, final ς) starting λογ/λόγ/άλ/πάσ: the hunspell-el list, ISO 8859-7."""
    dic = require_file(HUNSPELL / "el_GR.dic", "hunspell-el")
    lines = dic.read_text(encoding="iso-8859-7").splitlines()[1:]
    return [line.split("/")[0] for line in lines if line.startswith(("λόγ", "λογ", "άλ", "πάσ", "σάλ"))]


def _he_slice() -> list[str]:
    """Every 150th Hebrew form of hunspell-he, and a few everyday words with a final letter."""
    dic = require_file(HUNSPELL / "he_IL.dic", "hunspell-he")
    words = [line.split("/")[0] for line in dic.read_text(encoding="utf-8").splitlines()[1:]]
    everyday = [w for w in ("שלום", "מים", "עולם", "אדם", "לחם", "ספר") if w in set(words)]
    return words[::150] + everyday


def _ar_slice() -> list[str]:
    """aspell-ar's roots starting with أ, ؤ, س or م, and those with ؤ, expanded by aspell: hamza on its seats."""
    require_file(Path("/usr/lib/aspell/ar.rws"), "aspell-ar")
    aspell = require_tool("aspell", "aspell")
    dump = subprocess.run([aspell, "-d", "ar", "dump", "master"], capture_output=True, text=True, check=True).stdout
    roots = [w for w in dump.split() if w[:1] in "أؤسم"][:3000] + [w for w in dump.split() if "ؤ" in w]
    expanded = subprocess.run(
        [aspell, "-l", "ar", "expand"], input="\n".join(roots), capture_output=True, text=True, check=True
    ).stdout
    return expanded.split()


SLICES = {"el": _el_slice, "he": _he_slice, "ar": _ar_slice}


@pytest.fixture(scope="session")
def fold_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with el-fold, he-fold and ar-fold: the shipped recipes' stages over real dictionary slices."""
    root = tmp_path_factory.mktemp("fold-store")
    # the recipes' list files (he, ar blocklists) resolve beside the recipe that extends them
    shutil.copytree(data_dir("pipelines") / "lists", root / "lists")
    for code, words in SLICES.items():
        source = root / f"{code}.txt"
        source.write_text("\n".join(words()) + "\n", encoding="utf-8")
        recipe = root / f"{code}-fold.toml"
        recipe.write_text(
            f'extends = "{code}"\nname = "{code}-fold"\nencoding = "utf-8"\n'
            f'[source]\nname = "slice of the Debian dictionary (tests)"\nsystem = ["{source}"]\n',
            encoding="utf-8",
        )
        build_lexicon(str(recipe), store=root / "store", download=False)
    return root / "store"


def snake(letters: list[str], cols: int = 3) -> str:
    """A board whose snake path (left to right, then right to left ...) spells `letters`; `.` fills the rest."""
    cells = letters + ["."] * (-len(letters) % cols)
    rows = ["".join(cells[i : i + cols]) for i in range(0, len(cells), cols)]
    return "/".join(row if r % 2 == 0 else row[::-1] for r, row in enumerate(rows)) + ("/" if len(rows) == 1 else "")


def solved(board: str, lexicon: str, store: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["solve", board, "--lexicon", lexicon, "--store", str(store), "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# (lexicon, the word as a player types it, the word as the lexicon holds it)
TYPED = [
    ("el-fold", "λόγος", "λογοσ"),  # tonos on ο, final ς
    ("el-fold", "άλαλος", "αλαλοσ"),  # tonos on α
    ("he-fold", "שלום", "שלומ"),  # final mem
    # hamza on alif, on waw (the ar recipe keeps forms at Zipf >= 3: أجزاؤها is rarer, issue 35)
    ("ar-fold", "أكثر", "اكثر"),
    ("ar-fold", "مسؤولية", "مسوولية"),
]


@pytest.mark.parametrize(("lexicon", "typed", "stored"), TYPED)
def test_a_typed_board_solves_with_the_words_of_its_folded_form(
    lexicon: str, typed: str, stored: str, fold_store: Path
) -> None:
    """Boards written with ς ά ם أ ؤ solve with the same words as their folded forms, in solve and score alike."""
    [answer] = lookup([typed], lexicon=lexicon, store=fold_store)
    assert answer.found and answer.normalised == stored  # lookup folds the word so: the board must too
    typed_board, stored_board = snake(list(typed)), snake(list(stored))
    with pytest.raises(BoardError):  # the typed letters are outside the alphabet: only folding reads them
        get_language(lexicon[:2]).check_faces(list(typed))
    as_typed, as_stored = solved(typed_board, lexicon, fold_store), solved(stored_board, lexicon, fold_store)
    assert stored in {w["word"] for w in as_stored["words"]}
    assert as_typed["words"] == as_stored["words"] and as_typed["grid"] == as_stored["grid"]
    for engine in ("fast", "reference"):  # the bulk parser hands such a line to the notation parser
        scored = runner.invoke(
            app,
            ["score", "--lexicon", lexicon, "--store", str(fold_store), "--engine", engine],
            input=f"{typed_board}\n{stored_board}\n",
        )
        assert scored.exit_code == 0, scored.output
        scores = [line.split("\t")[1] for line in scored.stdout.splitlines()]
        assert scores == [str(as_stored["score"])] * 2


@pytest.mark.parametrize("lexicon", ["el-fold", "he-fold", "ar-fold"])
def test_every_sampled_word_typed_letter_by_letter_folds_as_lookup_folds_it(lexicon: str, fold_store: Path) -> None:
    """Random entries of the real dictionary, as its source writes them (accents, final forms, hamza seats,
    some capitalised), one face per character: the board reads the letters `lookup` makes of the word."""
    words = SLICES[lexicon[:2]]()
    rng = random.Random(35)
    sample = rng.sample(words, 150)  # ar keeps forms in use (Zipf >= 3): about a third of its entries are words
    answers = lookup(sample, lexicon=lexicon, store=fold_store)
    checked = 0
    for word, answer in zip(sample, answers, strict=True):
        if not answer.found or not 1 < len(word) <= 16:
            continue
        typed = "".join(ch.upper() if rng.random() < 0.3 else ch for ch in word)
        _, board = choose_board(snake(list(typed), 4), lexicon=lexicon, store=fold_store)
        rows = [board.faces[i : i + 4] for i in range(0, len(board.faces), 4)]
        along = [f for r, row in enumerate(rows) for f in (row if r % 2 == 0 else row[::-1])]
        assert "".join(f for f in along if f) == answer.normalised, word
        checked += 1
    assert checked >= 30


def _typed_variants(letter: str, fold: FaceFold) -> set[str]:
    """What a player may type for `letter`: its capital, and any letter with a mark that folds to it."""
    variants = {letter.upper()} if len(letter.upper()) == 1 else set()
    for mark in ("\u0301", "\u0300", "\u0308", "\u0302", "\u0303", "\u0654", "\u0655", "\u0344"):
        composed = unicodedata.normalize("NFC", letter + mark)
        if len(composed) == 1:
            variants.add(composed)
    return {v for v in variants if v != letter and fold(v.lower()) == letter}


STABLE = sorted(code for code, lang in languages().items() if lang.status == "stable" and lang.lexicon)


@pytest.mark.parametrize("code", STABLE)
def test_every_stable_language_reads_typed_letters_as_its_recipe_folds_them(code: str) -> None:
    """Property over every stable language: random words of its letters, typed with capitals, accented and
    final forms its recipe folds, read as a board give the letters the recipe's stages make of the word."""
    language = get_language(code)
    recipe = load_recipe(language.lexicon or code)
    fold = FaceFold(recipe.stages, language.stage_context(data_dir("pipelines")))
    letters = [ch for ch in language.alphabet if ch.isalpha() and unicodedata.category(ch)[0] == "L"]
    variants = {letter: _typed_variants(letter, fold) for letter in letters}
    for typed_form, target in language.fold.items():  # the record's own folds (final forms, ZWNJ ...)
        if target in variants and len(typed_form) == 1 and typed_form.isalpha():
            variants[target].add(typed_form)
    rng = random.Random(f"35-{code}")
    for _ in range(25):
        word = [rng.choice(letters) for _ in range(rng.randint(3, 7))]
        typed = [rng.choice(sorted(variants[ch] | {ch})) for ch in word]
        text = "".join(f"[{ch}]" for ch in typed) + "/"
        _, board = choose_board(text, lang=code)
        assert list(board.faces) == word, (code, typed)
        assert fold("".join(typed).lower()) == "".join(word)  # the word as a whole folds the same
    assert any(variants.values()) or code in NOTHING_TO_TYPE, code


# Scripts whose letters take no case, no marks and no final forms: nothing typed differs from a face.
NOTHING_TO_TYPE = {"th", "lo", "ko", "hy", "ka"}


def test_a_letter_of_another_script_is_refused_not_transliterated(fold_store: Path) -> None:
    """The Dutch recipe folds with unidecode (Cyrillic к -> k inside a word): a board never reads a letter of
    another script as a Latin one; a Latin letter with a mark folds (é -> e) as lookup folds it. English
    folds nothing (its recipe keeps a-z words only), so ñ stays refused there."""
    result = runner.invoke(app, ["solve", "кat/...", "--lang", "nl", "--store", str(fold_store)])
    assert result.exit_code == 1 and "face 'к' has a letter outside the nl alphabet" in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
    _, board = choose_board("Éat/...", lang="nl")
    assert board.faces[:3] == ("e", "a", "t")
    with pytest.raises(BoardError, match="outside the en alphabet"):
        choose_board("ñat/...", lang="en")
    with pytest.raises(BoardError, match="outside the he alphabet"):
        choose_board("שלא/ـــ", lexicon="he-fold", store=fold_store)  # Arabic tatweel on a Hebrew board


def test_a_face_that_folds_to_nothing_is_refused(fold_store: Path) -> None:
    """Arabic tatweel folds to "" in a word: alone it is no face, so it is refused, never a blank cell."""
    with pytest.raises(BoardError, match="outside the ar alphabet"):
        choose_board("سلم/ـ..", lexicon="ar-fold", store=fold_store)


def test_lookup_and_the_board_share_one_walk(fold_store: Path) -> None:
    """A word `lookup` finds comes out of the board's fold (the rewriting stages alone) as the same text."""
    lexicon = Lexicon.load("el-fold", fold_store)
    assert lexicon.manifest["recipe"]["name"] == "el-fold"
    [answer] = lookup(["ΛΌΓΟΣ"], lexicon="el-fold", store=fold_store)
    language = get_language("el")
    fold = FaceFold(load_recipe("el").stages, language.stage_context(data_dir("pipelines")))
    assert answer.found and fold("λόγος") == answer.normalised == "λογοσ"


# --- players correct their list ------------------------------------------------------------------------


@pytest.fixture
def own_store(fold_store: Path, tmp_path: Path) -> Path:
    """A store of its own holding el-fold (copied from the session's), so a test's corrections stay its own."""
    store = tmp_path / "own-store"
    store.mkdir()
    for suffix in (".marisa", ".json"):
        shutil.copy(fold_store / f"el-fold{suffix}", store / f"el-fold{suffix}")
    return store


def word(store: Path, *args: str) -> Any:
    return runner.invoke(app, ["word", *args, "--lexicon", "el-fold", "--store", str(store)])


def scores(store: Path, boards: list[str], engine: str) -> list[int]:
    result = runner.invoke(
        app, ["score", "--lexicon", "el-fold", "--store", str(store), "--engine", engine], input="\n".join(boards)
    )
    assert result.exit_code == 0, result.output
    return [int(line.split("\t")[1]) for line in result.stdout.splitlines()]


LOGOS = snake(list("λόγος"))  # λογοσ (2 points) and λογο (1 point) on a 2x3 board
ENGINES = ("reference", "fast", "numba")


def test_a_removed_word_is_gone_from_solve_score_and_lookup_until_added_back(own_store: Path) -> None:
    """`word remove` takes effect at once, with no rebuild, in every engine, in score and in lookup; `word add`
    gives it back. The corrected lexicon has another trie checksum, so no cache of the built one answers."""
    before = {e: solved(LOGOS, "el-fold", own_store, "--engine", e) for e in ENGINES}
    assert all("λογοσ" in {w["word"] for w in r["words"]} for r in before.values())
    base_score = before["reference"]["score"]
    assert {r["score"] for r in before.values()} == {base_score}
    removed = word(own_store, "remove", "ΛΌΓΟΣ", "--json")
    assert removed.exit_code == 0, removed.output
    [change] = json.loads(removed.stdout)
    assert change["normalised"] == "λογοσ" and change["action"] == "removed"
    blocked = Path(change["file"])
    assert blocked.read_text(encoding="utf-8").splitlines()[1:] == ["λογοσ"]  # one word a line, after a comment
    after = {e: solved(LOGOS, "el-fold", own_store, "--engine", e) for e in ENGINES}
    for result in after.values():
        assert "λογοσ" not in {w["word"] for w in result["words"]} and result["score"] == base_score - 2
    sha = before["reference"]["lexicon"]["trie_sha256"]
    assert after["fast"]["lexicon"]["trie_sha256"] != sha
    assert scores(own_store, [LOGOS], "fast") == scores(own_store, [LOGOS], "reference") == [base_score - 2]
    [answer] = lookup(["λόγος"], lexicon="el-fold", store=own_store)
    assert not answer.found and answer.dropped is not None and "your word list" in answer.reason
    assert word(own_store, "add", "λόγος").exit_code == 0
    assert not blocked.exists()  # the list emptied: its file goes
    assert solved(LOGOS, "el-fold", own_store)["score"] == base_score
    assert solved(LOGOS, "el-fold", own_store)["lexicon"]["trie_sha256"] == sha


def test_an_added_word_is_found_by_every_engine_and_lookup(own_store: Path) -> None:
    """A word the source never had, in the alphabet: `word add` makes every engine and `score` find it."""
    board = "ξξ/αξ"
    assert solved(board, "el-fold", own_store)["words"] == []
    added = word(own_store, "add", "ξξξά")
    assert added.exit_code == 0 and "ξξξα" in added.stdout
    found = {e: solved(board, "el-fold", own_store, "--engine", e) for e in ENGINES}
    assert all([w["word"] for w in r["words"]] == ["ξξξα"] and r["score"] == 1 for r in found.values())
    assert scores(own_store, [board], "fast") == scores(own_store, [board], "reference") == [1]
    [answer] = lookup(["ξξξα"], lexicon="el-fold", store=own_store)
    assert answer.found and "your word list" in answer.reason
    listed = json.loads(word(own_store, "list", "--json").stdout)
    assert listed == {"lexicon": "el-fold", "removed": [], "added": ["ξξξα"]}
    assert word(own_store, "remove", "ξξξα").exit_code == 0  # taken back: off the allowlist
    assert solved(board, "el-fold", own_store)["words"] == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["add", ""], "not a word: an empty string"),
        (["add", "abc"], "has letters outside the el alphabet"),
        (["add", "λό γος"], "no spaces or slashes"),
        (["add", "λόγος"], "already a word of lexicon el-fold"),
        (["remove", "ξξξα"], "is not a word of lexicon el-fold"),
        (["remove"], "word remove needs a WORD"),
        (["frob", "λόγος"], "unknown action 'frob'"),
        (["list", "λόγος"], "word list takes no WORD"),
        (["export"], "has no shipped recipe"),
    ],
)
def test_bad_word_input_is_one_error_line_and_writes_nothing(own_store: Path, args: list[str], says: str) -> None:
    result = word(own_store, *args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("Error: ") and says in lines[0], lines
    assert not (own_store / "user-lists").exists() or not any((own_store / "user-lists").iterdir())


def test_several_words_are_checked_before_any_is_written(own_store: Path) -> None:
    """`word remove λόγος ξξξα`: the second is no word, so neither list changes (no half-applied command);
    a word given twice is one change."""
    result = word(own_store, "remove", "λόγος", "ξξξα")
    assert result.exit_code == 1 and "'ξξξα' is not a word of lexicon el-fold" in result.stderr
    assert not (own_store / "user-lists").exists()
    both = word(own_store, "remove", "λόγος", "ΛΌΓΟΣ", "λογο", "--json")
    assert [c["normalised"] for c in json.loads(both.stdout)] == ["λογοσ", "λογο"]
    assert solved(LOGOS, "el-fold", own_store)["words"] == []


def test_a_lexicon_name_that_would_be_a_path_is_refused(own_store: Path) -> None:
    for name in ("../escape", "sub/dir", "x.toml"):
        result = runner.invoke(app, ["word", "remove", "λόγος", "--lexicon", name, "--store", str(own_store)])
        lines = result.stderr.strip().splitlines()
        assert result.exit_code != 0 and len(lines) == 1 and lines[0].startswith("Error: "), (name, lines)
    assert not (own_store.parent / "escape.blocked.txt").exists() and not (own_store / "user-lists").exists()


def test_export_is_a_patch_that_applies_to_the_shipped_lists(own_store: Path, tmp_path: Path) -> None:
    """`word export` writes a unified diff: the removed words as a word blocklist read by a new recipe stage,
    the added words as a list to review; `git apply --check` accepts it in this checkout."""
    write_list("el", "blocked", ["λογοσ", "αλαλοσ"], own_store)
    write_list("el", "allowed", ["ξξξα"], own_store)
    result = runner.invoke(app, ["word", "export", "--lang", "el", "--store", str(own_store)])
    assert result.exit_code == 0, result.output
    patch = result.stdout
    assert "+++ b/pipelines/lists/el-player.txt" in patch and "+λογοσ\n+αλαλοσ\n" in patch
    assert '+file = "lists/el-player.txt"' in patch and "+++ b/pipelines/el.toml" in patch
    assert "+++ b/pipelines/lists/el-player-added.txt" in patch and "+ξξξα" in patch
    git = require_tool("git", "git")
    copy = tmp_path / "checkout"
    shutil.copytree(data_dir("pipelines"), copy / "pipelines")
    applied = subprocess.run([git, "apply", "-"], input=patch, text=True, cwd=copy, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    # The patched recipe, built from the Greek slice, drops the removed words and keeps the rest.
    source = tmp_path / "el-slice.txt"
    source.write_text("\n".join(SLICES["el"]()) + "\n", encoding="iso-8859-7")
    built = build_lexicon(str(copy / "pipelines" / "el.toml"), source=source, store=tmp_path / "p", download=False)
    shipped = build_lexicon("el", source=source, store=tmp_path / "s", download=False)
    assert "λογοσ" in shipped and "αλαλοσ" in shipped
    assert "λογοσ" not in built and "αλαλοσ" not in built and set(shipped) - set(built) == {"λογοσ", "αλαλοσ"}


def test_not_a_word_on_the_end_screen_removes_the_word(own_store: Path, tmp_path: Path, browser: Any) -> None:
    """The web end screen: "not a word?" beside a found word POSTs it (Host and Origin checked like every
    request) to the player's blocklist; the next solve of the same board no longer has it."""
    from web_support import Server

    (tmp_path / "results").mkdir()
    server = Server(own_store, tmp_path / "results")
    try:
        board = urllib.parse.quote(LOGOS)
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.url}/?view=play&board={board}&lang=el&lexicon=el-fold&minutes=3")
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_function("state.busy === 0 && state.game !== null && state.game.solved !== undefined")
            page.fill("#play-input", "λογοσ")
            page.press("#play-input", "Enter")
            page.wait_for_selector("#play-feedback[data-kind=found]")
            assert page.locator("#play-found button.not-word").count() == 0  # offered only once the game is over
            page.click("#play-end")
            page.click("#play-found li[data-word='λογοσ'] button.not-word")
            page.wait_for_selector("#play-found li[data-removed=true]")
            assert "removed from el-fold" in page.text_content("#play-found li[data-word='λογοσ']")
        finally:
            context.close()
        assert not errors, errors
        blocked = own_store / "user-lists" / "el-fold.blocked.txt"
        assert blocked.read_text(encoding="utf-8").splitlines()[-1] == "λογοσ"
        query = urllib.parse.urlencode({"board": LOGOS, "lexicon": "el-fold"})
        with urllib.request.urlopen(f"{server.url}/api/solve?{query}", timeout=30) as answer:
            assert "λογοσ" not in {w["word"] for w in json.load(answer)["words"]}
        # The page's solve folds typed faces as the CLI does: λό/ςγ/ο. is the board λο/σγ/ο[] (a blank in brackets)
        typed = urllib.parse.urlencode({"board": "λό/ςγ/ο.", "lexicon": "el-fold"})
        with urllib.request.urlopen(f"{server.url}/api/solve?{typed}", timeout=30) as answer:
            assert json.load(answer)["board"] == "λο/σγ/ο[]"
        # Another site's page cannot remove a word: the guard refuses its Origin before the route runs.
        request = urllib.request.Request(
            f"{server.url}/api/word/remove",
            data=json.dumps({"word": "λογο", "lexicon": "el-fold"}).encode(),
            headers={"Content-Type": "application/json", "Origin": "http://evil.example"},
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 403 and blocked.read_text(encoding="utf-8").splitlines()[-1] == "λογοσ"
    finally:
        code, err = server.stop()
    assert code == 0 and "Traceback" not in err, err


# --- marks stacked on one consonant: one written order ---------------------------------------------------


@pytest.mark.parametrize(("code", "dic"), [("th", "th_TH.dic"), ("lo", "lo_LA.dic")])
def test_the_written_mark_order_is_the_dictionarys_own(code: str, dic: str) -> None:
    """The record's mark_order leaves every entry of the real dictionary as it is (after NFC; Thai's one
    entry with NIKHAHIT typed before a tone mark is put as SARA AM's parts are written), and it puts a
    tone mark typed before a vowel sign after it."""
    from boggle_i18n.spelling import order_marks

    order = get_language(code).mark_order
    lines = require_file(HUNSPELL / dic, f"hunspell-{code}").read_text(encoding="utf-8").splitlines()[1:]
    words = [unicodedata.normalize("NFC", line.split("/")[0]) for line in lines]
    moved = [w for w in words if order_marks(w, order) != w]
    assert moved == (["ลํ้าค่า"] if code == "th" else [])
    assert order_marks("ก่ี", get_language("th").mark_order) == "กี่"  # MAI EK typed before SARA II
    assert order_marks("ກ່ີ", get_language("lo").mark_order) == "ກີ່"


def test_lookup_and_a_board_read_a_thai_word_typed_with_its_marks_swapped(tmp_path: Path) -> None:
    """`กี่` typed tone mark first (ก่ี, identical on screen) is the word: lookup finds it, and a board cell
    holding both marks in that order reads as the written order."""
    require_file(HUNSPELL / "th_TH.dic", "hunspell-th")
    store = tmp_path / "store"
    build_lexicon("th", store=store, download=False)
    [typed, written] = lookup(["ก่ี", "กี่"], lang="th", store=store)
    assert written.found and typed.found and typed.normalised == "กี่"
    _, board = choose_board("ก[่ี]/..", lang="th", store=store)
    assert board.faces[1] == "ี่"


def test_a_list_edited_by_hand_is_read_as_words_or_refused_in_one_line(own_store: Path) -> None:
    """Comments, blank lines, a sentence and an endless line are passed over; a file that is not UTF-8 is one
    Error: line naming it, never a traceback."""
    folder = own_store / "user-lists"
    folder.mkdir()
    blocked = folder / "el-fold.blocked.txt"
    blocked.write_text("# mine\n\nλογοσ\nnot a word at all\n" + "α" * 10_000 + "\n", encoding="utf-8")
    assert "λογοσ" not in {w["word"] for w in solved(LOGOS, "el-fold", own_store)["words"]}
    assert json.loads(word(own_store, "list", "--json").stdout)["removed"] == ["λογοσ"]
    blocked.write_bytes(b"\xff\xfe\x00broken\n")
    result = runner.invoke(app, ["solve", LOGOS, "--lexicon", "el-fold", "--store", str(own_store)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and "cannot read your word list" in lines[0], result.stderr


def test_a_server_keeps_a_corrected_lexicon_loaded_until_its_lists_change(own_store: Path) -> None:
    """The web server reloads a lexicon whose manifest file changed (a rebuild): a corrected lexicon's own
    checksum differs from its file's, and must not count as a rebuild on every request."""
    from boggle_i18n.web.state import Lexicons

    write_list("el-fold", "blocked", ["λογοσ"], own_store)
    lexicons = Lexicons(own_store)
    first = lexicons.get("el-fold")
    assert "λογοσ" not in first and "λογο" in first
    assert lexicons.get("el-fold") is first  # not loaded again per request
    lexicons.forget("el-fold")  # what POST /api/word/remove does after a change
    assert lexicons.get("el-fold") is not first
