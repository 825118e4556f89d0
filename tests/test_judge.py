"""`judge` (boggle_i18n/judging.py and `boggle-i18n judge`) against tables checked by hand on real boards.

Each board below was laid out so the words of the lists can be traced by eye; the expected tables were
written from that tracing (which cells spell the word), the language's scoring (classic-4x4: 3 and 4 letters
1 point, 5 letters 2, 6 letters 3, 7 letters 5, 8+ 11) and the classic rule (a word two players found scores
for nobody), before the judge was run. The lexicons are the real ones: en, nl, de and es built from ../shared
(the session's `built_store`), Hebrew from hunspell-he's own stems.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import REPO, require_file

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.judging import Judgement, Referee, check_lists, judge, judgement_dict
from boggle_i18n.solving import choose_board

Row = tuple[str, str, int, tuple[str, ...]]  # written, status, points, shared with
HEBREW_BOARD = "שלומ/ספרכ/ביתה/אנדע"
FSI, PDI = "\u2068", "\u2069"


def _judged(board: str, lang: str, store: Path, lists: dict[str, list[str]], strike: bool = True) -> Judgement:
    selection, parsed = choose_board(board, lang=lang, store=store)
    lexicon = Lexicon.load(selection.require_lexicon(), store)
    return judge(parsed, lexicon, selection.rules, lists, strike=strike, selection=selection)


def _table(j: Judgement) -> dict[str, tuple[list[Row], int]]:
    return {p.name: ([(w.written, w.status, w.points, w.shared_with) for w in p.words], p.total) for p in j.players}


@pytest.fixture(scope="module")
def hebrew_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`he` built by its real recipe from hunspell-he's stems that use only the board's letters (any word on the
    board is such a word, so the board's solution is the same as from every stem; finals fold to the board's)."""
    dic = require_file(Path("/usr/share/hunspell/he_IL.dic"), "hunspell-he (apt-get install hunspell-he)")
    letters = set(HEBREW_BOARD) - {"/"}
    letters |= {final for final, base in {"ך": "כ", "ם": "מ", "ן": "נ", "ף": "פ", "ץ": "צ"}.items() if base in letters}
    lines = dic.read_text(encoding="utf-8").split("\n")[1:]
    stems = [line.split("/")[0] for line in lines if line]
    root = tmp_path_factory.mktemp("hebrew")
    source = root / "he-board-stems.txt"
    source.write_text("\n".join(s for s in stems if s and set(s) <= letters) + "\n", encoding="utf-8")
    build_lexicon("he", source=source, store=root / "store", download=False)
    return root / "store"


# English (ENABLE) with a Qu face: [qu] e e n / i t s a / r a t e / d o g s.
# queen = qu(0,0) e(0,1) e(0,2) n(0,3): 5 letters, 2 points; quit = qu i(1,0) t(1,1); quits = quit + s(1,2): 2 points;
# its = i t s; rate = row 2; dogs = row 3; seat = s(1,2) e(0,2) a(1,3) t(2,2); zebra has no z on the board; qi has
# 2 letters; dgos is not English.
EN_LISTS = {
    "Ann": ["Queen", "quit", "rate", "qi", "zebra", "dogs", "queen"],
    "Bob": ["quit", "QUITS", "dgos", "its"],
    "Cat": ["dogs", "seat"],
}
EN_TABLE: dict[str, tuple[list[Row], int]] = {
    "Ann": (
        [
            ("Queen", "scored", 2, ()),
            ("quit", "shared", 0, ("Bob",)),
            ("rate", "scored", 1, ()),
            ("qi", "too-short", 0, ()),
            ("zebra", "not-on-board", 0, ()),
            ("dogs", "shared", 0, ("Cat",)),
            ("queen", "repeated", 0, ()),
        ],
        3,
    ),
    "Bob": (
        [
            ("quit", "shared", 0, ("Ann",)),
            ("QUITS", "scored", 2, ()),
            ("dgos", "not-a-word", 0, ()),
            ("its", "scored", 1, ()),
        ],
        3,
    ),
    "Cat": ([("dogs", "shared", 0, ("Ann",)), ("seat", "scored", 1, ())], 1),
}


def test_english_with_a_qu_face(built_store: Path) -> None:
    j = _judged("[qu]een/itsa/rate/dogs", "en", built_store, EN_LISTS)
    assert _table(j) == EN_TABLE
    queen = j.players[0].words[0]
    assert queen.word == "queen" and queen.path == (0, 1, 2, 3)  # cell indices, row by row
    assert j.players[1].words[2].reason == "not a word (not in the source of en)"


