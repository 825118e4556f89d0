"""Issue 38, hardening round 4: the process, engine and web classes.

A face too long for the kernels' length byte (refused where boards enter, and never kept by a pooled scorer),
lone surrogates in JSON bodies, Host ports in other digits, workers that die with a SIGKILLed parent, the
checkpoint lock of `prove`, and the end of prove's threshold search under a process pool.
Everything runs on the 26-word mini-en fixture or tiny boards, so the file stays fast.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from boggle_i18n import Lexicon, build_lexicon, parse_board, solve
from boggle_i18n.board.board import Board
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoggleI18nError, LimitError
from boggle_i18n.limits import MAX_FACE_LETTERS
from boggle_i18n.solver.base import Rules
from boggle_i18n.solver.codec import FaceCodec

runner = CliRunner()
MINI_EN = FIXTURES / "mini-en.txt"
CLI = [sys.executable, "-m", "boggle_i18n"]


@pytest.fixture(scope="module")
def mini_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """en-enable2k built from the 26-word mini-en list (its words: cat, catalog, ... see the fixture)."""
    root = tmp_path_factory.mktemp("h38proc") / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=root)
    return root


@pytest.fixture(scope="module")
def mini(mini_store: Path) -> Lexicon:
    return Lexicon.load("en-enable2k", mini_store)


def _long(letters: int, rest: str = "bcd/efgh/ijkl/mnop") -> str:
    return f"[{'a' * letters}]{rest}"


# ---------------------------------------------------------------- 3. a face longer than a length byte


@pytest.mark.parametrize("letters", [256, 300, 4096])
def test_a_face_over_255_letters_is_one_error_in_solve_on_every_engine(mini_store: Path, letters: int) -> None:
    for engine in ("fast", "reference"):
        result = runner.invoke(
            app, ["solve", _long(letters), "--lexicon", "en-enable2k", "--store", str(mini_store), "--engine", engine]
        )
        assert result.exit_code == 2, (engine, result.stderr)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: face '[aaa"), lines
        assert f"has {letters:,} letters, more than the {MAX_FACE_LETTERS}" in lines[0]


def test_a_face_of_255_letters_still_solves(mini_store: Path) -> None:
    fast = runner.invoke(app, ["solve", _long(255), "--lexicon", "en-enable2k", "--store", str(mini_store), "--json"])
    ref = runner.invoke(
        app,
        [
            "solve",
            _long(255),
            "--lexicon",
            "en-enable2k",
            "--store",
            str(mini_store),
            "--json",
            "--engine",
            "reference",
        ],
    )
    assert fast.exit_code == ref.exit_code == 0, (fast.stderr, ref.stderr)
    assert json.loads(fast.stdout)["score"] == json.loads(ref.stdout)["score"]


def test_score_reports_the_long_face_line_and_scores_the_rest(mini_store: Path) -> None:
    board = "catsaloglmnopqrs"
    text = f"{_long(256)}\n{board}\n{_long(999, 'xyz/abcd/efgh/ijkl')}\n{board}\n"
    result = runner.invoke(app, ["score", "-", "--lexicon", "en-enable2k", "--store", str(mini_store)], input=text)
    assert result.exit_code == 1, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [r[1] for r in rows] == ["error", str(_score(mini_store, board)), "error", str(_score(mini_store, board))]
    assert "Traceback" not in result.stderr and "256 letters" in result.stderr and "999 letters" in result.stderr


def _score(store: Path, board: str) -> int:
    return solve(parse_board(board), Lexicon.load("en-enable2k", store)).score


def test_the_codec_refuses_a_long_face_before_keeping_it(mini: Lexicon) -> None:
    """The mechanism: the face codec keeps a face's length in a byte, so a longer face never enters it; the
    codec is unchanged and its arrays still build (before the fix it kept the face and failed for good)."""
    codec = FaceCodec(list("abc"), "abc")
    before = list(codec.faces)
    with pytest.raises(LimitError, match="256 letters"):
        codec.index("a" * 256)
    assert codec.faces == before
    _letters, lengths = codec.face_arrays()
    assert lengths.tolist() == [0, 1, 1, 1]
    assert codec.index("a" * 255) == 4 and codec.face_arrays()[1][4] == 255


def test_the_api_refuses_a_long_face_on_a_board_built_by_hand(mini: Lexicon) -> None:
    board = Board(2, 2, ("a" * 256, "c", "a", "t"))
    with pytest.raises(LimitError):
        solve(board, mini, engine="fast")
    assert solve(board, mini).score == solve(Board(2, 2, ("x", "c", "a", "t")), mini).score  # reference: no byte


def test_a_dice_file_with_a_face_over_255_letters_is_malformed() -> None:
    """Dice are the other way faces enter (random, compare, optimize --dice): refused when the file is read."""
    from boggle_i18n.board.dice import _load
    from boggle_i18n.errors import DiceError

    raw = {
        "id": "x",
        "name": "x",
        "language": "en",
        "size": [1, 2],
        "dice": [["a", "b" * 256], ["c"]],
        "min_word_length": 3,
        "scoring": "classic",
        "status": "test",
    }
    with pytest.raises(DiceError, match=r"malformed dice file x\.json: face 'bbb.*' has 256 letters"):
        _load("x.json", raw)
    raw["dice"] = [["a", "b" * 255], ["c"]]
    assert _load("x.json", raw).dice[0][1] == "b" * 255


def test_a_pooled_scorer_that_raised_is_not_kept(web: None, mini: Lexicon) -> None:
    """web/state.Scorers: a scorer whose solve raised is dropped, whatever raised, so no request can spoil the
    pool for the next."""
    from boggle_i18n.web.state import Scorers

    scorers = Scorers()
    rules = Rules()
    good = parse_board("catsaloglmnopqrs")
    expected = scorers.solve(mini, rules, good).score
    assert scorers.usage()[0] == 1
    bad = Board(4, 4, ("a" * 256, *good.faces[1:]))
    with pytest.raises(BoggleI18nError):
        scorers.solve(mini, rules, bad)
    assert scorers.usage()[0] == 0  # the scorer that met the bad board went away with it
    assert scorers.solve(mini, rules, good).score == expected


# ---------------------------------------------------------------- the web: 3, 5 and 6 over HTTP


@pytest.fixture
def web() -> None:
    """The web tests need the [web] extra (Starlette); the rest of this file does not."""
    pytest.importorskip("starlette", reason="the [web] extra is not installed")


@pytest.fixture(scope="module")
def client(mini_store: Path) -> Iterator[Any]:
    pytest.importorskip("starlette", reason="the [web] extra is not installed")
    from starlette.testclient import TestClient

    from boggle_i18n.web import create_app

    with TestClient(create_app(mini_store, None), base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c


def test_web_solve_refuses_a_long_face_and_then_solves_as_before(client: Any) -> None:
    good = {"board": "catsaloglmnopqrs", "lexicon": "en-enable2k"}
    first = client.get("/api/solve", params=good)
    assert first.status_code == 200
    for letters in (256, 400, 1000):  # 1,000 is past the web's own cap on a board's length: refused for that
        r = client.get("/api/solve", params={**good, "board": _long(letters)})
        assert r.status_code == 400, r.text
        if letters < 500:
            assert r.json()["code"] == "limit.range" and f"{letters:,} letters" in r.json()["error"]
    for _ in range(3):  # before the fix: 500 for every ordinary solve until the server restarted
        again = client.get("/api/solve", params=good)
        assert again.status_code == 200 and again.json()["score"] == first.json()["score"]


SURROGATES = ['"\\ud800"', '"a\\udfffb"', '["x", {"y": "\\udc00"}]', '{"\\ud83d": 1}']


@pytest.mark.parametrize("path", ["/api/compare", "/api/optimize", "/api/lexicons/en-enable2k/build"])
@pytest.mark.parametrize("value", SURROGATES)
def test_a_lone_surrogate_in_a_json_body_is_a_400_on_every_endpoint(client: Any, path: str, value: str) -> None:
    for key in ("lang", "board", "scoring", "nosuch"):
        body = f'{{"{key}": {value}}}'
        r = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, body, r.status_code, r.text)
        data = r.json()
        assert data["code"] == "request.invalid" and data["params"] == {"name": key}, data
        assert "surrogate" in data["error"] and "\n" not in data["error"]
    surrogate_key = client.post(
        path, content=b'{"\\ud800": "x"}', headers={"content-type": "application/json"}
    )  # the key itself is half a character: the body is named
    assert surrogate_key.status_code == 400 and surrogate_key.json()["params"] == {"name": "body"}


def test_a_whole_surrogate_pair_is_an_ordinary_character(client: Any) -> None:
    """`\\ud83d\\ude00` is one character (an emoji), not a lone half: it gets the endpoint's own answer."""
    r = client.post("/api/compare", content=b'{"lang": "\\ud83d\\ude00"}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and "surrogate" not in r.json()["error"], r.text


@pytest.mark.parametrize(
    "port",
    [
        "8\u00b9",
        "\u00b9",
        "\u00b2\u00b3",
        "\u0668\u0660",
        "\u06f8",
        "\uff18\uff10",
        "\u0968",
        "",
        "65536",
        "99999",
        "0",
        "123456",
        "+80",
        "-1",
        " 80",
        "8_0",
        "0x50",
    ],
)
def test_a_host_port_that_is_no_ascii_port_is_refused(web: None, port: str) -> None:
    from boggle_i18n.web.guard import Site, SiteGuard

    for site in (Site.serving("127.0.0.1", 8722), Site()):  # a server's own port, and any port (tests)
        guard = SiteGuard(lambda *a: None, site)  # type: ignore[arg-type, return-value]
        host = f"localhost:{port}"
        scope = {"type": "http", "headers": [(b"host", host.encode("utf-8"))], "path": "/api/solve", "method": "GET"}
        assert guard.refusal(scope) is not None and guard.refusal(scope)[0] == 421  # type: ignore[index]
        assert not site.accepts(host)


def test_ascii_ports_still_pass(web: None) -> None:
    from boggle_i18n.web.guard import Site

    assert Site.serving("127.0.0.1", 8722).accepts("localhost:8722")
    assert Site().accepts("127.0.0.1:1") and Site().accepts("127.0.0.1:65535") and Site().accepts("localhost")
    assert not Site.serving("127.0.0.1", 8722).accepts("localhost:8723")


def test_a_superscript_port_through_the_whole_app_is_a_421_not_a_500(web: None, mini_store: Path) -> None:
    """The raw header byte as a client sends it (latin-1 `¹` is 0xB9; the HTTP client library would re-encode a
    str), through the app's own ASGI stack with a server's port."""
    import asyncio

    from boggle_i18n.web import create_app
    from boggle_i18n.web.guard import Site

    web = create_app(mini_store, None, site=Site.serving("127.0.0.1", 8722))

    async def call(host: bytes) -> tuple[int, dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/api/languages",
            "raw_path": b"/api/languages",
            "query_string": b"",
            "headers": [(b"host", host)],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8722),
            "root_path": "",
        }

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await web(scope, receive, send)
        return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))

    for raw in (
        b"localhost:8\xb9",
        b"localhost:\xb2\xb3",
        "localhost:\u0668\u0660".encode(),
        b"localhost:",
        b"localhost:65536",
        b"localhost:872\xb2",
    ):
        status, body = asyncio.run(call(raw))
        assert status == 421 and "does not answer for host" in body["error"], (raw, status, body)


