"""Hardening round 4 (issue 38), input and output: a cut standard output, FIFOs and devices where the program
reads its own files, `~nosuchuser` folders, absurd numbers in result files, temp files of killed writers,
`--store FILE`, a trie check that cannot start, a C locale, and a server under a rebuilt lexicon.

Commands run as real processes where the behaviour is the process's (its exit code, its streams, a hang);
every one has a timeout, so a hang fails the test instead of stalling the suite. All data is the small
fixture word lists: no ../shared needed.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import LexiconError
from boggle_i18n.lexicon import trust
from boggle_i18n.lexicon.store import Lexicon

CLI = [sys.executable, "-m", "boggle_i18n"]
MINI_EN = FIXTURES / "mini-en.txt"
MINI_NL = FIXTURES / "mini-nl.txt"
REPO = Path(__file__).resolve().parent.parent
RESULT = sorted((REPO / "results").glob("en-enable2k-4x4-free-*.json"))[0]
runner = CliRunner()


@pytest.fixture(scope="session")
def mini_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """en-enable2k, en and nl built from the fixture lists once; tests that change a store copy it."""
    root = tmp_path_factory.mktemp("io") / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=root)
    build_lexicon("en", source=MINI_EN, store=root)
    build_lexicon("nl", source=MINI_NL, store=root)
    return root


@pytest.fixture
def store(mini_store: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store"
    shutil.copytree(mini_store, copy, ignore=shutil.ignore_patterns("compiled"))
    return copy


def run(
    args: list[str],
    store: Path | None,
    *,
    env: dict[str, str] | None = None,
    stdout: int | None = subprocess.PIPE,
    preexec: Callable[[], None] | None = None,
    stdin: str = "",
    timeout: float = 30,
) -> subprocess.CompletedProcess[bytes]:
    """One command line as its own process, with its store and a cache beside it; a hang is a TimeoutExpired."""
    full = dict(os.environ)
    if store is not None:
        full["BOGGLE_I18N_HOME"] = str(store)
        full["BOGGLE_I18N_CACHE"] = str(store.parent / "cache")
    full.update(env or {})
    return subprocess.run(
        [*CLI, *args],
        env=full,
        input=stdin.encode(),
        stdout=stdout,
        stderr=subprocess.PIPE,
        preexec_fn=preexec,
        timeout=timeout,
    )


def one_error(proc: subprocess.CompletedProcess[bytes]) -> str:
    """The run failed with exactly one `Error:` line and no traceback: that line."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0, err
    assert "Traceback" not in err, err
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, err
    return errors[0]


# -- 1. a standard output cut short ---------------------------------------------------------------------------

LIMIT = 512  # bytes the "disk" takes before it is full


