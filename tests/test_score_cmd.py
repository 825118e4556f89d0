"""`boggle-i18n score` through the CLI runner: order, bad lines, --strict, stdin, JSON Lines, workers, rules."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from boggle_i18n import api
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.solver.batch import BatchSettings, read_blocks, score_stream
from boggle_i18n.solving import batch_inputs, line_scorer

runner = CliRunner()


@pytest.fixture(scope="module")
def boards_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Random 4x4 boards, a few 5x5 and 3x3 ones, comments, blanks and bad lines, in one file."""
    rng = random.Random(5)
    lines = ["# a comment", ""]
    for i in range(9000):  # more than two chunks of 4096
        side = 5 if i % 500 == 7 else 3 if i % 777 == 3 else 4
        lines.append("".join(rng.choice("etaoinshrdlucmfwypq") for _ in range(side * side)))
    lines[5000] = "abc"  # not a square
    lines[6000] = "ab[cd"  # unclosed bracket
    lines.append("PERS/LATG/SINE/TERS")
    lines.append("[qu]abc/defg/hijk/lmn[]")
    path = tmp_path_factory.mktemp("score") / "boards.txt"
    path.write_text("\ufeff" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def expected(path: Path, lexicon: Lexicon) -> dict[int, tuple[str, int | None, int | None]]:
    """Line number -> (text, score, words) by the reference solver through the plain API."""
    out = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").lstrip("\ufeff").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            board = api.parse_board(text, lang="en")
        except Exception:
            out[number] = (text, None, None)
            continue
        result = api.solve(board, lexicon, api.rules_for(board, lang="en"))
        out[number] = (text, result.score, result.n_words)
    return out


@pytest.fixture(scope="module")
def reference(boards_file: Path, enable2k: Lexicon) -> dict[int, tuple[str, int | None, int | None]]:
    return expected(boards_file, enable2k)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_score_file_in_order_with_bad_lines(
    workers: str, boards_file: Path, built_store: Path, reference: dict[int, tuple[str, int | None, int | None]]
) -> None:
    result = runner.invoke(
        app, ["score", str(boards_file), "--lexicon", "en-enable2k", "--store", str(built_store), "--workers", workers]
    )
    assert result.exit_code == 1, result.stderr  # bad lines: all output written, then exit 1
    rows = result.stdout.splitlines()
    assert len(rows) == len(reference)
    for row, (text, score, words) in zip(rows, reference.values(), strict=True):
        got_text, got_score, got_words = row.split("\t")
        assert got_text == text
        if score is None:
            assert got_score == "error"
        else:
            assert (int(got_score), int(got_words)) == (score, words), text
    assert "PERS/LATG/SINE/TERS\t3625\t1045" in rows
    errors = [line for line in result.stderr.splitlines() if line.startswith("line ")]
    assert [e.split(":")[0] for e in errors] == ["line 5001", "line 6001"]  # lines[5000] is line 5001
    assert "bad lines" in result.stderr.splitlines()[-1]


@pytest.mark.parametrize(("engine", "lines"), [("numba", None), ("reference", 400)])
def test_workers_give_the_same_output_on_every_engine(
    engine: str, lines: int | None, boards_file: Path, built_store: Path, tmp_path: Path
) -> None:
    """Threads (fast, numba: their kernels release the GIL) or forked processes (reference): same rows, same order."""
    path = boards_file
    if lines is not None:
        path = tmp_path / "some.txt"
        path.write_text("\n".join(boards_file.read_text(encoding="utf-8").splitlines()[:lines]) + "\n")
    args = ["score", str(path), "--lexicon", "en-enable2k", "--store", str(built_store), "--engine", engine]
    one = runner.invoke(app, [*args, "--workers", "1"])
    two = runner.invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == two.exit_code and one.stdout == two.stdout
    assert len(one.stdout.splitlines()) > 300


def test_plain_blocks_score_the_same_without_the_c_helpers(
    boards_file: Path, built_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the C kernel was not built, numpy parses plain blocks: the output is the same, byte for byte."""
    from boggle_i18n.solver import batch

    args = ["score", str(boards_file), "--lexicon", "en-enable2k", "--store", str(built_store)]
    with_c = runner.invoke(app, args)
    monkeypatch.setattr(batch, "_line_helpers", lambda: None)
    without = runner.invoke(app, args)
    assert with_c.exit_code == without.exit_code == 1
    assert with_c.stdout == without.stdout and len(with_c.stdout.splitlines()) > 9000


def test_a_note_is_said_once_however_many_workers(built_store: Path, tmp_path: Path) -> None:
    """Boards over 64 cells go to the reference engine, which the output says once, not once per worker."""
    path = tmp_path / "big.txt"
    path.write_text("\n".join(["x" * 81] * 900) + "\n")  # 9x9, over 64 cells; three blocks of input
    result = runner.invoke(
        app, ["score", str(path), "--lexicon", "en-enable2k", "--store", str(built_store), "-w", "2", "--size", "9x9"]
    )
    assert result.exit_code == 0, result.stderr
    assert sum("reference engine" in line for line in result.stderr.splitlines()) == 1


def test_strict_with_workers_stops_at_the_first_bad_line(boards_file: Path, built_store: Path) -> None:
    result = runner.invoke(
        app,
        ["score", str(boards_file), "--lexicon", "en-enable2k", "--store", str(built_store), "--strict", "-w", "2"],
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].startswith("Error: line 5001 is not a board (--strict)")
    assert len(result.stdout.splitlines()) == 4998


def test_strict_stops_at_the_first_bad_line(boards_file: Path, built_store: Path) -> None:
    result = runner.invoke(
        app, ["score", str(boards_file), "--lexicon", "en-enable2k", "--store", str(built_store), "--strict"]
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].startswith("Error: line 5001 is not a board (--strict)")
    assert len(result.stdout.splitlines()) == 4998  # lines 3..5000: every board before it, scored


def test_stdin_and_json_lines(built_store: Path) -> None:
    text = "# comment\nperslatgsineters\n\nstreaedlp\nnot a board at all\n"
    for args in (["score"], ["score", "-"]):
        result = runner.invoke(
            app, [*args, "--lexicon", "en-enable2k", "--store", str(built_store), "--json"], input=text
        )
        assert result.exit_code == 1
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert rows[0] == {"line": 2, "board": "perslatgsineters", "score": 3625, "n_words": 1045}
        assert rows[1] == {"line": 4, "board": "streaedlp", "score": 545, "n_words": 267}
        assert rows[2]["line"] == 5 and "error" in rows[2]


def test_rule_options_change_scores(built_store: Path) -> None:
    base = ["score", "--lexicon", "en-enable2k", "--store", str(built_store)]
    plain = runner.invoke(app, base, input="perslatgsineters\n")
    assert plain.stdout == "perslatgsineters\t3625\t1045\n"
    counted = runner.invoke(app, [*base, "--scoring", "word-count"], input="perslatgsineters\n")
    assert counted.stdout == "perslatgsineters\t1045\t1045\n"
    longer = runner.invoke(app, [*base, "--min-length", "4"], input="perslatgsineters\n")
    assert 0 < int(longer.stdout.split("\t")[2]) < 1045
    orthogonal = runner.invoke(app, [*base, "--no-diagonals"], input="perslatgsineters\n")
    assert int(orthogonal.stdout.split("\t")[1]) < 3625
    reference = runner.invoke(app, [*base, "--engine", "reference"], input="perslatgsineters\n")
    assert reference.stdout == plain.stdout and "reference engine" in reference.stderr
    sized = runner.invoke(app, [*base, "--size", "2x8", "--scoring", "classic-4x4"], input="perslatgsineters\n")
    expected_2x8 = api.solve(
        api.parse_board("perslatg/sineters"),
        Lexicon.load("en-enable2k", built_store),
        api.rules_for(api.parse_board("perslatg/sineters"), lang="en", scoring="classic-4x4"),
    ).score
    assert sized.stdout.split("\t")[1] == str(expected_2x8)


def test_dutch_plain_q_and_dice_rules(built_store: Path) -> None:
    """With --lang nl a bare q is a plain q; --dice applies that set's rules and shape."""
    board = "quizaatlsneertop"
    got = runner.invoke(app, ["score", "--lang", "nl", "--store", str(built_store)], input=board + "\n")
    dutch = Lexicon.load("nl", built_store)
    parsed = api.parse_board(board, lang="nl")
    assert parsed.faces[0] == "q"
    assert got.stdout == f"{board}\t{api.solve(parsed, dutch, lang='nl').score}\t{api.solve(parsed, dutch).n_words}\n"
    wrong_size = runner.invoke(
        app, ["score", "--dice", "nl-4x4", "--store", str(built_store)], input="abcdefghijklmnopqrstuvwxy\n"
    )
    assert wrong_size.exit_code == 1 and "\terror\t" in wrong_size.stdout


def test_stream_reads_block_by_block(built_store: Path) -> None:
    """score_stream consumes its input a block at a time, never the whole of it."""
    consumed = 0

    def blocks():  # type: ignore[no-untyped-def]
        nonlocal consumed
        for i in range(100):
            consumed += 1
            yield 1 + 1000 * i, b"perslatgsineters\n" * 1000

    settings = BatchSettings(lexicon="en-enable2k", store=str(built_store), lang="en")
    stream = score_stream(blocks(), settings, batch_inputs)
    first = next(stream)
    assert consumed == 1 and first.boards == 1000 and first.total == 3625 * 1000


def test_read_blocks_cuts_at_newlines_and_counts_lines() -> None:
    """Blocks hold whole lines; each block's first line number is right; a BOM and a missing last newline are fine."""
    data = "\ufeff" + "".join(f"line{i}\n" for i in range(1, 1000)) + "last"
    blocks = list(read_blocks(io.BytesIO(data.encode("utf-8")), size=64))
    assert len(blocks) > 10
    assert b"".join(b.data for b in blocks).decode() == data.lstrip("\ufeff") + "\n"
    for first, block, too_long in blocks:
        assert block.endswith(b"\n") and too_long == ()
        head = block.split(b"\n", 1)[0].decode()
        assert head == ("last" if first == 1000 else f"line{first}")


def test_plain_block_path_equals_line_path(built_store: Path) -> None:
    """A block of plain boards (one numpy lookup) and the same boards with a comment (line by line) agree."""
    scorer = line_scorer(BatchSettings(lexicon="en-enable2k", store=str(built_store), lang="en"))
    boards = ["perslatgsineters", "qaaaqaaaqaaaqaaa", "abcdefghijklmnop"]
    plain = scorer.score_block(1, ("\n".join(boards) + "\n").encode())
    mixed = scorer.score_block(1, ("# c\n" + "\n".join(boards) + "\n").encode())
    assert plain.text == mixed.text and plain.total == mixed.total and plain.boards == 3
    assert plain.text.startswith("perslatgsineters\t3625\t1045\n")


def test_a_bad_line_costs_only_itself(built_store: Path, tmp_path: Path) -> None:
    """Undecodable bytes, a NUL, an odd character: one error line each, with its number; every other line scored."""
    bad = tmp_path / "bad.txt"
    good = [b"perslatgsineters", b"pers/latg/sine/ters"] * 600  # more than one block around the bad lines
    bad.write_bytes(
        b"\n".join([*good[:700], b"abc\xe9defghijklmnop", b"\x00123", b"pers/latg/sine/te\x01", *good[700:]])
    )
    result = runner.invoke(app, ["score", str(bad), "--lexicon", "en-enable2k", "--store", str(built_store)])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("line ")]
    assert errors[0] == "line 701: line is not UTF-8 text (byte 0xe9 at byte 4)"
    assert [e.split(":")[0] for e in errors] == ["line 701", "line 702", "line 703"]
    rows = result.stdout.splitlines()
    assert len(rows) == 1203 and sum(r.endswith("\t3625\t1045") for r in rows) == 1200
    assert rows[701].split("\t")[:2] == ["\x00123", "error"]
    assert "1,200 boards" in result.stderr.splitlines()[-1] and "3 bad lines" in result.stderr.splitlines()[-1]


def _random_lines(rng: random.Random, alphabet: str, n: int) -> list[str]:
    """Board lines in every notation, with odd tokens: brackets, blanks, BOMs, accents (composed or not), NUL."""
    odd = [".", "[qu]", "[QU]", "[]", "[q]", "[th]", "[x", "]", "#", "\t", " ", "/", "\u00e9", "e\u0301", "\ufeff"]
    odd += ["\x00", "1", "\u00a0", "[\u00e4]", "\x1c", "A", "Q", "\u00c4"]
    out = []
    for _ in range(n):
        side = rng.choice([1, 2, 3, 4, 4, 4, 5])
        kind = rng.random()
        if kind < 0.3:
            line = "".join(rng.choice(alphabet) for _ in range(side * side))
        elif kind < 0.6:
            sep = rng.choice(["/", " ", " / ", "\t"])
            line = sep.join("".join(rng.choice(alphabet) for _ in range(side)) for _ in range(side))
        else:
            line = "".join(rng.choice(odd if rng.random() < 0.3 else alphabet) for _ in range(rng.randint(0, 20)))
        out.append(" \ufeff " + line + " \r" if rng.random() < 0.05 else line)
    return out


@pytest.mark.parametrize(
    ("lexicon", "lang", "dice", "size", "alphabet"),
    [
        ("en-enable2k", "en", None, None, "abcdefghijklmnopqrstuvwxyz"),
        ("en-enable2k", "en", "en-classic-4x4", None, "abcdeqxyz"),
        ("en-enable2k", "en", None, (2, 8), "abcdeqxyz"),
        ("de", "de", None, None, "a\u00e4\u00f6\u00fcenrtsq"),
        ("nl", "nl", "nl-4x4", None, "aeijqnrts"),
    ],
)
def test_bulk_reader_equals_the_notation_parser(
    lexicon: str,
    lang: str,
    dice: str | None,
    size: tuple[int, int] | None,
    alphabet: str,
    built_store: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The C reader and the line-by-line parser give the same output, byte for byte, errors included."""
    from boggle_i18n.solver import batch

    settings = BatchSettings(lexicon=lexicon, store=str(built_store), lang=lang, dice=dice, size=size)
    for seed in range(4):
        rng = random.Random(seed)
        data = ("\n".join(_random_lines(rng, alphabet, 500)) + "\n").encode() + b"abc\xe9d\n\xff\xfe\n"
        json_lines = seed == 3
        bulk = line_scorer(settings).score_block(1, data, json_lines, ((3, 70_000),))
        with monkeypatch.context() as patch:
            patch.setattr(batch, "_line_helpers", lambda: None)
            lines = line_scorer(settings).score_block(1, data, json_lines, ((3, 70_000),))
        assert bulk.text == lines.text
        assert (bulk.boards, bulk.total, bulk.errors) == (lines.boards, lines.total, lines.errors)
        assert bulk.boards > 20 and len(bulk.errors) > 20


def test_a_missing_kernel_is_one_error_not_a_bad_line_per_board(
    built_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba absent (sys.modules entry None makes the import fail): one `Error:` line, no per-board rows."""
    monkeypatch.setitem(__import__("sys").modules, "boggle_i18n.solver.kernels", None)
    result = runner.invoke(
        app,
        ["score", "-", "--lexicon", "en-enable2k", "--store", str(built_store), "--engine", "numba"],
        input="perslatgsineters\nabcdefghijklmnop\n",
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("Error: ") and "boggle-i18n[numba]" in result.stderr