# ---------------------------------------------------------------- 4. workers die with a SIGKILLed parent


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, parent pid, process group, start time) of `pid` from /proc, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[19])


def _children(parent: int) -> dict[int, int]:
    """Live children of `parent`: pid -> start time (with the pid, what tells a process from a later one)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(int(entry))
            if info is not None and info[1] == parent and info[0] != "Z":
                found[int(entry)] = info[3]
    return found


def _alive(pid: int, started: int) -> bool:
    info = _stat(pid)
    return info is not None and info[3] == started and info[0] != "Z"


def _group(pgid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(int(entry))
            if info is not None and info[2] == pgid and info[0] != "Z":
                out.append(int(entry))
    return out


def _kill_parent_and_watch(argv: list[str], want: int, tmp_path: Path, stdin: Any = subprocess.DEVNULL) -> None:
    """Start `argv` in a session of its own, wait for `want` worker children, SIGKILL the parent alone (what the
    OOM killer does), and assert every child is gone within 5 s. Any survivor is ended here, by pid."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc (Linux)")
    err = tmp_path / "stderr.txt"
    with err.open("wb") as log:
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    children: dict[int, int] = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            children = _children(proc.pid)
            if len(children) >= want:
                break
            time.sleep(0.05)
        assert len(children) >= want, (children, proc.poll(), err.read_text())
        time.sleep(0.3)  # the workers are at work
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 5  # the threshold search's own time limit is 10 s: it must not be what ends them
        while time.monotonic() < deadline and any(_alive(p, s) for p, s in children.items()):
            time.sleep(0.05)
        survivors = [p for p, s in children.items() if _alive(p, s)]
        assert not survivors, f"workers outlived their parent: {survivors}"
        assert not _group(proc.pid), _group(proc.pid)  # nothing else of the command's process group either
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for pid, started in children.items():
            if _alive(pid, started):
                os.kill(pid, signal.SIGKILL)