def _disk_fills_up() -> None:
    """In the child: files may grow to LIMIT bytes, then a write fails with EFBIG (a full disk's stand-in)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


COMMANDS = {  # every one writes well over LIMIT bytes to stdout
    "solve --json": ["solve", "--json", "--lexicon", "en-enable2k", "perslatgsineters"],
    "compare --json": ["compare", "en", "nl", "-n", "20", "--json", "--roll", "letters", "--seed", "1"],
    "random -n": ["random", "--lang", "en", "-n", "100", "--seed", "1"],
    "languages": ["languages"],
    "results": ["results", "--results", str(REPO / "results")],
    "lexicons --json": ["lexicons", "--json"],
    "dice": ["dice"],
    "score": ["score", "--lexicon", "en-enable2k", "-"],
}


@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_disk_under_stdout_is_an_error_never_exit_0(
    name: str, unbuffered: str, mini_store: Path, tmp_path: Path
) -> None:
    """The first bytes fit, a later write fails: exit non-zero with one `Error:` line naming standard output.

    Unbuffered (PYTHONUNBUFFERED=1), Python's own stdout ignores the short write and every later failure:
    these commands left LIMIT bytes and exited 0.
    """
    stdin = "perslatgsineters\n" * 100 if name == "score" else ""
    target = tmp_path / "out"
    with target.open("wb") as out:
        proc = run(
            COMMANDS[name],
            mini_store,
            env={"PYTHONUNBUFFERED": unbuffered},
            stdout=out.fileno(),
            preexec=_disk_fills_up,
            stdin=stdin,
        )
    line = one_error(proc)
    assert "cannot write standard output" in line, line
    assert target.stat().st_size <= LIMIT


def test_the_same_commands_write_everything_when_there_is_room(mini_store: Path, tmp_path: Path) -> None:
    """The checked writer loses nothing: `solve --json` to a file is whole JSON, unbuffered or not."""
    for unbuffered in ("1", ""):
        target = tmp_path / f"out{unbuffered}"
        with target.open("wb") as out:
            proc = run(COMMANDS["solve --json"], mini_store, env={"PYTHONUNBUFFERED": unbuffered}, stdout=out.fileno())
        assert proc.returncode == 0, proc.stderr
        assert json.loads(target.read_bytes())["board"]


def test_a_reader_that_leaves_still_ends_quietly(mini_store: Path) -> None:
    """`random -n 5000 | head -c 100`: the broken pipe is no `Error:` line (as before), and no traceback."""
    proc = subprocess.run(
        ["bash", "-c", f"{' '.join(CLI)} random --lang en -n 5000 | head -c 100 >/dev/null; echo ${{PIPESTATUS[0]}}"],
        env={**os.environ, "BOGGLE_I18N_HOME": str(mini_store), "PYTHONUNBUFFERED": "1"},
        capture_output=True,
        timeout=30,
    )
    assert b"Traceback" not in proc.stderr and b"Error:" not in proc.stderr, proc.stderr
    assert proc.stdout.strip() != b"0"


# -- 2. a FIFO, a device or a folder where the program reads its own file --------------------------------------


def _plant(path: Path, kind: str) -> None:
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()


KINDS = {"fifo": "a FIFO", "zero": "a character device", "folder": "a folder"}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("suffix", [".json", ".marisa"])
def test_a_store_file_that_is_not_a_file_is_refused_at_once(store: Path, suffix: str, kind: str) -> None:
    """`solve` names the file and what it is; `lexicons` lists it as broken: neither waits or reads for ever."""
    path = store / f"en-enable2k{suffix}"
    _plant(path, kind)
    line = one_error(run(["solve", "--lexicon", "en-enable2k", "perslatgsineters"], store))
    assert str(path) in line and KINDS[kind] in line, line
    assert "not built" not in line and "download" not in line, line
    listing = run(["lexicons"], store)
    assert listing.returncode == 0, listing.stderr
    assert b"BROKEN" in listing.stdout


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_compiled_cache_that_is_not_a_file_is_passed_over(store: Path, kind: str) -> None:
    """`compiled/<sha>.bgc` as a FIFO or /dev/zero: score compiles again and replaces it."""
    sha = json.loads((store / "en-enable2k.json").read_text(encoding="utf-8"))["trie_sha256"]
    cache = store / "compiled" / f"{sha}.bgc"
    cache.parent.mkdir()
    _plant(cache, kind)
    proc = run(["score", "--lexicon", "en-enable2k", "-"], store, stdin="perslatgsineters\n")
    assert proc.returncode == 0, proc.stderr
    assert cache.is_file() and not cache.is_symlink()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_result_file_that_is_not_a_file_is_one_error(tmp_path: Path, kind: str) -> None:
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(RESULT, results / RESULT.name)
    _plant(results / "planted.json", kind)
    for args in (["results", "--results", str(results)], ["results", "--results", str(results), "--rescore"]):
        line = one_error(run(args, None, env={"BOGGLE_I18N_HOME": str(tmp_path / "s")}))
        assert "planted.json" in line and KINDS[kind] in line, line


def test_api_records_over_a_fifo_answers_at_once(tmp_path: Path, mini_store: Path) -> None:
    """GET /api/records with a FIFO in the results folder: one error answer, not a request that hangs."""
    pytest.importorskip("starlette", reason="the [web] extra is not installed")
    import threading

    from starlette.testclient import TestClient

    from boggle_i18n.web import create_app

    results = tmp_path / "results"
    results.mkdir()
    os.mkfifo(results / "planted.json")
    answer: dict[str, object] = {}

    def ask() -> None:
        with TestClient(create_app(mini_store, results), base_url="http://127.0.0.1") as client:
            response = client.get("/api/records")
            answer["status"], answer["body"] = response.status_code, response.json()

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive():  # the FIFO's open blocks: let it through so the thread ends
        fd = os.open(results / "planted.json", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("GET /api/records hung on a FIFO in the results folder")
    assert answer["status"] == 400, answer
    assert "a FIFO" in str(answer["body"])


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_prove_resume_from_a_checkpoint_that_is_not_a_file(store: Path, tmp_path: Path, kind: str) -> None:
    checkpoint = tmp_path / "proof.ckpt"
    _plant(checkpoint, kind)
    args = ["prove", "--lexicon", "en-enable2k", "--size", "3x3", "--checkpoint", str(checkpoint), "--resume"]
    line = one_error(run(args, store))
    assert "checkpoint" in line and KINDS[kind] in line, line


def test_a_user_input_fifo_is_still_read(store: Path, tmp_path: Path) -> None:
    """`score BOARDFILE` reads a FIFO as before: only the program's own files are refused."""
    fifo = tmp_path / "boards"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*CLI, "score", "--lexicon", "en-enable2k", str(fifo)],
        env={**os.environ, "BOGGLE_I18N_HOME": str(store)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    with fifo.open("w", encoding="utf-8") as writer:
        writer.write("perslatgsineters\n")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out.startswith(b"perslatgsineters\t")


# -- 7. ~nosuchuser ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variable", ["BOGGLE_I18N_HOME", "BOGGLE_I18N_CACHE"])
@pytest.mark.parametrize("args", [["solve", "perslatgsineters", "--lexicon", "en"], ["lexicons"], ["languages"]])
def test_a_folder_of_no_such_user_is_one_error(variable: str, args: list[str], tmp_path: Path) -> None:
    env = {"BOGGLE_I18N_HOME": str(tmp_path / "s"), "BOGGLE_I18N_CACHE": str(tmp_path / "c")}
    env[variable] = "~nosuchuser-h38/store"
    line = one_error(run(args, None, env=env))
    assert f"${variable}" in line and "no user 'nosuchuser-h38'" in line, line


def test_a_store_option_of_no_such_user_is_one_error(tmp_path: Path) -> None:
    line = one_error(run(["lexicons", "--store", "~nosuchuser-h38"], None))
    assert "lexicon store" in line and "no user" in line, line


# -- 8. absurd numbers in result files and checkpoints ----------------------------------------------------------

HUGE = "1" + "0" * 400


def _result_with(tmp_path: Path, old: str, new: str, name: str = RESULT.name) -> Path:
    folder = tmp_path / "results"
    folder.mkdir(exist_ok=True)
    text = RESULT.read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    "field",
    ['"score": ', '"seed": ', '"boards_evaluated": ', '"seconds": '],
)
def test_a_huge_number_in_a_result_file_is_refused_naming_it(tmp_path: Path, field: str) -> None:
    text = RESULT.read_text(encoding="utf-8")
    at = text.index(field) + len(field)
    end = at
    while text[end] in "0123456789.":
        end += 1
    folder = _result_with(tmp_path, text[at - len(field) : end], field + HUGE)
    env = {"BOGGLE_I18N_HOME": str(tmp_path / "s")}
    for extra in ([], ["--rescore"]):
        line = one_error(run(["results", "--results", str(folder), *extra], None, env=env))
        assert RESULT.name in line and "out of range" in line, line


