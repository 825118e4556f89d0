"""Stores and caches under sharing and races, on a real filesystem: links, read-only stores, concurrent builds.

Tests run as root in CI, where permission bits do not stop a write: a read-only
store is made with `chattr +i` (immutable: not even root may add a file), or
with plain permissions when not root.
"""

from __future__ import annotations

import multiprocessing
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.errors import LexiconError
from boggle_i18n.lexicon import build as build_module
from boggle_i18n.lexicon.store import scan_store
from boggle_i18n.solver import compiled

runner = CliRunner()
MINI_EN = FIXTURES / "mini-en.txt"
BOARDS = "perslatgsineters\nstreaedlp\n"


def _score(store: Path, *extra: str) -> tuple[int, str, str]:
    compiled._MEMO.clear()  # as a new process would: find the compiled trie on disk again
    result = runner.invoke(app, ["score", "--lexicon", "en-enable2k", "--store", str(store), *extra], input=BOARDS)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def mini_store(tmp_path: Path) -> Path:
    store = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=store)
    return store


def test_a_link_at_the_cache_path_is_never_written_through(mini_store: Path, tmp_path: Path) -> None:
    """`compiled/<sha>.bgc` as a symlink to a user's file: the file stays as it was, the link is replaced."""
    sha = Lexicon.load("en-enable2k", mini_store).manifest["trie_sha256"]
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    link = mini_store / "compiled" / f"{sha}.bgc"
    link.parent.mkdir()
    link.symlink_to(victim)
    code, _out, err = _score(mini_store)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not link.is_symlink() and link.stat().st_size > 0  # the cache took the link's place