def test_optimize_workers_die_with_a_sigkilled_parent(mini_store: Path, tmp_path: Path) -> None:
    argv = [*CLI, "optimize", "--lexicon", "en-enable2k", "--store", str(mini_store), "--size", "4x4"]
    _kill_parent_and_watch([*argv, "--workers", "2", "--time-limit", "120"], 2, tmp_path)


def test_prove_workers_die_with_a_sigkilled_parent(mini_store: Path, tmp_path: Path) -> None:
    argv = [*CLI, "prove", "--lexicon", "en-enable2k", "--store", str(mini_store), "--size", "4x4"]
    _kill_parent_and_watch([*argv, "--threshold", "100", "--workers", "2"], 2, tmp_path)


def test_prove_threshold_search_workers_die_with_a_sigkilled_parent(mini_store: Path, tmp_path: Path) -> None:
    """Without --threshold, prove first runs optimize on its workers for 10 s: killed in that phase."""
    argv = [*CLI, "prove", "--lexicon", "en-enable2k", "--store", str(mini_store), "--size", "4x4", "--workers", "2"]
    _kill_parent_and_watch(argv, 2, tmp_path)


def test_score_worker_processes_die_with_a_sigkilled_parent(mini_store: Path, tmp_path: Path) -> None:
    """`score --engine reference --workers 2` scores in a process pool (the reference engine holds the GIL)."""
    boards = tmp_path / "boards.txt"
    boards.write_text("catsaloglmnopqrs\n" * 400_000, encoding="utf-8")
    argv = [*CLI, "score", str(boards), "--lexicon", "en-enable2k", "--store", str(mini_store)]
    _kill_parent_and_watch([*argv, "--engine", "reference", "--workers", "2"], 2, tmp_path)


