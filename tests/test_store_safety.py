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
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import FIXTURES

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import LexiconError
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
    real = os.replace

    def slow(src: str, dst: str) -> None:
        real(src, dst)
        time.sleep(0.05)

    os.replace = slow  # type: ignore[assignment]  # this forked worker only
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


# --- Rebuilds that fail: the old pair stays loadable and scores the same -----------------------------------------

SMALL_EN = "".join(f"{w}\n" for w in ("cat", "dog", "rat", "tea", "eat", "ate", "sat", "set", "let", "lit"))


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _state(store: Path) -> tuple[int, str, list[str]]:
    """What a user sees of lexicon `small`: its word count, the scores, and the store's files (no temp left)."""
    compiled._MEMO.clear()
    lexicon = Lexicon.load("small", store)
    result = runner.invoke(app, ["score", "--lexicon", "small", "--store", str(store)], input=BOARDS)
    assert result.exit_code == 0, result.output
    return len(lexicon), result.stdout, sorted(p.name for p in store.iterdir() if p.name != "compiled")


@contextmanager
def small_tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of `size` at `folder` (root only; CI runs as root, so there it must work)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root; the fault-injection tests cover the rest)")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        message = f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield folder
    finally:
        import gc

        compiled._MEMO.clear()  # its compiled trie is mapped: unmap it before the unmount
        gc.collect()
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def test_a_rebuild_on_a_full_disk_keeps_the_old_lexicon(tmp_path: Path) -> None:
    """The issue's case on a real 320 KiB tmpfs: a small lexicon, rebuilt from ENABLE2K (440 KB of trie): one
    `Error:` line, and the old pair is still there, loadable and scoring the same."""
    from conftest import shared_file

    big = shared_file("lexicons", "en-enable2k.txt")
    small = tmp_path / "small.txt"
    small.write_text(SMALL_EN, encoding="utf-8")
    with small_tmpfs(tmp_path / "disk", "320k") as store:
        build_lexicon("en", source=small, store=store, save_as="small")
        before = _state(store)
        result = runner.invoke(
            app, ["build-lexicon", "en", "--as", "small", "--source", str(big), "--store", str(store)]
        )
        assert result.exit_code == 1
        assert result.stderr.startswith("Error: cannot write") and "No space left" in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert _state(store) == before


class _Fault:
    """os.replace / os.link / a temp file's write failing the way a full disk or a locked file fails."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
        import errno

        from boggle_i18n import storage

        self.kind = kind
        real_replace, real_link, real_fsync = os.replace, os.link, os.fsync
        fail = {"enospc": errno.ENOSPC, "eperm": errno.EPERM, "eio": errno.EIO}

        def replace(src: str, dst: str) -> None:
            if kind == "manifest-rename" and str(dst).endswith(".json"):
                raise PermissionError(fail["eperm"], "Operation not permitted", str(dst))
            if kind == "trie-rename" and str(dst).endswith(".marisa"):
                raise PermissionError(fail["eperm"], "Operation not permitted", str(dst))
            real_replace(src, dst)

        def link(src: str, dst: str) -> None:
            if kind == "link":
                raise OSError(fail["eperm"], "Operation not permitted")
            real_link(src, dst)

        def fsync(fd: int) -> None:
            if (
                kind == "manifest-write"
                and os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp")
                and ".json." in (os.readlink(f"/proc/self/fd/{fd}"))
            ):
                raise OSError(fail["enospc"], "No space left on device")
            if kind == "trie-write" and ".marisa." in os.readlink(f"/proc/self/fd/{fd}"):
                raise OSError(fail["eio"], "Input/output error")
            real_fsync(fd)

        monkeypatch.setattr(storage.os, "replace", replace)
        monkeypatch.setattr(storage.os, "link", link)
        monkeypatch.setattr(storage.os, "fsync", fsync)


@pytest.mark.parametrize("kind", ["manifest-write", "trie-write", "manifest-rename", "trie-rename", "link"])
def test_a_rebuild_that_fails_at_any_step_keeps_the_old_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Fault injection (runs everywhere): a full disk while writing either file, a refused rename of either
    (an immutable manifest: EPERM), no hard links: the old pair loads and scores the same, no temp file is left.
    Without hard links the old trie is copied aside, so that rebuild succeeds."""
    store = tmp_path / "store"
    small = tmp_path / "small.txt"
    small.write_text(SMALL_EN, encoding="utf-8")
    build_lexicon("en", source=small, store=store, save_as="small")
    before = _state(store)
    _Fault(monkeypatch, kind)
    result = runner.invoke(
        app, ["build-lexicon", "en", "--as", "small", "--source", str(MINI_EN), "--store", str(store)]
    )
    monkeypatch.undo()
    if kind == "link":
        assert result.exit_code == 0, result.output
        assert _state(store)[0] != before[0]  # the new words
        assert not any(p.name.endswith(".prev") for p in store.iterdir())
        return
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Error: cannot write "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert _state(store) == before