def test_no_strike_keeps_shared_words(built_store: Path) -> None:
    """--no-strike: every valid word scores, and still names who else found it."""
    j = _judged("[qu]een/itsa/rate/dogs", "en", built_store, EN_LISTS, strike=False)
    assert [p.total for p in j.players] == [2 + 1 + 1 + 1, 1 + 2 + 1, 1 + 1]
    quit = j.players[0].words[1]
    assert (quit.status, quit.points, quit.shared_with) == ("scored", 1, ("Bob",))


# Dutch with an IJ face: [ij] s k a / z e r t / b l a n / o p e n. ijs = ij(0,0) s(0,1): 3 letters;
# ijzer = ij z(1,0) e(1,1) r(1,2): 5 letters, 2 points; open = row 3; plan = p(3,1) l(2,1) a(2,2) n(2,3);
# kaas needs two a's side by side (the a's are at (0,3) and (2,2)). IJzer and IJS are written as the Dutch do.
def test_dutch_with_an_ij_face(built_store: Path) -> None:
    lists = {"Anke": ["IJzer", "ijs", "open", "kaas"], "Bram": ["IJS", "plan", "plan", "xyzw"]}
    j = _judged("[ij]ska/zert/blan/open", "nl", built_store, lists)
    assert _table(j) == {
        "Anke": (
            [
                ("IJzer", "scored", 2, ()),
                ("ijs", "shared", 0, ("Bram",)),
                ("open", "scored", 1, ()),
                ("kaas", "not-on-board", 0, ()),
            ],
            3,
        ),
        "Bram": (
            [
                ("IJS", "shared", 0, ("Anke",)),
                ("plan", "scored", 1, ()),
                ("plan", "repeated", 0, ()),
                ("xyzw", "not-a-word", 0, ()),
            ],
            1,
        ),
    }
    assert j.players[0].words[0].word == "ijzer"


# German, umlauts written as players write them: h a e u / t r e s / b a u m / k i n d.
# Häuser -> haeuser = h a e u (row 0) s(1,3) e(1,2) r(1,1): 7 letters, 5 points; Traum = t(1,0) r(1,1) a(2,1) u(2,2)
# m(2,3): 2 points; Baum = row 2; Mund = m(2,3) u(2,2) n(3,2) d(3,3); Kind = row 3. Bäume -> baeume: from m(2,3)
# no unused e is adjacent, and the u beside the other e (0,3) has no m: not on the board. ab: 2 letters.
def test_german_umlauts_fold_as_lookup_folds_them(built_store: Path) -> None:
    lists = {"Anna": ["Häuser", "Baum", "Traum", "Bäume", "ab"], "Ben": ["baum", "Mund", "Kind", "kind"]}
    j = _judged("haeu/tres/baum/kind", "de", built_store, lists)
    assert _table(j) == {
        "Anna": (
            [
                ("Häuser", "scored", 5, ()),
                ("Baum", "shared", 0, ("Ben",)),
                ("Traum", "scored", 2, ()),
                ("Bäume", "not-on-board", 0, ()),
                ("ab", "too-short", 0, ()),
            ],
            7,
        ),
        "Ben": (
            [
                ("baum", "shared", 0, ("Anna",)),
                ("Mund", "scored", 1, ()),
                ("Kind", "scored", 1, ()),
                ("kind", "repeated", 0, ()),
            ],
            2,
        ),
    }
    assert [w.word for w in j.players[0].words[:4]] == ["haeuser", "baum", "traum", "baeume"]


# Spanish: accents fold, ñ is a letter of its own. c a n c / e ñ o i / s a n o / t r e s.
# Canción -> cancion = c a n c (row 0) i(1,3) o(1,2) n(2,2): 7 letters, 5 points; año = a(0,1) ñ(1,1) o(1,2);
# ano = a(0,1) n(0,2) o(1,2), another word (not shared with año); tres = row 3; sano = row 2; niño: the ñ (1,1) is
# not beside an i. snao is no word.
def test_spanish_accents_fold_and_enye_stays(built_store: Path) -> None:
    lists = {"Ana": ["Canción", "año", "tres", "niño", "xq"], "Beto": ["ano", "TRES", "sano", "snao"]}
    j = _judged("canc/eñoi/sano/tres", "es", built_store, lists)
    assert _table(j) == {
        "Ana": (
            [
                ("Canción", "scored", 5, ()),
                ("año", "scored", 1, ()),
                ("tres", "shared", 0, ("Beto",)),
                ("niño", "not-on-board", 0, ()),
                ("xq", "too-short", 0, ()),
            ],
            6,
        ),
        "Beto": (
            [
                ("ano", "scored", 1, ()),
                ("TRES", "shared", 0, ("Ana",)),
                ("sano", "scored", 1, ()),
                ("snao", "not-a-word", 0, ()),
            ],
            2,
        ),
    }


