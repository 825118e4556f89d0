"""Files the commands write, on a real filesystem: modes, symlinks, devices, pipes, stdout, the store."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.storage import write_file

MINI_EN = FIXTURES / "mini-en.txt"
BOARD = "catx/dogx/xxxx/xxxx"
runner = CliRunner()


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process umask after a test that sets its own."""
    old = os.umask(0o022)
    os.umask(old)
    yield
    os.umask(old)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store with a small en-enable2k (cat, dog, ...)."""
    folder = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=folder)
    return folder


def solve_to(store: Path, output: str | Path, *extra: str) -> str:
    result = runner.invoke(
        app, ["solve", BOARD, "--lexicon", "en-enable2k", "--store", str(store), "--json", "-o", str(output), *extra]
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_output_file_follows_the_umask(store: Path, tmp_path: Path, umask: None, mask: int, expected: int) -> None:
    """A new output file gets 0666 & ~umask, like `>` in a shell, not tempfile's 0600."""
    os.umask(mask)
    target = tmp_path / "out.json"
    solve_to(store, target)
    assert json.loads(target.read_text(encoding="utf-8"))["score"] == 2  # cat, dog
    assert mode(target) == expected


def test_overwritten_output_keeps_its_mode(store: Path, tmp_path: Path, umask: None) -> None:
    """Overwriting a 0644 (or 0640) file keeps that mode, whatever the umask; no temp file is left."""
    os.umask(0o077)
    for kept in (0o644, 0o640, 0o604):
        target = tmp_path / "out.json"
        target.write_text("old\n", encoding="utf-8")
        target.chmod(kept)
        solve_to(store, target)
        assert mode(target) == kept
        assert target.read_text(encoding="utf-8").startswith("{")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "store"]


def test_symlink_output_writes_its_target(store: Path, tmp_path: Path) -> None:
    """`-o link` writes the file the link points to; the link stays a link."""
    real = tmp_path / "real.json"
    real.write_text("old\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    solve_to(store, link)
    assert link.is_symlink() and os.readlink(link) == real.name
    assert json.loads(real.read_text(encoding="utf-8"))["score"] == 2
    assert mode(real) == 0o640


def test_dangling_symlink_output_creates_its_target(store: Path, tmp_path: Path) -> None:
    """A link to a file not there yet: the target is created, the link kept."""
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    solve_to(store, link)
    assert link.is_symlink() and json.loads((tmp_path / "made.json").read_text(encoding="utf-8"))["score"] == 2


def test_dev_null_stays_a_device(store: Path) -> None:
    """`-o /dev/null` writes into the device; it is never replaced by a regular file."""
    solve_to(store, "/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fifo_output_is_written_through(store: Path, tmp_path: Path) -> None:
    """A named pipe receives the result and stays a pipe."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    solve_to(store, fifo)
    reader.join(timeout=10)
    assert json.loads(received[0])["score"] == 2
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_dash_means_stdout(store: Path, tmp_path: Path) -> None:
    """`-o -` prints the result on stdout and creates no file called `-`."""
    out = solve_to(store, "-")
    assert json.loads(out)["score"] == 2
    assert not (Path.cwd() / "-").exists()


def test_dev_stdout_in_a_real_process(store: Path, tmp_path: Path) -> None:
    """`-o /dev/stdout` (a symlink to /proc/self/fd/1) prints through the process's stdout, into a pipe."""
    before = os.lstat("/dev/stdout")
    args = ["solve", BOARD, "--lexicon", "en-enable2k", "--store", str(store), "--json", "-o", "/dev/stdout"]
    done = subprocess.run(
        [sys.executable, "-m", "boggle_i18n", *args], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 2
    after = os.lstat("/dev/stdout")
    assert stat.S_ISLNK(after.st_mode) and (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_store_files_follow_the_umask_and_keep_modes(tmp_path: Path, umask: None) -> None:
    """A shared store: built files get the umask (0664 with umask 002); a rebuild keeps a chosen mode."""
    os.umask(0o002)
    folder = tmp_path / "shared" / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=folder)
    assert mode(folder) == 0o775
    assert {p.name: mode(p) for p in folder.iterdir()} == {"en-enable2k.marisa": 0o664, "en-enable2k.json": 0o664}
    (folder / "en-enable2k.json").chmod(0o644)
    os.umask(0o077)
    build_lexicon("en-enable2k", source=MINI_EN, store=folder)
    assert mode(folder / "en-enable2k.json") == 0o644
    assert mode(folder / "en-enable2k.marisa") == 0o664


def test_write_file_never_leaves_a_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the rename fails, the temp file is gone, the old content stays, and the error names the target."""
    target = tmp_path / "keep.txt"
    target.write_text("old\n", encoding="utf-8")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("boggle_i18n.storage.os.replace", boom)
    with pytest.raises(Exception, match=r"cannot write .*keep\.txt: No space left on device"):
        write_file(target, b"new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_dev_stdout_appends_to_a_shell_redirect(store: Path, tmp_path: Path) -> None:
    """`-o /dev/stdout >> log` appends to the log, as the shell's `>>` asked; the log is not replaced."""
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n", encoding="utf-8")
    inode = log.stat().st_ino
    args = ["solve", BOARD, "--lexicon", "en-enable2k", "--store", str(store), "--json", "-o", "/dev/stdout"]
    with log.open("a", encoding="utf-8") as handle:
        done = subprocess.run([sys.executable, "-m", "boggle_i18n", *args], stdout=handle, timeout=60, cwd=tmp_path)
    assert done.returncode == 0
    text = log.read_text(encoding="utf-8")
    assert text.startswith("earlier line\n{") and json.loads(text.split("\n", 1)[1])["score"] == 2
    assert log.stat().st_ino == inode


def test_regular_file_under_dev_shm_is_replaced_atomically(store: Path) -> None:
    """Only descriptor paths are special: a regular file in /dev/shm is replaced like any other."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK):
        pytest.skip("no writable /dev/shm")
    target = shm / f"boggle-i18n-test-{os.getpid()}.json"
    try:
        target.write_text("x" * 100000, encoding="utf-8")
        solve_to(store, target)
        assert json.loads(target.read_text(encoding="utf-8"))["score"] == 2
    finally:
        target.unlink(missing_ok=True)