def test_a_build_killed_between_its_two_renames_is_read_from_the_backup(tmp_path: Path) -> None:
    """The new trie renamed in, the process killed before the manifest: the old trie, kept as `.NAME.marisa.prev`
    until the swap ends, is what readers load (the old manifest names its sha256)."""
    from boggle_i18n.storage import backup_path

    store = tmp_path / "store"
    small = tmp_path / "small.txt"
    small.write_text(SMALL_EN, encoding="utf-8")
    build_lexicon("en", source=small, store=store, save_as="small")
    before = _state(store)
    trie = store / "small.marisa"
    shutil.copy(trie, backup_path(trie))
    trie.unlink()
    trie.write_bytes(Lexicon.from_words(["zebra", "zoo"]).to_bytes())  # another build's trie
    count, scores, _files = _state(store)
    assert (count, scores) == before[:2]


# --- Damaged files: detected, never trusted, never a crash ---------------------------------------------------------


def _damage(path: Path, seed: int, count: int = 5, within: int | None = None) -> bytes:
    """Change `count` bytes of `path` at random offsets (in its first `within` bytes): the new content."""
    import random

    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for _ in range(count):
        at = rng.randrange(min(len(data), within or len(data)))
        data[at] ^= 1 + rng.randrange(255)
    path.write_bytes(bytes(data))
    return bytes(data)


@pytest.fixture(scope="module")
def enable2k_pair(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ENABLE2K built once for this module (the real trie, 440 KB): damaged copies are made from it."""
    from conftest import shared_file

    store = tmp_path_factory.mktemp("enable2k-pair")
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=store)
    return store


@pytest.mark.parametrize("seed", range(8))
def test_a_trie_damaged_before_its_sha256_was_recorded_is_refused(
    enable2k_pair: Path, tmp_path: Path, seed: int
) -> None:
    """Five bytes changed at random offsets, the manifest's sha256 made to match (a bad writer, a store copied from
    elsewhere): `score`, `solve` and `lexicons` in fresh processes give the right answer or one `Error:` line, never
    a crash (they segfaulted) and never a wrong score (3603 instead of 3625)."""
    import hashlib
    import json

    store = tmp_path / "store"
    store.mkdir()
    for name in ("en-enable2k.marisa", "en-enable2k.json"):
        shutil.copy(enable2k_pair / name, store / name)
    data = _damage(store / "en-enable2k.marisa", seed)
    manifest = json.loads((store / "en-enable2k.json").read_text(encoding="utf-8"))
    manifest["trie_sha256"] = hashlib.sha256(data).hexdigest()
    if seed % 2:
        del manifest["keys_sha256"]  # a manifest from before keys_sha256: the word count and the structure check
    (store / "en-enable2k.json").write_text(json.dumps(manifest), encoding="utf-8")
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    cli = [sys.executable, "-m", "boggle_i18n"]
    runs = {
        "score": subprocess.run(
            [*cli, "score", "--lexicon", "en-enable2k"],
            input=b"perslatgsineters\n",
            env=env,
            capture_output=True,
            timeout=120,
        ),
        "solve": subprocess.run(
            [*cli, "solve", "perslatgsineters", "--lexicon", "en-enable2k", "--json"],
            env=env,
            capture_output=True,
            timeout=120,
        ),
        "lexicons": subprocess.run([*cli, "lexicons"], env=env, capture_output=True, timeout=120),
    }
    for command, run in runs.items():
        assert run.returncode >= 0, f"{command} was killed by signal {-run.returncode}"
        assert b"Traceback" not in run.stderr, (command, run.stderr[-300:])
    for command in ("score", "solve"):
        run = runs[command]
        if run.returncode == 0:  # a change MARISA never reads (padding) may leave the words as they were
            assert b"3625" in run.stdout, (command, run.stdout)
        else:
            lines = run.stderr.decode().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: trie file") and "corrupt" in lines[0], lines
    assert runs["lexicons"].returncode == 0
    assert b"BROKEN" in runs["lexicons"].stdout or runs["score"].returncode == 0


def test_a_verified_trie_is_checked_once(enable2k_pair: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build records its own trie as verified: loading it starts no check process; a copy seen for the first
    time by another user (an empty cache) is checked once, then remembered."""
    from boggle_i18n.lexicon import trust

    calls: list[int] = []
    real = trust._check_in_child

    def counted(data: bytes) -> tuple[object, object]:
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(trust, "_check_in_child", counted)
    trust._VERIFIED.clear()
    Lexicon.load("en-enable2k", enable2k_pair)  # built in this session: the cache folder may be another test's
    monkeypatch.setenv("BOGGLE_I18N_CACHE", str(enable2k_pair.parent / "fresh-cache"))
    trust._VERIFIED.clear()
    calls.clear()
    Lexicon.load("en-enable2k", enable2k_pair)
    Lexicon.load("en-enable2k", enable2k_pair)
    trust._VERIFIED.clear()
    Lexicon.load("en-enable2k", enable2k_pair)  # a new process: the record in the cache folder
    assert len(calls) == 1