# Hebrew, right to left, final forms folded: ש ל ו מ / ס פ ר כ / ב י ת ה / א נ ד ע (logical order, row by row).
# שלום = row 0 (its last letter written final, ם, or not, מ: the same word, so shared); ספר = row 1's first three;
# בית = row 2's first three; מלך: מ (0,3) is not beside ל (0,1); אב has 2 letters.
HEBREW_LISTS = {"דנה": ["שלום", "ספר", "מלך", "אב"], "Eli": ["שלומ", "בית"]}


def test_hebrew_final_forms_right_to_left(hebrew_store: Path) -> None:
    j = _judged(HEBREW_BOARD, "he", hebrew_store, HEBREW_LISTS)
    assert _table(j) == {
        "דנה": (
            [
                ("שלום", "shared", 0, ("Eli",)),
                ("ספר", "scored", 1, ()),
                ("מלך", "not-on-board", 0, ()),
                ("אב", "too-short", 0, ()),
            ],
            1,
        ),
        "Eli": ([("שלומ", "shared", 0, ("דנה",)), ("בית", "scored", 1, ())], 1),
    }
    document = judgement_dict(j)
    assert document["players"][0]["words"][0]["shown"] == "שלום"  # the final form, as a reader writes it
    assert document["players"][1]["words"][0] == {
        **document["players"][0]["words"][0],
        "written": "שלומ",
        "shared_with": ["דנה"],
        "reason": "also found by דנה: struck",
    }