def test_the_watchdog_alone_ends_an_orphan(tmp_path: Path) -> None:
    """The portable fallback (no prctl): a forked child polling its parent ends within a second of the parent's
    SIGKILL. The parent here is a small Python process of our own, which forks the child and waits."""
    script = tmp_path / "family.py"
    script.write_text(
        "import os, sys, time\n"
        "from boggle_i18n.lifeline import die_with_parent\n"
        "parent = os.getpid()\n"
        "if os.fork() == 0:\n"
        "    die_with_parent(parent, kernel=False)\n"
        "    while True:\n"
        "        sum(range(10000))\n"
        "time.sleep(120)\n",
        encoding="utf-8",
    )
    _kill_parent_and_watch([sys.executable, str(script)], 1, tmp_path)


def test_a_worker_whose_parent_is_already_gone_ends_at_once() -> None:
    """The race the kernel signal cannot cover: the parent died between the fork and the arming."""
    code = "from boggle_i18n.lifeline import die_with_parent; die_with_parent(1); print('still here')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 1 and "still here" not in out.stdout


# ---------------------------------------------------------------- 11. one prove per checkpoint


def _prove_argv(store: Path, checkpoint: Path, *extra: str) -> list[str]:
    return [*CLI, "prove", "--lexicon", "en-enable2k", "--store", str(store), "--checkpoint", str(checkpoint), *extra]


