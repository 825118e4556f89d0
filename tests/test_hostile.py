"""Hostile or odd input on a real system: runaway patterns, Ctrl-C, FIFOs, huge lines, tabs, BOMs, closed pipes,
faces outside the alphabet. Each is handled the same way by every command that meets it."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from boggle_i18n import Lexicon, build_lexicon, parse_board, solve
from boggle_i18n.batch import Block, read_blocks
from boggle_i18n.cli import app
from boggle_i18n.errors import BoardError
from boggle_i18n.pipeline import runner as stage_runner

runner = CliRunner()
MINI_EN = FIXTURES / "mini-en.txt"
CLI = [sys.executable, "-m", "boggle_i18n"]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=root)
    return root


def _evil_recipe(tmp_path: Path) -> Path:
    """A recipe whose pattern backtracks for ever on a line of 40 a's and a '!'."""
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\n" + "a" * 40 + "!\nbird\n", encoding="utf-8")
    recipe = tmp_path / "evil.toml"
    recipe.write_text(
        'name = "evil"\nlanguage = "en"\nlicence = "test"\n\n'
        f'[source]\nname = "evil"\nsystem = ["{words}"]\n\n'
        "[[stages]]\nstage = \"regex-keep\"\npattern = '^(a+)+$'\n",
        encoding="utf-8",
    )
    return recipe


def test_a_runaway_pattern_stops_the_build_with_one_line(
    tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stage_runner, "PATTERN_CPU_SECONDS", 0.3)
    started = time.monotonic()
    result = runner.invoke(app, ["build-lexicon", str(_evil_recipe(tmp_path)), "--store", str(store)])
    assert time.monotonic() - started < 30
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: stage 1 (regex-keep): pattern '^(a+)+$' took over"), lines
    assert not (store / "evil.json").exists()


def test_a_fast_pattern_is_untouched_by_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is per chunk of CPU time: an ordinary recipe builds as before, with the same words."""
    monkeypatch.setattr(stage_runner, "PATTERN_CPU_SECONDS", 0.5)
    lexicon = build_lexicon("en", source=MINI_EN, store=tmp_path / "s")
    assert len(lexicon) > 0 and signal.getsignal(signal.SIGVTALRM) in (signal.SIG_DFL, None, signal.SIG_IGN)


# --- Ctrl-C: `Error: interrupted`, exit 130, in every command that can run long --------------------


def _fifo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def _interrupt(args: list[str], wait_for: str | None, delay: float, env: dict[str, str]) -> tuple[int, str, str]:
    """Start the command, wait for `wait_for` on stderr (or `delay` s), send SIGINT, and collect what it said."""
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen = []
    try:
        if wait_for is not None:
            assert proc.stderr is not None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = proc.stderr.readline()
                seen.append(line)
                if wait_for in line or not line:
                    break
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, out, "".join(seen) + err


@pytest.mark.parametrize(
    "command",
    ["build-lexicon", "score", "solve", "optimize", "compare", "paths"],
)
def test_ctrl_c_is_one_line_and_exit_130_everywhere(command: str, tmp_path: Path, store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    s = ["--store", str(store)]
    fifo = _fifo(tmp_path, "never-written")
    holder = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # keeps the FIFO open: readers wait, never see its end
    try:
        cases: dict[str, tuple[list[str], str | None, float]] = {
            "build-lexicon": (["build-lexicon", str(_evil_recipe(tmp_path)), *s], None, 1.5),
            "score": (["score", str(fifo), "--lexicon", "en-enable2k", *s], None, 1.5),
            "solve": (["solve", "--file", str(fifo), "--lexicon", "en-enable2k", *s], None, 1.5),
            "optimize": (
                ["optimize", "--lexicon", "en-enable2k", "--time-limit", "60", "--seed", "1", *s],
                "best",
                0.3,
            ),
            "compare": (["compare", "en", "--boards", "10", "--optimize-time", "60", *s], None, 3.0),
            "paths": (["paths", "--size", "7x7"], None, 1.5),
        }
        if command == "compare":  # compare plays each language's own lexicon: give `en` one
            build_lexicon("en", source=MINI_EN, store=store)
        args, wait_for, delay = cases[command]
        code, out, err = _interrupt(args, wait_for, delay, env)
    finally:
        os.close(holder)
    assert code == 130, (command, code, err)
    assert err.splitlines()[-1] == "Error: interrupted", err
    assert "Traceback" not in err
    if command == "optimize":  # the best board so far is still reported
        assert "stopped by interrupt" in out


# --- score's input: FIFOs, /dev/stdin, process substitution, long lines, tabs, BOMs, closed pipes ----------


def test_score_reads_fifos_dev_stdin_and_process_substitution(tmp_path: Path, store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    expected = "perslatgsineters\t"
    fifo = _fifo(tmp_path, "boards")
    writer = subprocess.Popen(["sh", "-c", f"echo perslatgsineters > '{fifo}'"])
    via_fifo = subprocess.run(
        [*CLI, "score", str(fifo), "--lexicon", "en-enable2k"], capture_output=True, text=True, env=env
    )
    writer.wait(timeout=30)
    via_stdin = subprocess.run(
        [*CLI, "score", "/dev/stdin", "--lexicon", "en-enable2k"],
        input="perslatgsineters\n",
        capture_output=True,
        text=True,
        env=env,
    )
    command = " ".join([*CLI, "score", "<(echo perslatgsineters)", "--lexicon", "en-enable2k"])
    via_substitution = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env)
    for proc in (via_fifo, via_stdin, via_substitution):
        assert proc.returncode == 0 and proc.stdout.startswith(expected), proc.stderr


class _Endless(io.RawIOBase):
    """A stream of `n` bytes of 'a' then a newline and a board, made as it is read (never held whole)."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.tail = b"\nstreaedlp\n"

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        if self.left > 0:
            take = min(size, self.left)
            self.left -= take
            return b"a" * take
        out, self.tail = self.tail, b""
        return out

    read = read1  # type: ignore[assignment]