def test_hebrew_text_output_isolates_right_to_left_words(hebrew_store: Path, tmp_path: Path) -> None:
    """The text report keeps its order in a bidi terminal: RTL words and names isolated, the grid in columns."""
    lists = tmp_path / "lists.txt"
    lists.write_text("".join(f"{name}: {' '.join(words)}\n" for name, words in HEBREW_LISTS.items()), "utf-8")
    result = CliRunner().invoke(
        app, ["judge", HEBREW_BOARD, "-", "--lang", "he", "--store", str(hebrew_store)], input=lists.read_text("utf-8")
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"{FSI}דנה{PDI}: 1 point" in out
    assert f"  {FSI}שלומ{PDI} -> {FSI}שלום{PDI}" in out  # written without the final form: shown with it
    assert f"also found by {FSI}דנה{PDI}: struck" in out  # a name inside a reason too
    assert f"{FSI}ספר{PDI}" in out and "\u200e" in out.split("\n")[0]  # the grid's rows keep their columns


def test_missed_words_are_the_rest_of_the_solution_best_first(built_store: Path) -> None:
    selection, board = choose_board("[qu]een/itsa/rate/dogs", lang="en", store=built_store)
    referee = Referee(board, Lexicon.load("en", built_store), selection.rules, selection=selection)
    j = referee.judge(EN_LISTS)
    found = {w.word for p in j.players for w in p.words if w.status in ("scored", "shared")}
    assert found == {"queen", "quit", "quits", "rate", "dogs", "its", "seat"}
    assert {w.word for w in j.missed} == {w.word for w in referee.solved.words} - found
    assert [w.points for w in j.missed] == sorted((w.points for w in j.missed), reverse=True)
    assert referee.check("Quits").points == 2 and referee.check("zebra").status == "not-on-board"


def test_lists_are_bounded_and_names_checked() -> None:
    with pytest.raises(BoggleI18nError, match="1 to 64 players"):
        check_lists({})
    with pytest.raises(BoggleI18nError, match="1 to 64 players"):
        check_lists({f"p{i}": [] for i in range(65)})
    for name in ("", " Ann", "A\tB", "x" * 41):
        with pytest.raises(BoggleI18nError, match="player's name"):
            check_lists({name: ["word"]})
    with pytest.raises(BoggleI18nError, match="at most 10,000"):
        check_lists({"Ann": ["w"] * 10_001})
    with pytest.raises(BoggleI18nError, match="a list, not one string"):
        check_lists({"Ann": "word"})


# The command: lists from files (FILE, NAME=FILE) and stdin, the text, --json against its schema, -o, errors.


def _run(args: list[str], store: Path, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, ["judge", *args, "--store", str(store)], input=stdin)


def test_command_reads_files_and_named_files(built_store: Path, tmp_path: Path) -> None:
    (tmp_path / "Ann.txt").write_text("\ufeffQueen quit\nrate qi zebra\n\ndogs queen\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("quit QUITS dgos its", encoding="utf-8")
    (tmp_path / "Cat.list").write_text("dogs\nseat\n", encoding="utf-8")
    files = [str(tmp_path / "Ann.txt"), f"Bob={tmp_path / 'b.txt'}", str(tmp_path / "Cat.list")]
    result = _run(["[qu]een/itsa/rate/dogs", *files, "--lang", "en"], built_store)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ann: 3 points" in out and "Bob: 3 points" in out and "Cat: 1 point\n" in out
    assert "  Queen -> queen   2  2 points" in out
    assert "  quit             0  also found by Bob: struck" in out
    assert "  qi               0  shorter than 3 letters" in out
    assert "totals: Ann 3, Bob 3, Cat 1" in out
    missed = out.split("\nmissed: ")[1].split()
    assert "teen" in missed and not {"queen", "quit", "quits", "rate", "dogs", "its", "seat"} & set(missed)


def test_command_json_matches_library_and_schema(built_store: Path) -> None:
    stdin = "".join(f"{name}: {' '.join(words)}\n" for name, words in EN_LISTS.items())
    result = _run(["[qu]een/itsa/rate/dogs", "-", "--lang", "en", "--json", "--paths"], built_store, stdin)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    schema = json.loads((REPO / "docs" / "json" / "judge.schema.json").read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    j = _judged("[qu]een/itsa/rate/dogs", "en", built_store, EN_LISTS)
    assert document == json.loads(json.dumps(judgement_dict(j, paths=True)))
    assert [p["total"] for p in document["players"]] == [3, 3, 1]
    assert document["players"][0]["words"][0]["path"] == [[0, 0], [0, 1], [0, 2], [0, 3]]


def test_command_writes_output_file(built_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "round.json"
    result = _run(
        ["[qu]een/itsa/rate/dogs", "-", "--lang", "en", "--json", "-o", str(target)], built_store, "A: quit\n"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["players"][0]["total"] == 1


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["abcd/efgh/ijkl/mnop"], None, "give the board and at least one list"),
        (["abcd/efgh/ijkl/mnop", "-"], "Ann quit\n", "stdin line 1: expected 'NAME: words...'"),
        (["abcd/efgh/ijkl/mnop", "-"], "Ann: a\nAnn: b\n", "player 'Ann' is given twice"),
        (["abcd/efgh/ijkl/mnop", "-"], "\n\n", "no lists on stdin"),
        (["abcd/efgh/ijkl/mnop", "-", "-"], "A: b\n", "stdin (-) can be read once"),
        (["-", "-"], "A: b\n", "stdin (-) can hold the board or the lists, not both"),
        (["abcd/efgh/ijkl/mnop", "missing.txt"], None, "missing.txt"),
        (["abcd/efgh/ijkl/mnop", "=x.txt"], None, "player's name"),
        (["abc1/efgh", "-"], "A: b\n", "Error: "),
    ],
)
def test_command_refuses_bad_input_in_one_line(
    args: list[str], stdin: str | None, message: str, built_store: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.txt").write_text("word\n", encoding="utf-8")
    result = _run([*args, "--lang", "en"], built_store, stdin)
    assert result.exit_code in (1, 2)
    lines = result.stderr.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_command_refuses_a_list_that_is_not_utf8_or_a_folder(built_store: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9\n")
    result = _run(["abcd/efgh/ijkl/mnop", str(bad)], built_store)
    assert result.exit_code == 1 and "is not UTF-8 text (line 1: byte 0xe9)" in result.stderr
    result = _run(["abcd/efgh/ijkl/mnop", str(tmp_path)], built_store)
    assert result.exit_code == 1 and "is a folder" in result.stderr
    target = tmp_path / "out.txt"
    result = _run(["abcd/efgh/ijkl/mnop", str(bad), "-o", str(target)], built_store)
    assert result.exit_code == 1 and not target.exists()  # nothing half-written


def test_command_takes_the_board_from_a_file(built_store: Path, tmp_path: Path) -> None:
    """With --file every argument is a list (the first one too)."""
    board = tmp_path / "board.txt"
    board.write_text("qu e e n\ni t s a\nr a t e\nd o g s\n", encoding="utf-8")
    (tmp_path / "ann.txt").write_text("queen its\n", encoding="utf-8")
    (tmp_path / "bob.txt").write_text("its\n", encoding="utf-8")
    args = [str(tmp_path / "ann.txt"), str(tmp_path / "bob.txt"), "--file", str(board), "--lang", "en", "--json"]
    result = _run(args, built_store)
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["board"] == "[qu]een/itsa/rate/dogs"
    assert [(p["name"], p["total"]) for p in document["players"]] == [("ann", 2), ("bob", 0)]