def test_a_huge_number_in_a_checkpoint_is_refused_naming_it(store: Path, tmp_path: Path) -> None:
    """A proof checkpoint whose task line says 10**400 CPU seconds, classes or bound: one error naming the line
    (CPU seconds were an OverflowError's traceback; the counts were taken as they were)."""
    checkpoint = tmp_path / "proof.ckpt"
    args = ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--threshold", "2", "--checkpoint", str(checkpoint)]
    first = run(args, store, timeout=60)
    assert first.returncode == 0, first.stderr
    header, task, *rest = checkpoint.read_text(encoding="utf-8").splitlines()
    for field in ("cpu_seconds", "classes", "max_bound"):
        edited = re.sub(f'"{field}":[0-9.]+', f'"{field}":{HUGE}', task, count=1)
        assert edited != task
        checkpoint.write_text("\n".join([header, edited, *rest]) + "\n", encoding="utf-8")
        line = one_error(run([*args, "--resume"], store, timeout=60))
        assert "line 2" in line and field in line, line


# -- 9. temp files left by killed writers -----------------------------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _aged(path: Path, seconds: float) -> Path:
    path.write_bytes(b"half a trie")
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_build_sweeps_the_temps_of_killed_writers_and_keeps_live_ones(store: Path) -> None:
    dead = _aged(store / f".en-enable2k.marisa.{_dead_pid()}.k2j4x9qa.tmp", 120)
    legacy = _aged(store / ".en-enable2k.json.abcd_123.tmp", 2 * 24 * 3600)  # before PIDs were recorded
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as live_writer:
        try:
            live = _aged(store / f".en-enable2k.marisa.{live_writer.pid}.zz11yy22.tmp", 120)
            young = _aged(store / f".en-enable2k.json.{_dead_pid()}.qq11yy22.tmp", 5)  # in the grace time
            proc = run(["build-lexicon", "en-enable2k", "--source", str(MINI_EN)], store)
            assert proc.returncode == 0, proc.stderr
            assert not dead.exists() and not legacy.exists()
            assert live.exists() and young.exists()
        finally:
            live_writer.kill()


