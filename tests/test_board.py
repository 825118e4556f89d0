"""Board notation, geometry and the Board value type."""

from __future__ import annotations

import random
import unicodedata

import pytest

from boggle_i18n import api
from boggle_i18n.board import Board, neighbours, parse_board, parse_board_file
from boggle_i18n.board.board import MAX_SIDE
from boggle_i18n.board.notation import parse_size
from boggle_i18n.errors import BoardError, BoggleI18nError

# --------------------------------------------------------------------------- helpers


def rows_of(board: Board) -> list[list[str]]:
    """The faces as a list of rows, to compare with what a test wrote by hand."""
    return [list(board.faces[r * board.cols : (r + 1) * board.cols]) for r in range(board.rows)]


def random_board(rng: random.Random, rows: int, cols: int) -> Board:
    faces = ["a", "b", "e", "s", "t", "z", "qu", "th", "in", "er", "", "é", "ß"]
    return Board(rows, cols, tuple(rng.choice(faces) for _ in range(rows * cols)))


# --------------------------------------------------------------------------- compact notation


def test_square_string_becomes_square_board() -> None:
    """An unseparated string of n*n faces is an n x n board, read row by row."""
    board = parse_board("perslatgsineters")
    assert board.size == (4, 4)
    assert rows_of(board) == [list("pers"), list("latg"), list("sine"), list("ters")]


def test_three_by_three_string() -> None:
    board = parse_board("streaedlp")
    assert rows_of(board) == [list("str"), list("eae"), list("dlp")]


@pytest.mark.parametrize("text", ["abc/def", "abc def", "  abc   def  ", "abc / def", "abc\ndef", "abc//def"])
def test_rows_separated_by_slash_or_whitespace(text: str) -> None:
    """'/' and any whitespace separate rows; extra separators are harmless."""
    board = parse_board(text)
    assert rows_of(board) == [["a", "b", "c"], ["d", "e", "f"]]


def test_brackets_make_multi_letter_and_blank_faces() -> None:
    board = parse_board("[qu]a[th]/b[]c/[in][er].")
    assert rows_of(board) == [["qu", "a", "th"], ["b", "", "c"], ["in", "er", ""]]


def test_dot_is_a_blank() -> None:
    board = parse_board("a./.b")
    assert board.faces == ("a", "", "", "b")


def test_bracketed_single_letter_is_literal() -> None:
    """`[q]` escapes the q -> qu shorthand: it is a plain q face."""
    board = parse_board("[q]qab", shorthands={"q": "qu"})
    assert board.faces == ("q", "qu", "a", "b")


@pytest.mark.parametrize("text", ["ABCD", "aBcD", "AB/CD"])
def test_case_insensitive(text: str) -> None:
    assert parse_board(text).faces == ("a", "b", "c", "d")


def test_case_insensitive_inside_brackets() -> None:
    assert parse_board("[QU][Th][iN][ER]").faces == ("qu", "th", "in", "er")


def test_non_ascii_letters_are_faces() -> None:
    """Accented letters and ß are letters; upper case folds to lower case."""
    board = parse_board("ÉßÄö")
    assert board.faces == ("é", "ß", "ä", "ö")


def test_decomposed_input_is_normalised() -> None:
    """A board typed in NFD (e + combining acute, as macOS may send it) means the same as NFC."""
    nfd = unicodedata.normalize("NFD", "éabc")
    assert len(nfd) == 5
    board = parse_board(nfd)
    assert board.faces == ("é", "a", "b", "c")
    assert board == parse_board("éabc")


def test_a_combining_mark_alone_is_a_face_and_never_reordered() -> None:
    """A Thai vowel sign or tone mark is a face of its own (it composes with nothing); two neighbouring marks
    keep their cells (NFC of the whole row would swap ่ and ุ, of canonical classes 107 and 103), and a board's
    notation reads back as the same board, the dotted circle it is shown on read as nothing."""
    board = parse_board("ก่/ุา")
    assert board.faces == ("ก", "\u0e48", "\u0e38", "า")
    swapped = parse_board("ab\u0e48\u0e38/cdef")  # ่ then ุ: NFC would give ุ่
    assert swapped.faces[2:4] == ("\u0e48", "\u0e38")
    assert parse_board(swapped.notation()) == swapped
    assert parse_board("◌่◌ิ/กา") == parse_board("\u0e48\u0e34/กา")
    assert parse_board_file("ก ่\n◌ุ า\n").faces == ("ก", "\u0e48", "\u0e38", "า")