def test_a_linked_cache_folder_is_not_written_into(mini_store: Path, tmp_path: Path) -> None:
    """`compiled/` as a symlink to another folder: nothing is written there, and scores are the same."""
    _, expected, _ = _score(mini_store)
    shutil.rmtree(mini_store / "compiled")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (mini_store / "compiled").symlink_to(elsewhere)
    code, out, err = _score(mini_store)
    assert (code, out) == (0, expected), err
    assert list(elsewhere.iterdir()) == []


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` cannot be written, even by root: immutable (chattr +i) as root, permission bits otherwise."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is not None and subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0:
        try:
            yield
        finally:
            subprocess.run([chattr, "-i", str(folder)], check=True)
        return
    # A filesystem without the immutable flag (tmpfs): a read-only bind mount of the folder on itself.
    bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True).returncode == 0
    if bound and subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], capture_output=True).returncode == 0:
        try:
            yield
        finally:
            subprocess.run(["umount", str(folder)], check=True)
        return
    if bound:
        subprocess.run(["umount", str(folder)], check=True)
    pytest.fail(f"cannot make {folder} read-only as root here (neither chattr +i nor a read-only bind mount)")


def test_a_read_only_store_is_read_as_it_is(mini_store: Path, tmp_path: Path) -> None:
    """No compiled cache and a store that cannot be written: same scores, no error, the cache goes per user."""
    reference = tmp_path / "writable"
    shutil.copytree(mini_store, reference)
    _, expected, _ = _score(reference)
    assert not (mini_store / "compiled").exists()
    with read_only(mini_store):
        assert not os.access(mini_store, os.W_OK) or os.geteuid() == 0
        started = time.perf_counter()
        code, out, err = _score(mini_store)
        took = time.perf_counter() - started
        assert (code, out) == (0, expected), err
        assert "Error" not in err and "cannot write" not in err
        assert not (mini_store / "compiled").exists()
    assert list((Path(os.environ["BOGGLE_I18N_CACHE"]) / "compiled").glob("*.bgc")), "compiled into the user cache"
    assert took < 30


def _slow_build(args: tuple[str, str, str]) -> None:
    """A build whose trie and manifest writes are far apart, so two builds interleave if nothing serialises them."""
    source, store, name = args
    real = build_module.atomic_write_bytes

    def slow(path: Path, data: bytes) -> None:
        real(path, data)
        time.sleep(0.05)

    build_module.atomic_write_bytes = slow  # type: ignore[assignment]
    build_lexicon("en", source=source, store=store, save_as=name)


@pytest.mark.parametrize("round_", range(int(os.environ.get("BOGGLE_I18N_RACE_ROUNDS", "8"))))
def test_concurrent_builds_of_one_name_leave_a_consistent_pair(tmp_path: Path, round_: int) -> None:
    """Two builds of `race` from different sources at once: the store holds one build's trie and manifest."""
    other = tmp_path / "other.txt"
    other.write_text("".join(f"{w}\n" for w in ("cat", "dog", "bird", "fish", "horse", "mouse")), encoding="utf-8")
    store = tmp_path / "store"
    jobs = [(str(MINI_EN), str(store), "race"), (str(other), str(store), "race")]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_slow_build, jobs if round_ % 2 else jobs[::-1])
    lexicon = Lexicon.load("race", store)  # raises if the pair came from two builds
    assert len(lexicon) in (6, len(Lexicon.load("race", store)))
    assert [e.problem for e in scan_store(store)] == [None]


def test_every_rebuild_hint_is_a_command_that_works(tmp_path: Path) -> None:
    """A damaged lexicon built with --as: the hint in the error rebuilds it (recipe, --as, --source, --store)."""
    store = tmp_path / "store"
    build_lexicon("en", source=MINI_EN, store=store, save_as="race")
    trie = store / "race.marisa"
    trie.write_bytes(trie.read_bytes()[:100])
    result = runner.invoke(app, ["solve", "perslatgsineters", "--lexicon", "race", "--store", str(store)])
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "rebuild with: boggle-i18n build-lexicon en --as race --source " in message, message
    hint = message.split("rebuild with: ", 1)[1]
    rebuilt = runner.invoke(app, shlex.split(hint)[1:])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert runner.invoke(app, ["solve", "perslatgsineters", "--lexicon", "race", "--store", str(store)]).exit_code == 0


def test_lexicons_and_solve_share_one_health_check(tmp_path: Path) -> None:
    """A truncated trie, or a manifest naming another sha256: `lexicons` lists it as broken, `solve` refuses it."""
    store = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=store)
    build_lexicon("en", source=MINI_EN, store=store, save_as="edited")
    (store / "en-enable2k.marisa").write_bytes((store / "en-enable2k.marisa").read_bytes()[:-10])
    manifest = (store / "edited.json").read_text(encoding="utf-8")
    sha = Lexicon.load("edited", store).manifest["trie_sha256"]
    (store / "edited.json").write_text(manifest.replace(sha, "0" * 64), encoding="utf-8")
    problems = {e.name: e.problem for e in scan_store(store)}
    assert problems["en-enable2k"] and "sha256" in problems["en-enable2k"]
    assert problems["edited"] and "sha256" in problems["edited"]
    listing = runner.invoke(app, ["lexicons", "--store", str(store)])
    assert listing.stdout.count("BROKEN") == 2, listing.stdout
    for name in ("en-enable2k", "edited"):
        with pytest.raises(LexiconError, match="sha256"):
            Lexicon.load(name, store)


def test_the_hint_for_an_unreadable_manifest_is_a_command_that_works(tmp_path: Path) -> None:
    """A `--as` lexicon whose manifest is unreadable cannot say how it was built: the hint removes it."""
    store = tmp_path / "store"
    build_lexicon("en", source=MINI_EN, store=store, save_as="mine")
    (store / "mine.json").write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["solve", "perslatgsineters", "--lexicon", "mine", "--store", str(store)])
    hint = result.stderr.strip().split("rebuild with: ", 1)[1].split(", then", 1)[0]
    assert hint.startswith("boggle-i18n remove-lexicon mine"), hint
    assert runner.invoke(app, shlex.split(hint)[1:]).exit_code == 0
    assert not (store / "mine.json").exists() and not (store / "mine.marisa").exists()


def _rebuild_many(args: tuple[str, str, int]) -> None:
    source, store, rounds = args
    other = Path(store).parent / "other.txt"
    for i in range(rounds):
        build_lexicon("en", source=source if i % 2 else str(other), store=store, save_as="busy")


def test_readers_never_see_a_half_rebuilt_pair(tmp_path: Path) -> None:
    """A lexicon rebuilt over and over while another process loads it: every load succeeds (trie first,
    manifest last, and a reader that meets a new trie with the old manifest reads the pair again)."""
    other = tmp_path / "other.txt"
    other.write_text("".join(f"{w}\n" for w in ("cat", "dog", "bird", "fish", "horse", "mouse")), encoding="utf-8")
    store = tmp_path / "store"
    build_lexicon("en", source=MINI_EN, store=store, save_as="busy")
    rounds = int(os.environ.get("BOGGLE_I18N_RACE_ROUNDS", "8")) * 2
    with multiprocessing.get_context("fork").Pool(1) as pool:
        writer = pool.map_async(_rebuild_many, [(str(MINI_EN), str(store), rounds)])
        loads = 0
        while not writer.ready() or loads == 0:
            Lexicon.load("busy", store)  # raises LexiconError if it met a mismatched pair
            loads += 1
        writer.get()
    assert loads > 0


def test_a_link_at_the_download_cache_path_is_removed_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A symlink planted where a download lands (pointing at a folder, where pooch's move would write into it) is
    removed before the download: the linked folder stays empty."""
    import pooch

    from boggle_i18n.pipeline import sources
    from boggle_i18n.pipeline.recipe import load_recipe

    recipe = load_recipe("en")
    victim = tmp_path / "victim"
    victim.mkdir()
    target = tmp_path / "cache" / "sources" / "enable1.txt"
    target.parent.mkdir(parents=True)
    target.symlink_to(victim)
    seen: list[bool] = []

    def fake_retrieve(url: str, known_hash: str, fname: str, path: Path, downloader: object) -> str:
        seen.append(target.is_symlink() or target.exists())
        (Path(path) / fname).write_text("cat\n", encoding="utf-8")
        return str(Path(path) / fname)

    monkeypatch.setattr(pooch, "retrieve", fake_retrieve)
    sources._download(recipe, target)
    assert seen == [False]
    assert list(victim.iterdir()) == []
    assert target.read_text(encoding="utf-8") == "cat\n" and not target.is_symlink()