def test_a_cache_write_and_lexicons_sweep_compiled_temps(store: Path) -> None:
    compiled = store / "compiled"
    compiled.mkdir()
    first = _aged(compiled / f".{'a' * 64}.bgc.{_dead_pid()}.abcdefgh.tmp", 600)
    proc = run(["score", "--lexicon", "en-enable2k", "-"], store, stdin="perslatgsineters\n")  # writes the cache
    assert proc.returncode == 0, proc.stderr
    assert not first.exists()
    second = _aged(compiled / f".{'b' * 64}.bgc.{_dead_pid()}.abcdefgh.tmp", 600)
    assert run(["lexicons"], store).returncode == 0
    assert not second.exists()


def test_sweep_keeps_its_own_and_other_files(tmp_path: Path) -> None:
    from boggle_i18n.storage import sweep_temps

    mine = _aged(tmp_path / f".x.json.{os.getpid()}.abcdefgh.tmp", 3600)
    plain = _aged(tmp_path / "notes.tmp", 10 * 24 * 3600)
    link = tmp_path / f".y.json.{_dead_pid()}.abcdefgh.tmp"
    link.symlink_to(plain)
    assert sweep_temps(tmp_path) == []
    assert mine.exists() and plain.exists() and link.is_symlink()


# -- 12. --store FILE -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["file", "fifo", "device", "under-a-file"])
@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["solve", "perslatgsineters"], ["lexicons"]])
def test_a_store_that_is_not_a_folder_is_refused_before_anything_starts(
    tmp_path: Path, kind: str, command: list[str]
) -> None:
    path = {"file": tmp_path / "f", "fifo": tmp_path / "p", "device": Path("/dev/null")}.get(kind, tmp_path / "f" / "s")
    (tmp_path / "f").write_text("x", encoding="utf-8")
    if kind == "fifo":
        os.mkfifo(path)
    line = one_error(run([*command, "--store", str(path)], None, timeout=20))
    assert "is not a folder" in line, line