@pytest.mark.parametrize("seed", range(6))
def test_a_damaged_compiled_cache_is_recompiled_never_scored(enable2k_pair: Path, tmp_path: Path, seed: int) -> None:
    """Five changed bytes in a `compiled/*.bgc` (in its first 4 KiB for even seeds, anywhere for odd ones): the
    fast engine still scores perslatgsineters 3625 (it scored 3602), and the cache is rewritten whole."""
    store = tmp_path / "store"
    shutil.copytree(enable2k_pair, store)
    code, out, err = _score(store)
    assert code == 0 and out.startswith("perslatgsineters\t3625\t"), err
    cache = next((store / "compiled").glob("*.bgc"))
    good = cache.read_bytes()
    assert _damage(cache, seed, within=4096 if seed % 2 == 0 else None) != good
    assert _score(store)[:2] == (0, out)
    assert cache.read_bytes() == good


def test_a_compiled_cache_that_cannot_be_written_still_scores(
    mini_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while the compiled trie is cached (store and user cache alike): the same scores, from memory,
    and no temp file left behind."""
    import errno

    from boggle_i18n import storage

    reference = tmp_path / "reference"
    shutil.copytree(mini_store, reference)
    _, expected, _ = _score(reference)
    real = os.fsync

    def full(fd: int) -> None:
        if ".bgc." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(storage.os, "fsync", full)
    code, out, err = _score(mini_store)
    assert (code, out) == (0, expected), err
    leftovers = [p for p in mini_store.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == [] and not list((mini_store / "compiled").glob("*.bgc"))


def test_streamed_keys_digest_equals_the_sorted_join() -> None:
    """A build hashes its words prefix by prefix (never a list of every word) into the same `keys_sha256` the
    definition gives (sorted words joined by newlines), also when prefixes hold more than a batch, a word is a
    prefix of others, letters lie outside ASCII, and when `chars` misses a letter (the plain way is taken)."""
    import marisa_trie

    from boggle_i18n.lexicon import trust

    words = ["a", "ab", "abc", "abd", "b", "ba", "bb", "bc", "c", "ç", "éa", "éb", "éc", "éd", "ijs", "ij", "z"]
    trie = marisa_trie.Trie(words)
    expected = trust.keys_digest(words)
    for batch in (1, 2, 3, 100):
        trust_batch = trust.BATCH
        trust.BATCH = batch
        try:
            assert trust.trie_keys_digest(trie) == expected
            assert trust.trie_keys_digest(trie, set("".join(words))) == expected
            assert trust.trie_keys_digest(trie, set("abc")) == expected
        finally:
            trust.BATCH = trust_batch
