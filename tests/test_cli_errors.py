"""Every command, a table of bad inputs: each is one `Error:` line, a non-zero exit, and no side effects.

For every case: exit code non-zero, stdout empty, stderr exactly one line starting
with `Error:`, no traceback, and nothing new or changed in the store, the output
path or anywhere else in the test's folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner

MINI_EN = FIXTURES / "mini-en.txt"
BOARD = "perslatgsineters"
runner = CliRunner()


@pytest.fixture
def world(tmp_path: Path) -> Path:
    """A folder with a store holding a small `en-enable2k`, and files bad inputs can point at."""
    store = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=store)
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "latin1.txt").write_bytes("cat\ncafé\n".encode("latin-1"))
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "board-latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    (tmp_path / "escape.toml").write_text(
        'name = "../escape"\nlanguage = "en"\nlicence = "test"\n\n'
        f'[source]\nname = "mini"\nsystem = ["{MINI_EN}"]\n\n[[stages]]\nstage = "length"\nmin = 3\n',
        encoding="utf-8",
    )
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file and folder under `root` with its mode, size and content."""
    out = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content = b""
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as handle:
                content = handle.read()
        out[str(path.relative_to(root))] = (st.st_mode, st.st_size, content)
    return out


S = "{store}"  # placeholders, filled in per test
T = "{tmp}"
SOLVE = ["solve", BOARD, "--lexicon", "en-enable2k", "--store", S]