def test_a_mark_face_is_shown_on_a_dotted_circle_and_the_grid_keeps_its_columns() -> None:
    """display_face puts a face that starts with a combining mark on U+25CC; the grid pads by columns."""
    from boggle_i18n.board.board import columns, display_face

    assert display_face("\u0e48") == "\u25cc\u0e48" and display_face("ก") == "ก" and display_face("qu") == "Qu"
    assert columns("\u25cc\u0e48") == 1 and columns("Qu") == 2
    assert Board(2, 2, ("ไ", "ก", "\u0e48", "\u0e34")).grid() == "ไ ก\n◌\u0e48 ◌\u0e34"


def test_size_gives_a_non_square_shape() -> None:
    """An unseparated string of R*C faces needs a size when it is not a square."""
    assert rows_of(parse_board("abcdef", size=(2, 3))) == [list("abc"), list("def")]
    assert rows_of(parse_board("abcdef", size=(3, 2))) == [list("ab"), list("cd"), list("ef")]
    assert parse_board("abcdef", size=(1, 6)).size == (1, 6)
    assert parse_board("abcdef", size=(6, 1)).size == (6, 1)


def test_size_with_multi_letter_faces_counts_faces_not_letters() -> None:
    board = parse_board("[qu]ab[th]cd", size=(2, 3))
    assert rows_of(board) == [["qu", "a", "b"], ["th", "c", "d"]]


def test_size_must_match_separated_rows() -> None:
    assert parse_board("abc/def", size=(2, 3)).size == (2, 3)
    with pytest.raises(BoardError, match=r"2x3.*expected 3x2"):
        parse_board("abc/def", size=(3, 2))


def test_size_must_match_face_count() -> None:
    with pytest.raises(BoardError, match="a 2x2 board needs 4"):
        parse_board("abcdef", size=(2, 2))


@pytest.mark.parametrize("text,size", [("4x4", (4, 4)), ("3x5", (3, 5)), ("3X5", (3, 5)), ("6", (6, 6))])
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "x", "4x", "axb", "0x4", "4x0", "-1x3", "4x4x4"])
def test_parse_size_rejects_nonsense(text: str) -> None:
    with pytest.raises(BoardError, match="bad size"):
        parse_size(text)


# --------------------------------------------------------------------------- shorthands (api.parse_board)


def test_english_bare_q_means_qu() -> None:
    """English dice print Qu, so a typed q is the Qu face."""
    board = api.parse_board("quit", lang="en")
    assert board.faces == ("qu", "u", "i", "t")


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_plain_q_languages_keep_q(lang: str) -> None:
    """Dutch, German and French dice have a plain Q face: q stays q."""
    assert api.parse_board("quit", lang=lang).faces == ("q", "u", "i", "t")


def test_default_language_is_english() -> None:
    assert api.parse_board("qabc").faces[0] == "qu"


def test_bare_q_override() -> None:
    """--bare-q wins over the language in both directions."""
    assert api.parse_board("qabc", lang="en", bare_q="q").faces[0] == "q"
    assert api.parse_board("qabc", lang="nl", bare_q="qu").faces[0] == "qu"


def test_bare_q_override_rejects_other_values() -> None:
    with pytest.raises(BoardError, match="bare q"):
        api.parse_board("qabc", lang="en", bare_q="kw")


def test_dice_set_shorthands_and_size_check() -> None:
    """A dice set brings its own shorthands and its size."""
    assert api.parse_board("q" * 16, dice="en-classic-4x4").faces == ("qu",) * 16
    assert api.parse_board("q" * 16, dice="nl-4x4").faces == ("q",) * 16
    with pytest.raises(BoardError, match="3x3 but dice set 'en-classic-4x4' is 4x4"):
        api.parse_board("abcdefghi", dice="en-classic-4x4")


def test_shorthand_does_not_touch_other_letters() -> None:
    board = api.parse_board("abcdefghijklmnop", lang="en")
    assert board.faces == tuple("abcdefghijklmnop")


def test_api_size_reaches_the_parser() -> None:
    assert api.parse_board("qabcde", lang="en", size=(2, 3)).size == (2, 3)


# --------------------------------------------------------------------------- file notation


def test_file_notation_faces_separated_by_spaces() -> None:
    """One row per line, multi-letter faces without brackets, comments and blank lines ignored."""
    text = "# a Super Big Boggle corner\n\nQu A Th\n  # indented comment\nIn . E\n\n"
    board = parse_board_file(text)
    assert rows_of(board) == [["qu", "a", "th"], ["in", "", "e"]]