def test_a_huge_line_is_skipped_with_flat_memory() -> None:
    """A 20 MB line: never held (peak allocation far below its size), reported as that line with its length."""
    tracemalloc.start()
    try:
        blocks: list[Block] = list(read_blocks(_Endless(20_000_000)))  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak
    assert blocks[0] == (1, b"\n", ((1, 20_000_000),))  # told out of band: no input byte can pass for it
    assert b"".join(b.data for b in blocks[1:]) == b"streaedlp\n"


def test_score_long_lines_tabs_and_a_bom_mid_file(store: Path) -> None:
    text = "perslatgsineters\n" + "b" * 70_000 + "\n\ufeffstreaedlp\npers\tlatg\tsine\tters\n"
    result = runner.invoke(app, ["score", "--lexicon", "en-enable2k", "--store", str(store)], input=text)
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert all(len(r) == 3 for r in rows), rows  # board, score, words: a tab in the input never adds a column
    assert rows[0][0] == "perslatgsineters"
    assert rows[1] == [
        "<line of 70,000 bytes>",
        "error",
        "line is 70,000 bytes, over the maximum 65,536 (a 64x64 board is far shorter)",
    ]
    assert rows[2][0] == "streaedlp" and rows[2][1] != "error"  # the BOM of a second file joined with cat is dropped
    assert rows[3][0] == "pers latg sine ters" and rows[3][1] == rows[0][1]
    assert max(len(line) for line in result.stderr.splitlines()) < 200


def test_a_closed_pipe_ends_quietly(store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    boards = "perslatgsineters\n" * 200_000
    command = f"{' '.join(CLI)} score --lexicon en-enable2k | head -1"
    proc = subprocess.run(["bash", "-c", command], input=boards, capture_output=True, text=True, env=env)
    assert proc.stdout.startswith("perslatgsineters\t") and proc.stdout.count("\n") == 1
    assert "Error" not in proc.stderr and "Broken pipe" not in proc.stderr, proc.stderr


def test_long_names_are_cut_in_messages(store: Path) -> None:
    name = "x" * 10_000
    for args in (
        ["build-lexicon", "en", "--as", name + "/", "--store", str(store)],
        ["solve", "abcd", "--lang", name],
        ["solve", name * 3, "--lexicon", "en-enable2k", "--store", str(store)],
        ["score", name, "--store", str(store)],
    ):
        result = runner.invoke(app, args)
        lines = result.stderr.splitlines()
        assert result.exit_code != 0 and len(lines) == 1 and len(lines[0]) < 300, (args[0], lines[0][:400])


# --- faces outside the language's alphabet: one rule everywhere --------------------------------------


@pytest.mark.parametrize(
    ("board", "lang", "face"),
    [("pers/latg/sine/terñ", "en", "ñ"), ("trap/kaas/oven/blié", "nl", "é"), ("pers/latg/sine/terı", "en", "ı")],
)
def test_faces_outside_the_alphabet_are_refused_everywhere(
    board: str, lang: str, face: str, tmp_path: Path, store: Path
) -> None:
    build_lexicon("en", source=MINI_EN, store=store, save_as="nl-mini")
    lexicon = "en-enable2k" if lang == "en" else "nl-mini"
    message = f"face {face!r} has a letter outside the {lang} alphabet"
    solved = runner.invoke(app, ["solve", board, "--lang", lang, "--lexicon", lexicon, "--store", str(store)])
    assert solved.exit_code == 1 and message in solved.stderr, solved.stderr
    scored = runner.invoke(app, ["score", "--lang", lang, "--lexicon", lexicon, "--store", str(store)], input=board)
    assert scored.exit_code == 1 and message in scored.stdout, scored.output
    with pytest.raises(BoardError, match=message):
        solve(parse_board(board), Lexicon.load(lexicon, store), lang=lang)


def test_solve_board_files_are_bounded_and_utf8_checked(built_store: Path, tmp_path: Path) -> None:
    """`solve --file` and `solve -`: a 50 MB line is refused as it is read (flat memory), bad UTF-8 is one line."""
    from boggle_i18n.cli.solve_cmd import read_board_stream

    tracemalloc.start()
    try:
        with pytest.raises(BoardError, match="line 1 is over the maximum 65,536 bytes"):
            read_board_stream(_Endless(50_000_000), "board input")  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak
    with pytest.raises(BoardError, match="line 3 is over"):
        read_board_stream(io.BytesIO(b"pers\nlatg\n" + b"s" * 70_000 + b"\n"), "board input")
    with pytest.raises(BoardError, match="is over 4,194,304 bytes"):
        read_board_stream(io.BytesIO(b"# comment\n" * 500_000), "board input")
    base = ["solve", "--lexicon", "en-enable2k", "--store", str(built_store)]
    result = runner.invoke(app, [*base, "-"], input=b"pers\nlat\xe9\n")
    assert result.exit_code == 1
    assert result.stderr == "Error: board input is not UTF-8 text (line 2: byte 0xe9)\n"
    long = tmp_path / "long.txt"
    long.write_bytes(b"a" * 100_000 + b"\n")
    result = runner.invoke(app, [*base, "--file", str(long)])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "over the maximum" in result.stderr
    result = runner.invoke(app, [*base, "--file", "-", "--json"], input="pers\nlatg\nsine\nters\n")
    assert result.exit_code == 0 and '"score": 3625' in result.stdout