CASES: dict[str, list[str]] = {
    # top level
    "unknown command": ["nope"],
    "unknown top option": ["--nope"],
    # build-lexicon
    "build: no recipe": ["build-lexicon", "--store", S],
    "build: unknown recipe": ["build-lexicon", "klingon", "--store", S],
    "build: missing recipe file": ["build-lexicon", f"{T}/gone.toml", "--store", S],
    "build: recipe name escapes": ["build-lexicon", f"{T}/escape.toml", "--store", S],
    "build: missing source": ["build-lexicon", "en", "--source", f"{T}/gone.txt", "--store", S],
    "build: source is a folder": ["build-lexicon", "en", "--source", f"{T}/a-folder", "--store", S],
    "build: latin-1 source": ["build-lexicon", "en", "--source", f"{T}/latin1.txt", "--store", S],
    "build: empty source": ["build-lexicon", "en", "--source", f"{T}/empty.txt", "--store", S],
    "build: unknown encoding": ["build-lexicon", "en", "--source", str(MINI_EN), "--encoding", "nope", "--store", S],
    "build: --as ../escape": ["build-lexicon", "en", "--source", str(MINI_EN), "--as", "../escape", "--store", S],
    "build: --as empty": ["build-lexicon", "en", "--source", str(MINI_EN), "--as", "", "--store", S],
    "build: --as sub/dir": ["build-lexicon", "en", "--source", str(MINI_EN), "--as", "sub/dir", "--store", S],
    "build: --as .hidden": ["build-lexicon", "en", "--source", str(MINI_EN), "--as", ".hidden", "--store", S],
    "build: --as with space": ["build-lexicon", "en", "--source", str(MINI_EN), "--as", "my list", "--store", S],
    "build: store is a file": ["build-lexicon", "en", "--source", str(MINI_EN), "--store", f"{T}/a-file"],
    "build: store under a file": ["build-lexicon", "en", "--source", str(MINI_EN), "--store", f"{T}/a-file/x"],
    "build: no source offline": ["build-lexicon", "en-enable2k", "--store", f"{T}/new-store"],
    "build: unknown option": ["build-lexicon", "en", "--nope"],
    # lexicons
    "lexicons: store is a file": ["lexicons", "--store", f"{T}/a-file"],
    "lexicons: unknown option": ["lexicons", "--nope"],
    "lexicons: extra argument": ["lexicons", "extra"],
    # dice
    "dice: unknown language": ["dice", "--lang", "xx"],
    "dice: unknown option": ["dice", "--nope"],
    # random
    "random: seed not a number": ["random", "--seed", "abc"],
    "random: unknown dice": ["random", "--dice", "nope"],
    "random: unknown language": ["random", "--lang", "xx"],
    "random: size 0x4": ["random", "--size", "0x4"],
    "random: size abc": ["random", "--size", "abc"],
    "random: size too big": ["random", "--size", "65x65", "--letters", "uniform"],
    "random: no dice of size": ["random", "--lang", "en", "--size", "7x7"],
    "random: dice and size disagree": ["random", "--dice", "en-classic-4x4", "--size", "5x5"],
    "random: unknown letters mode": ["random", "--letters", "zipf"],
    "random: output folder missing": ["random", "--seed", "1", "-o", f"{T}/nowhere/board.txt"],
    "random: output is a folder": ["random", "--seed", "1", "-o", f"{T}/a-folder"],
    # solve
    "solve: no board": ["solve", "--lexicon", "en-enable2k", "--store", S],
    "solve: ragged rows": ["solve", "abc/de", "--lexicon", "en-enable2k", "--store", S],
    "solve: digit face": ["solve", "ab1c", "--lexicon", "en-enable2k", "--store", S],
    "solve: not a square": ["solve", "abcde", "--lexicon", "en-enable2k", "--store", S],
    "solve: unclosed bracket": ["solve", "[qu", "--lexicon", "en-enable2k", "--store", S],
    "solve: ragged separate rows": ["solve", "abcd", "efg", "--lexicon", "en-enable2k", "--store", S],
    "solve: min length 0": [*SOLVE, "--min-length", "0"],
    "solve: min length abc": [*SOLVE, "--min-length", "abc"],
    "solve: negative scoring": [*SOLVE, "--scoring", "3:-1"],
    "solve: malformed scoring": [*SOLVE, "--scoring", "3:x"],
    "solve: unknown scoring": [*SOLVE, "--scoring", "nope"],
    "solve: unknown language": [*SOLVE, "--lang", "xx"],
    "solve: unknown dice": [*SOLVE, "--dice", "nope"],
    "solve: dice of another size": [*SOLVE, "--dice", "en-big-5x5-deluxe"],
    "solve: bad bare-q": [*SOLVE, "--bare-q", "x"],
    "solve: size does not fit": [*SOLVE, "--size", "3x3"],
    "solve: lexicon ../escape": ["solve", BOARD, "--lexicon", "../escape", "--store", S],
    "solve: lexicon sub/dir": ["solve", BOARD, "--lexicon", "sub/dir", "--store", S],
    "solve: lexicon empty": ["solve", BOARD, "--lexicon", "", "--store", S],
    "solve: unknown lexicon": ["solve", BOARD, "--lexicon", "klingon", "--store", S],
    "solve: missing recipe file": ["solve", BOARD, "--lexicon", f"{T}/gone.toml", "--store", S],
    "solve: missing trie file": ["solve", BOARD, "--lexicon", f"{T}/gone.marisa", "--store", S],
    "solve: store is a file": ["solve", BOARD, "--lexicon", "en", "--store", f"{T}/a-file"],
    "solve: lexicon to build, no source": ["solve", BOARD, "--lexicon", "en", "--store", S],
    "random: lexicon to build, no source": ["random", "--letters", "lexicon", "--lang", "en", "--store", S],
    "solve: missing board file": ["solve", "--file", f"{T}/gone.board", "--lexicon", "en-enable2k", "--store", S],
    "solve: board file is a folder": ["solve", "--file", f"{T}/a-folder", "--lexicon", "en-enable2k", "--store", S],
    "solve: board file not UTF-8": [
        *["solve", "--file", f"{T}/board-latin1.txt", "--lexicon", "en-enable2k", "--store", S]
    ],
    "solve: board and --file": [*SOLVE, "--file", f"{T}/a-file"],
    "solve: output folder missing": [*SOLVE, "-o", f"{T}/nowhere/out.txt"],
    "solve: output is a folder": [*SOLVE, "-o", f"{T}/a-folder"],
    "solve: unknown option": [*SOLVE, "--nope"],
    # score
    "score: missing board file": ["score", f"{T}/gone.txt", "--lexicon", "en-enable2k", "--store", S],
    "score: board file is a folder": ["score", f"{T}/a-folder", "--lexicon", "en-enable2k", "--store", S],
    "score: unknown engine": ["score", f"{T}/a-file", "--engine", "nope", "--lexicon", "en-enable2k", "--store", S],
    "score: negative workers": ["score", f"{T}/a-file", "--workers", "-1", "--lexicon", "en-enable2k", "--store", S],
    "score: min length 0": ["score", f"{T}/a-file", "--min-length", "0", "--lexicon", "en-enable2k", "--store", S],
    "score: unknown language": ["score", f"{T}/a-file", "--lang", "xx", "--store", S],
    "score: bad size": ["score", f"{T}/a-file", "--size", "0x4", "--lexicon", "en-enable2k", "--store", S],
    # paths
    "paths: no size": ["paths"],
    "paths: size 0x3": ["paths", "--size", "0x3"],
    "paths: max length 0": ["paths", "--size", "3x3", "--max-length", "0"],
    # languages
    "languages: unknown option": ["languages", "--nope"],
    # numbers: each has one range (boggle_i18n/limits.py), checked before any work
    "score: points overflow int64": ["score", f"{T}/a-file", "--scoring", "3:10000000000000000", "--store", S],
    "score: points beyond any int": ["score", f"{T}/a-file", "--scoring", "3:" + "9" * 23, "--store", S],
    "score: 5000-letter length": ["score", f"{T}/a-file", "--scoring", "3:1,5000:1", "--store", S],
    "score: too many workers": [
        "score",
        f"{T}/a-file",
        "--workers",
        "100000",
        "--lexicon",
        "en-enable2k",
        "--store",
        S,
    ],
    "solve: min length huge": [*SOLVE, "--min-length", "99999999999999999999"],
    "solve: points overflow": [*SOLVE, "--scoring", "3:1,4:2000000"],
    "random: negative seed": ["random", "--seed", "-1"],
    "random: seed beyond int64": ["random", "--seed", str(2**64)],
    "random: dice of another language": ["random", "--dice", "en-new-4x4", "--lang", "nl"],
    "random: letters from dice of another language": [
        *["random", "--dice", "en-new-4x4", "--lang", "nl", "--letters", "uniform"]
    ],
    "solve: dice of another language": [*SOLVE, "--dice", "nl-4x4", "--lang", "en"],
    "solve: empty dice": [*SOLVE, "--dice", ""],
    "solve: empty language": [*SOLVE, "--lang", ""],
    "optimize: negative seed": ["optimize", "--seed", "-1", "--lexicon", "en-enable2k", "--store", S],
    "optimize: negative workers": ["optimize", "--workers", "-1", "--lexicon", "en-enable2k", "--store", S],
    "optimize: time limit 0": ["optimize", "--time-limit", "0", "--lexicon", "en-enable2k", "--store", S],
    "optimize: time limit nan": ["optimize", "--time-limit", "nan", "--lexicon", "en-enable2k", "--store", S],
    "optimize: top 0": ["optimize", "--top", "0", "--lexicon", "en-enable2k", "--store", S],
    "optimize: huge restarts": ["optimize", "--restarts", str(10**12), "--lexicon", "en-enable2k", "--store", S],
    "optimize: size 65x1": ["optimize", "--size", "65x1", "--lexicon", "en-enable2k", "--store", S],
    "compare: empty language": ["compare", "", "--store", S],
    "compare: negative seed": ["compare", "en", "--seed", "-1", "--store", S],
    "compare: too many boards": ["compare", "en", "--boards", str(10**9), "--store", S],
    # output paths: checked before the work, so nothing is searched for nothing
    "optimize: output folder missing": [
        *["optimize", "--restarts", "1", "-o", f"{T}/nowhere/out.json", "--lexicon", "en-enable2k", "--store", S]
    ],
    "optimize: output is a folder": [
        *["optimize", "--restarts", "1", "-o", f"{T}/a-folder", "--lexicon", "en-enable2k", "--store", S]
    ],
    "results: output folder missing": ["results", f"{T}/a-folder", "-o", f"{T}/nowhere/results.md"],
    # remove-lexicon: a name is checked before anything is removed
    "remove-lexicon: ../escape": ["remove-lexicon", "../escape", "--store", S],
    "remove-lexicon: unknown": ["remove-lexicon", "klingon", "--store", S],
    "remove-lexicon: one bad name of two": ["remove-lexicon", "en-enable2k", "sub/dir", "--store", S],
    # faces outside the language's alphabet: refused with the face named, never a dead cell
    "solve: face outside the alphabet": ["solve", "pers/latg/sine/terñ", "--lexicon", "en-enable2k", "--store", S],
    "solve: dotless i": ["solve", "pers/latg/sine/terı", "--lexicon", "en-enable2k", "--store", S],
    "solve: long board is cut": ["solve", "q" * 5000, "--lexicon", "en-enable2k", "--store", S],
    "score: FIFO-like path that is a folder": ["score", f"{T}/a-folder", "--lexicon", "en-enable2k", "--store", S],
    "paths: huge max length": ["paths", "--size", "3x3", "--max-length", str(10**30)],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_error_line(case: str, world: Path) -> None:
    """One `Error:` line on stderr, non-zero exit, empty stdout, no traceback, nothing written."""
    args = [a.replace(S, str(world / "store")).replace(T, str(world)) for a in CASES[case]]
    before = snapshot(world)
    result = runner.invoke(app, args)
    assert result.exit_code not in (0, None), f"{case}: exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), f"{case}: stderr was\n{result.stderr}"
    assert result.stdout == "", f"{case}: stdout was\n{result.stdout}"
    assert snapshot(world) == before, f"{case}: files changed"


def test_usage_errors_exit_2_and_library_errors_exit_1(world: Path) -> None:
    """Click's usage errors keep their exit code 2; errors found by the library exit 1."""
    store = str(world / "store")
    assert runner.invoke(app, ["solve", BOARD, "--min-length", "0", "--store", store]).exit_code == 2
    assert runner.invoke(app, ["random", "--nope"]).exit_code == 2
    assert runner.invoke(app, ["solve", BOARD, "--lang", "xx", "--store", store]).exit_code == 1


def test_unreadable_source_is_one_line(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A --source the user may not read (tests run as root too, so the refusal is simulated)."""
    secret = world / "secret.txt"
    secret.write_text("cat\n", encoding="utf-8")
    real_open = Path.open

    def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == secret:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    before = snapshot(world)
    result = runner.invoke(app, ["build-lexicon", "en", "--source", str(secret), "--store", str(world / "store")])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"Error: cannot read source {secret}: Permission denied"]
    assert snapshot(world) == before


def test_unwritable_store_reported_before_any_work(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store the user may not write is named in one line before the source is even read."""
    store = world / "store"
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if Path(p) == store and mode & os.W_OK else real_access(p, mode)
    )
    read = []
    monkeypatch.setattr("boggle_i18n.lexicon.build.resolve_source", lambda *a, **k: read.append(1))
    result = runner.invoke(app, ["build-lexicon", "en", "--source", str(MINI_EN), "--store", str(store)])
    assert result.stderr.splitlines() == [f"Error: lexicon store {store} is not writable"]
    assert result.exit_code == 1 and read == []


def test_a_result_that_cannot_be_written_is_still_printed(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output folder passed the check, then the write failed (disk full, folder removed): stdout has the result."""
    from boggle_i18n.errors import OutputError

    def refuse(output: Any, text: str) -> None:
        raise OutputError(f"cannot write {output}: No space left on device")

    monkeypatch.setattr("boggle_i18n.storage.write_output", refuse)  # cli/common.py imports it when it writes
    out = world / "out.json"
    solve = [a.replace(S, str(world / "store")) for a in SOLVE]
    result = runner.invoke(app, [*solve, "--json", "-o", str(out)])
    args = ["optimize", "--restarts", "1", "--seed", "1", "-o", str(out), "--lexicon", "en-enable2k"]
    optimized = runner.invoke(app, [*args, "--store", str(world / "store")])
    for run in (result, optimized):
        assert run.exit_code == 1
        assert run.stderr.splitlines()[-1] == f"Error: cannot write {out}: No space left on device"
        assert '"score"' in run.stdout or '"best"' in run.stdout
    assert not out.exists()


def test_running_out_of_memory_is_one_error_line(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError anywhere in a command is one `Error:` line and exit 1, not a traceback."""
    import boggle_i18n.cli.solve_cmd as solve_cmd

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(solve_cmd, "solve", no_memory)
    result = runner.invoke(app, ["solve", BOARD, "--lexicon", "en-enable2k", "--store", str(world / "store")])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["Error: out of memory: this command needs more memory than is free here"]
    assert "Traceback" not in result.output