@pytest.fixture
def running_proof(mini_store: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """A long proof (4x4 at threshold 100 on mini-en runs for over a minute) holding `proof.ckpt`, once it holds it."""
    checkpoint = tmp_path / "proof.ckpt"
    proc = subprocess.Popen(
        _prove_argv(mini_store, checkpoint, "--size", "4x4", "--threshold", "100"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    lock = tmp_path / "proof.ckpt.lock"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        lock.exists() and f"pid {proc.pid}," in lock.read_text() and checkpoint.exists()
    ):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    try:
        yield proc, checkpoint
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def _refused(argv: list[str], pid: int) -> str:
    started = time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30
    lines = out.stderr.splitlines()
    assert out.returncode == 1 and len(lines) == 1, out.stderr
    assert lines[0].startswith("Error: checkpoint ") and f"in use by another prove (pid {pid}," in lines[0], lines
    assert "prove" in lines[0].split("(pid", 1)[1]  # the holder's command
    return lines[0]


def test_a_second_prove_on_a_running_checkpoint_is_refused_naming_the_first(
    running_proof: tuple[subprocess.Popen[bytes], Path], mini_store: Path, tmp_path: Path
) -> None:
    proc, checkpoint = running_proof
    before = checkpoint.read_bytes()
    # --resume (before the fix: both appended), the same without --resume, and without --threshold: the threshold
    # search would come first, so the refusal must come before it
    _refused(_prove_argv(mini_store, checkpoint, "--size", "4x4", "--threshold", "100", "--resume"), proc.pid)
    _refused(_prove_argv(mini_store, checkpoint, "--size", "4x4", "--resume"), proc.pid)
    link = tmp_path / "another-name.ckpt"
    link.symlink_to(checkpoint)  # another name for the same checkpoint meets the same lock
    _refused(_prove_argv(mini_store, link, "--size", "4x4", "--resume"), proc.pid)
    assert proc.poll() is None  # the first run goes on, its file only grown by itself
    assert checkpoint.read_bytes()[: len(before)] == before
    lines = checkpoint.read_bytes().splitlines()[1:]
    tasks = [json.loads(line)["task"] for line in lines if line.endswith(b"}")]
    assert len(tasks) == len(set(tasks))


def test_the_library_refuses_a_held_checkpoint_too(
    running_proof: tuple[subprocess.Popen[bytes], Path], mini: Lexicon
) -> None:
    from boggle_i18n.language.selection import select
    from boggle_i18n.optimize.problem import free_faces
    from boggle_i18n.prove.prover import proof_spec, prove

    proc, checkpoint = running_proof
    chosen = select(lexicon="en-enable2k", size=(2, 2)).for_size((2, 2))
    faces = free_faces(chosen.language.code, (2, 2), mini)
    spec = proof_spec(mini, chosen.rules, (2, 2), faces, chosen.language.vowels, 1)
    with pytest.raises(BoggleI18nError, match=f"in use by another prove \\(pid {proc.pid},"):
        prove(spec, threshold_source="test", checkpoint=checkpoint, resume=True)


def test_a_fresh_prove_on_an_existing_checkpoint_says_so_before_the_threshold_search(
    mini_store: Path, tmp_path: Path
) -> None:
    existing = tmp_path / "old.ckpt"
    existing.write_text('{"format": "boggle-i18n-proof-checkpoint"}\n', encoding="utf-8")
    dangling = tmp_path / "dangling.ckpt"
    dangling.symlink_to(tmp_path / "nowhere")  # open("x") fails on it: before the fix, after the 10 s search
    for checkpoint in (existing, dangling):
        started = time.monotonic()
        out = subprocess.run(_prove_argv(mini_store, checkpoint, "--size", "3x3"), capture_output=True, text=True)
        assert time.monotonic() - started < 9, "the threshold search (10 s) ran first"
        assert out.returncode == 1 and "finding a threshold" not in out.stderr, out.stderr
        assert out.stderr.splitlines() == [
            f"Error: checkpoint {checkpoint} exists: add --resume to continue it, or remove it"
        ]
    assert not (tmp_path / "old.ckpt.lock").exists() and existing.read_text().count("\n") == 1


def test_a_checkpoint_in_a_missing_folder_is_said_before_any_work(mini_store: Path, tmp_path: Path) -> None:
    checkpoint = tmp_path / "no" / "such" / "proof.ckpt"
    started = time.monotonic()
    out = subprocess.run(_prove_argv(mini_store, checkpoint, "--size", "3x3"), capture_output=True, text=True)
    assert time.monotonic() - started < 9 and out.returncode == 1, out.stderr
    assert out.stderr.startswith(f"Error: cannot lock checkpoint {checkpoint}") and out.stderr.count("\n") == 1


def test_the_lock_is_released_after_a_run_and_after_a_sigkill(mini_store: Path, tmp_path: Path) -> None:
    checkpoint = tmp_path / "small.ckpt"
    argv = _prove_argv(mini_store, checkpoint, "--size", "2x2", "--threshold", "1")
    first = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert not (tmp_path / "small.ckpt.lock").exists()  # removed on release
    # a holder killed outright leaves its sidecar behind, but not its lock: the next run takes it
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; "
            "from boggle_i18n.prove.checkpoint import checkpoint_lock\n"
            f"with checkpoint_lock(Path({str(checkpoint)!r})):\n    print('held', flush=True); time.sleep(120)",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        refused = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 1 and f"pid {holder.pid}," in refused.stderr
        holder.kill()
        holder.wait(10)
        assert (tmp_path / "small.ckpt.lock").exists()
        again = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(10)
        if holder.stdout:
            holder.stdout.close()


def test_the_lock_is_reentrant_in_one_process_and_exclusive_across(tmp_path: Path) -> None:
    from boggle_i18n.prove.checkpoint import checkpoint_lock, lock_path

    checkpoint = tmp_path / "c.ckpt"
    with checkpoint_lock(checkpoint), checkpoint_lock(checkpoint):  # the command holds it, then `prove` again
        assert lock_path(checkpoint).exists()
        code = (
            "import sys; from pathlib import Path; from boggle_i18n.prove.checkpoint import checkpoint_lock\n"
            f"with checkpoint_lock(Path({str(checkpoint)!r})): pass"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and f"in use by another prove (pid {os.getpid()}," in out.stderr
    assert not lock_path(checkpoint).exists()


def test_a_lock_path_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    from boggle_i18n.prove.checkpoint import checkpoint_lock

    fifo = tmp_path / "f.ckpt"
    os.mkfifo(tmp_path / "f.ckpt.lock")
    with pytest.raises(BoggleI18nError, match="not a regular file"), checkpoint_lock(fifo):
        pass
    (tmp_path / "l.ckpt.lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(BoggleI18nError, match="cannot lock checkpoint"), checkpoint_lock(tmp_path / "l.ckpt"):
        pass
    assert not (tmp_path / "elsewhere").exists()


# ---------------------------------------------------------------- 10. the end of a proof's process pool


def _tiny_spec(mini: Lexicon, shape: tuple[int, int] = (2, 2), tasks: int = 12) -> Any:
    from boggle_i18n.language.selection import select
    from boggle_i18n.optimize.problem import free_faces
    from boggle_i18n.prove.prover import proof_spec

    chosen = select(lexicon="en-enable2k", size=shape).for_size(shape)
    faces = free_faces(chosen.language.code, shape, mini)
    return proof_spec(mini, chosen.rules, shape, faces, chosen.language.vowels, 1, tasks_wanted=tasks)


def _pool_threads_left() -> list[str]:
    import threading
    from concurrent.futures import process

    alive = [t.name for t in threading.enumerate() if isinstance(t, process._ExecutorManagerThread) and t.is_alive()]
    open_wakeups = [t.name for t, w in list(process._threads_wakeups.items()) if not w._closed]
    return alive + open_wakeups


def _record(into: dict[int, Any], result: Any) -> None:
    into[result.task] = result.boards


def test_the_process_pool_is_wound_up_before_run_processes_returns(mini: Lexicon) -> None:
    """The mechanism of the intermittent EBADF: a pool shut down without waiting left its manager thread closing
    its wake-up pipe while the command exited, and CPython 3.11's exit hook writes to that pipe without the
    pool's lock. Each time run_processes returns, no manager thread is left and every wake-up pipe is closed;
    30 pools in a row, so a slow wind-up cannot pass by luck."""
    from boggle_i18n.prove.executors import run_processes
    from boggle_i18n.prove.tasks import run_task

    spec = _tiny_spec(mini)
    serial = {t: run_task(spec, t).boards for t in range(spec.space.tasks)}
    for _ in range(30):
        got: dict[int, Any] = {}
        notes = run_processes(spec, list(range(spec.space.tasks)), 2, partial(_record, got))
        assert not notes and got == serial
        assert _pool_threads_left() == []


def test_prove_with_workers_then_exit_prints_nothing_but_its_result(mini_store: Path, tmp_path: Path) -> None:
    """The whole path as the command runs it, many times: a proof on a process pool, then the interpreter's exit
    right after (the race window), in 12 fresh processes, 3 at a time. stderr must hold no traceback."""
    script = tmp_path / "prove_and_exit.py"
    script.write_text(
        "import sys\n"
        "from boggle_i18n import Lexicon\n"
        "from boggle_i18n.language.selection import select\n"
        "from boggle_i18n.optimize.problem import free_faces\n"
        "from boggle_i18n.prove.prover import proof_spec, prove\n"
        "lexicon = Lexicon.load('en-enable2k', sys.argv[1])\n"
        "chosen = select(lexicon='en-enable2k', size=(2, 2), store=sys.argv[1]).for_size((2, 2))\n"
        "faces = free_faces(chosen.language.code, (2, 2), lexicon)\n"
        "spec = proof_spec(lexicon, chosen.rules, (2, 2), faces, chosen.language.vowels, 1, tasks_wanted=20)\n"
        "print(len(prove(spec, threshold_source='test', workers=2).boards))\n",
        encoding="utf-8",
    )
    results = []
    for _ in range(4):
        procs = [
            subprocess.Popen(
                [sys.executable, str(script), str(mini_store)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
            for _ in range(3)
        ]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            results.append((proc.returncode, out, err))
    counts = {out for _, out, _ in results}
    assert len(counts) == 1 and all(code == 0 and err == b"" for code, _, err in results), [
        (code, err.decode()[-300:]) for code, _, err in results if code or err
    ]