def test_serve_refuses_a_home_store_that_is_not_a_folder(tmp_path: Path) -> None:
    """The same refusal when the store comes from $BOGGLE_I18N_HOME, not --store."""
    home = tmp_path / "f"
    home.write_text("x", encoding="utf-8")
    line = one_error(run(["serve", "--port", "0"], None, env={"BOGGLE_I18N_HOME": str(home)}, timeout=20))
    assert f"lexicon store {home} is not a folder" in line, line


# -- 13. a trie check that cannot start -------------------------------------------------------------------------


def test_a_check_that_cannot_start_does_not_call_the_trie_corrupt(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interpreter cannot be started (EACCES): the error says so, not "corrupt ... rebuild"."""
    not_runnable = tmp_path / "python"
    not_runnable.write_text("#!/bin/sh\n", encoding="utf-8")
    not_runnable.chmod(0o644)
    trust._VERIFIED.clear()
    shutil.rmtree(store.parent / "cache", ignore_errors=True)
    monkeypatch.setenv("BOGGLE_I18N_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(sys, "executable", str(not_runnable))
    with pytest.raises(LexiconError) as caught:
        Lexicon.load("en-enable2k", store)
    message = str(caught.value)
    assert "cannot start a check process" in message and "Permission denied" in message, message
    assert "corrupt" not in message and "rebuild" not in message, message
    listing = runner.invoke(app, ["lexicons", "--store", str(store)])
    assert "UNCHECKED" in listing.stdout and "BROKEN" not in listing.stdout, listing.stdout


# -- a C locale -------------------------------------------------------------------------------------------------

C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}


@pytest.mark.parametrize("json_out", [False, True])
def test_score_in_a_c_locale_reports_the_line_it_cannot_write_and_scores_the_rest(
    store: Path, tmp_path: Path, json_out: bool
) -> None:
    boards = tmp_path / "boards.txt"
    boards.write_text("perslatgsineters\nperslatgsinetårs\nstreaedlp\n", encoding="utf-8")
    args = ["score", "--lexicon", "en-enable2k", str(boards), *(["--json"] if json_out else [])]
    proc = run(args, store, env=C_LOCALE)
    err = proc.stderr.decode("ascii", "replace")
    assert "Traceback" not in err and "Error:" not in err, err
    assert proc.returncode == 1, err  # the line with å is a bad board
    lines = proc.stdout.decode("ascii").splitlines()
    assert len(lines) == 3, lines
    if json_out:  # lossless: JSON's own escapes
        assert [json.loads(line)["board"] for line in lines] == ["perslatgsineters", "perslatgsinetårs", "streaedlp"]
    else:
        assert lines[0].startswith("perslatgsineters\t") and lines[2].startswith("streaedlp\t")
        assert lines[1].startswith("perslatgsinet\\xe5rs\terror")
        assert "written with \\x escapes" in err
    assert "scored 2 boards" in err


# -- serve under a rebuilt lexicon ------------------------------------------------------------------------------


def test_the_server_notices_a_lexicon_rebuilt_under_it(store: Path, tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the [web] extra is not installed")
    from starlette.testclient import TestClient

    from boggle_i18n.web import create_app

    with TestClient(create_app(store), base_url="http://127.0.0.1") as client:

        def words() -> set[str]:
            response = client.get("/api/solve", params={"board": "perslatgsineters", "lexicon": "en-enable2k"})
            assert response.status_code == 200, response.text
            return {w["word"] for w in response.json()["words"]}

        before = words()
        assert "pear" not in before
        more = tmp_path / "more.txt"
        more.write_text(MINI_EN.read_text(encoding="utf-8") + "pear\n", encoding="utf-8")
        build_lexicon("en-enable2k", source=more, store=store)
        after = words()
        assert after == before | {"pear"}
        os.utime(store / "en-enable2k.json")  # touched, not rebuilt: the same lexicon, still served
        assert words() == after