def test_file_notation_via_api_applies_shorthands() -> None:
    text = "Q A\nB C\n"
    assert api.parse_board(text, lang="en", file_format=True).faces == ("qu", "a", "b", "c")
    assert api.parse_board(text, lang="nl", file_format=True).faces == ("q", "a", "b", "c")


def test_file_notation_accepts_compact_rows_and_bracket_blanks() -> None:
    text = "ab[qu]\n[] c d\n"
    assert rows_of(parse_board_file(text)) == [["a", "b", "qu"], ["", "c", "d"]]


def test_file_notation_with_crlf_line_ends() -> None:
    assert rows_of(parse_board_file("A B\r\nC D\r\n")) == [["a", "b"], ["c", "d"]]


def test_file_notation_reads_compact_board_from_stdin() -> None:
    """`solve -` reads stdin in file notation: a pasted compact board must work too."""
    assert parse_board_file("perslatgsineters\n") == parse_board("perslatgsineters")
    assert parse_board_file("pers/latg/sine/ters\n") == parse_board("perslatgsineters")


def test_file_notation_errors() -> None:
    with pytest.raises(BoardError, match="empty board file"):
        parse_board_file("# nothing here\n\n")
    with pytest.raises(BoardError, match="different lengths"):
        parse_board_file("A B C\nD E\n")
    with pytest.raises(BoardError, match="bad face"):
        parse_board_file("A B\nC 1\n")


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text,message",
    [
        ("[qu", r"unclosed '\['"),
        ("ab[qucd", r"unclosed '\['"),
        ("ab]c", r"unmatched '\]'"),
        ("abc/de", "rows of different lengths"),
        ("ab/cd/e", "rows of different lengths"),
        ("ab1d", "bad face '1'"),
        ("ab,d", "bad face ','"),
        ("a-bc", "bad face '-'"),
        ("[q1]abc", r"bad face '\[q1\]'"),
        ("a'bc", 'bad face "\'"'),  # an apostrophe alone is no face
        ("[c']abc", "bad face"),  # nor one at a face's end
        ("['h]abc", "bad face"),
        ("", "empty board"),
        ("   ", "empty board"),
        ("//", "empty board"),
        ("abcde", "5 faces, not a square"),
        ("perslatgsinetersx", "17 faces, not a square"),
    ],
)
def test_bad_boards_raise_board_error(text: str, message: str) -> None:
    """Every malformed board gives a BoardError that says what is wrong."""
    with pytest.raises(BoardError, match=message):
        parse_board(text)


def test_board_error_is_a_library_error() -> None:
    """The CLI turns BoggleI18nError into one clean line; BoardError must be one."""
    with pytest.raises(BoggleI18nError):
        parse_board("a1")


@pytest.mark.parametrize("rows,cols,n", [(0, 4, 0), (4, 0, 0), (MAX_SIDE + 1, 1, MAX_SIDE + 1), (2, 2, 3), (2, 2, 5)])
def test_board_validates_shape(rows: int, cols: int, n: int) -> None:
    with pytest.raises(BoardError):
        Board(rows, cols, ("a",) * n)


# --------------------------------------------------------------------------- notation() / grid() round trips


@pytest.mark.parametrize(
    "rows,cols",
    [
        (1, 1),
        (1, 2),
        (1, 4),
        (1, 5),
        (2, 1),
        (4, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (4, 4),
        (3, 5),
        (5, 5),
        (6, 6),
        (10, 10),
    ],
)
def test_notation_round_trip(rows: int, cols: int) -> None:
    """parse_board(board.notation()) gives the same board back, whatever its shape and faces."""
    rng = random.Random(rows * 100 + cols)
    for _ in range(20):
        board = random_board(rng, rows, cols)
        assert parse_board(board.notation()) == board, board.notation()
        assert str(board) == board.notation()


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 4), (2, 2), (2, 3), (4, 4), (5, 5)])
def test_notation_round_trip_through_file_parser(rows: int, cols: int) -> None:
    """`random ... | solve -` feeds notation() to the file parser: it must read it back too."""
    rng = random.Random(rows * 1000 + cols)
    for _ in range(10):
        board = random_board(rng, rows, cols)
        assert parse_board_file(board.notation() + "\n") == board, board.notation()


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3), (3, 2), (4, 4), (6, 6)])
def test_grid_round_trip_through_file_parser(rows: int, cols: int) -> None:
    """grid() of a board of two or more columns is valid file notation (capitalised faces, '.' for blanks).

    (ß is left out: str.capitalize() shows it as 'Ss'. A one-column row such as 'Qu' is read as compact.)
    """
    rng = random.Random(rows * 7 + cols)
    for _ in range(20):
        board = random_board(rng, rows, cols)
        board = Board(rows, cols, tuple("s" if f == "ß" else f for f in board.faces))
        assert parse_board_file(board.grid()) == board, board.grid()


