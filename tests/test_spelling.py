"""Multi-letter letters (Welsh ll, Hungarian dzs, Armenian ու): the one splitting rule, in every engine.

A word splits by greedy longest match over the language's units, never across a
break its `apart` list marks. A board face splits the same way, so an `[ll]` face is
one letter, two `l` faces are two letters, and a word spelled with `ll` needs the
`[ll]` face; a word whose record says `dan|gos` needs `n` and `g` faces.
"""

from __future__ import annotations

import pytest

from boggle_i18n.board import parse_board
from boggle_i18n.errors import BoggleI18nError, LexiconError
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.scoring import get_scoring
from boggle_i18n.solver import Rules, get_solver, solvers
from boggle_i18n.solver.compiled import compile_words
from boggle_i18n.solver.scorer import lexicon_letters, prepare_scorer
from boggle_i18n.spelling import Spelling, spelling, spelling_of

WELSH = spelling(["ch", "dd", "ff", "ng", "ll", "ph", "rh", "th"], ["dan|gos", "par|hau"])
HUNGARIAN = spelling(["cs", "dz", "dzs", "gy", "ly", "ny", "sz", "ty", "zs"])
RULES = Rules(min_length=3, scoring=get_scoring("classic-4x4"))


def test_greedy_longest_match() -> None:
    assert WELSH.split("llan") == ["ll", "a", "n"]
    assert WELSH.split("cyngor") == ["c", "y", "ng", "o", "r"]
    assert HUNGARIAN.split("dzsungel") == ["dzs", "u", "n", "g", "e", "l"]  # dzs, not dz + s
    assert HUNGARIAN.split("madzag") == ["m", "a", "dz", "a", "g"]
    assert HUNGARIAN.split("egészség") == ["e", "g", "é", "sz", "s", "é", "g"]
    assert Spelling().split("abc") == ["a", "b", "c"]


def test_breton_c_h_and_ch_are_two_letters_of_their_own() -> None:
    """A unit may hold an apostrophe between its letters: Breton c'h is one letter, ch another, both ways."""
    breton = spelling(["c'h", "ch"])
    assert breton.split("c'hoari") == ["c'h", "o", "a", "r", "i"] and breton.length("c'hoari") == 5
    assert breton.split("chom") == ["ch", "o", "m"]
    assert breton.split("marc'hegezh") == ["m", "a", "r", "c'h", "e", "g", "e", "z", "h"]
    assert breton.split("d'ar") == ["d", "'", "a", "r"]  # any other apostrophe is no letter
    for bad in ("'ch", "c'", "c-h", "c h"):
        with pytest.raises(BoggleI18nError, match="apostrophe"):
            spelling([bad])


def test_apart_forces_two_letters() -> None:
    """Both ways: ng is one letter in cyngor, n + g in dangos (the record's dan|gos)."""
    assert WELSH.split("dangos") == ["d", "a", "n", "g", "o", "s"]
    assert WELSH.split("dangosodd") == ["d", "a", "n", "g", "o", "s", "o", "dd"]
    assert WELSH.split("parhau") == ["p", "a", "r", "h", "a", "u"]
    assert WELSH.split("rhaff") == ["rh", "a", "ff"]


def test_bad_units_and_apart_are_refused() -> None:
    with pytest.raises(BoggleI18nError, match="two or more letters"):
        Spelling(("l",))
    with pytest.raises(BoggleI18nError, match=r"dan\|gos"):
        Spelling(("ng",), ("dangos",))


def _welsh(words: list[str]) -> Lexicon:
    lexicon = Lexicon.from_words(words, "cy-test")
    lexicon.manifest["spelling"] = WELSH.to_dict()
    counts: dict[str, int] = {}
    for w in words:
        for letter in WELSH.split(w):
            counts[letter] = counts.get(letter, 0) + 1
    lexicon.manifest["letter_counts"] = counts
    return lexicon


def test_manifest_spelling_is_read_and_checked() -> None:
    assert spelling_of(_welsh(["llan"])) == WELSH
    assert not spelling_of(Lexicon.from_words(["abc"]))
    broken = Lexicon.from_words(["abc"])
    broken.manifest["spelling"] = {"units": "ll"}
    with pytest.raises(LexiconError, match="malformed"):
        spelling_of(broken)


def test_compiled_trie_steps_by_letter() -> None:
    compiled = compile_words(["llan", "lol", "dangos"], WELSH)
    assert "ll" in compiled.letters and compiled.max_length == 6  # llan is 3 letters, dangos 6
    assert compiled.contains("llan") and compiled.contains("dangos") and not compiled.contains("lan")
    assert lexicon_letters(_welsh(["llan", "lol"])) == ["a", "l", "ll", "n", "o"]


@pytest.mark.parametrize("engine", solvers())
def test_engines_spell_by_the_rule(engine: str) -> None:
    """`llan` needs the [ll] face; two l faces spell `lol`, never `llan`; `dangos` needs n and g, not [ng]."""
    lexicon = _welsh(["llan", "lol", "dangos", "cyngor"])
    solver = get_solver(engine)

    def words(board: str) -> dict[str, int]:
        result = solver.solve(parse_board(board), lexicon, RULES)
        assert (
            prepare_scorer(lexicon, RULES, (result.board.rows, result.board.cols), engine).solve(result.board).score
            == result.score
        )
        return {w.word: w.points for w in result.words}

    assert words("[ll]an/xxx/xxx") == {"llan": 1}  # 3 letters: 1 point
    assert words("lla/xnx/xxx") == {}  # two l faces are not the letter ll
    assert words("lol/xxx/xxx") == {"lol": 1}
    assert words("dan/sog/xxx") == {"dangos": 3}  # n and g faces: 6 letters, 3 points
    assert words("da[ng]/xos/xxx") == {}  # the [ng] face is the letter ng, not n + g
    assert words("cy[ng]/xor/xxx") == {"cyngor": 2}  # c y ng o r: 5 letters
    assert words("cyn/rog/xxx") == {}


def test_turkish_board_typed_in_capitals() -> None:
    """A Turkish board typed in capitals: I is ı and İ is i (the record's `lower`), never i and i + a dot."""
    from boggle_i18n.solving import choose_board

    _, board = choose_board("KIZ/ŞIK/İ..", lang="tr")
    assert board.faces == ("k", "ı", "z", "ş", "ı", "k", "i", "", "")
    _, english = choose_board("KIZ/SIK/I..", lang="en")
    assert english.faces[1] == "i"