def test_single_row_notation_keeps_its_shape() -> None:
    """A 1xN board is written `abcd/`: without the slash `abcd` would read back as 2x2."""
    board = Board(1, 4, ("a", "b", "qu", ""))
    assert board.notation() == "ab[qu][]/"
    assert parse_board("abcd/").size == (1, 4)
    assert parse_board("abcd").size == (2, 2)
    assert parse_board("abc/").size == (1, 3)
    assert Board(1, 1, ("a",)).notation() == "a"


def test_notation_and_grid_forms() -> None:
    board = Board(2, 2, ("qu", "a", "t", ""))
    assert board.notation() == "[qu]a/t[]"
    assert board.grid() == "Qu A\nT  ."


def test_position_is_row_major() -> None:
    board = parse_board("abc/def")
    assert [board.position(i) for i in range(6)] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


# --------------------------------------------------------------------------- geometry


def expected_neighbours(rows: int, cols: int, diagonals: bool, cell: int) -> set[int]:
    r, c = divmod(cell, cols)
    out = set()
    for rr in range(rows):
        for cc in range(cols):
            dr, dc = abs(rr - r), abs(cc - c)
            if (dr, dc) == (0, 0):
                continue
            if (diagonals and max(dr, dc) == 1) or (not diagonals and dr + dc == 1):
                out.add(rr * cols + cc)
    return out


def test_neighbour_counts_on_3x3() -> None:
    """Corner 3, edge 5, centre 8 with diagonals; 2, 3, 4 without."""
    with_diag = [len(n) for n in neighbours(3, 3, True)]
    without = [len(n) for n in neighbours(3, 3, False)]
    assert with_diag == [3, 5, 3, 5, 8, 5, 3, 5, 3]
    assert without == [2, 3, 2, 3, 4, 3, 2, 3, 2]


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (5, 1), (2, 2), (3, 4), (4, 3), (5, 5), (10, 10)])
@pytest.mark.parametrize("diagonals", [True, False])
def test_neighbours_match_definition(rows: int, cols: int, diagonals: bool) -> None:
    adjacent = neighbours(rows, cols, diagonals)
    assert len(adjacent) == rows * cols
    for cell, cells in enumerate(adjacent):
        assert set(cells) == expected_neighbours(rows, cols, diagonals, cell)
        assert len(set(cells)) == len(cells)
        for other in cells:
            assert cell in adjacent[other], "adjacency must be symmetric"


def test_neighbours_10x10_counts() -> None:
    counts = [len(n) for n in neighbours(10, 10, True)]
    assert counts.count(3) == 4 and counts.count(5) == 32 and counts.count(8) == 64
    counts = [len(n) for n in neighbours(10, 10, False)]
    assert counts.count(2) == 4 and counts.count(3) == 32 and counts.count(4) == 64


def test_one_by_one_board() -> None:
    board = parse_board("[qu]")
    assert board.size == (1, 1) and board.faces == ("qu",)
    assert neighbours(1, 1, True) == ((),)
    assert parse_board("a").faces == ("a",)


def test_ten_by_ten_board() -> None:
    letters = "".join(chr(ord("a") + i % 26) for i in range(100))
    board = parse_board(letters)
    assert board.size == (10, 10)
    assert board.faces[10] == letters[10]
    assert board.position(99) == (9, 9)


def test_a_face_may_hold_an_apostrophe_between_letters() -> None:
    """Breton c'h is one letter written with an apostrophe: `[c'h]`, typed straight or curly, in capitals, or a
    file's `C'H`, is one face."""
    assert parse_board("[c'h]oa/rib").faces == ("c'h", "o", "a", "r", "i", "b")
    assert parse_board("[C\u2019H]oa/rib") == parse_board("[c'h]oa/rib")
    assert parse_board_file("C'H O A\nR I B\n") == parse_board("[c'h]oa/rib")
