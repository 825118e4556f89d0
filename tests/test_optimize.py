"""The optimiser: moves keep boards legal, canonical forms, seeded runs, stops, workers, the CLI.

Searches here are short and small (3x3 boards, a few restarts); the real targets
(ENABLE2K 4x4 and 5x5, Dutch) are measured runs in docs/results.md, not tests.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boggle_i18n import Lexicon, get_dice
from boggle_i18n.board.board import Board
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.optimize import optimize
from boggle_i18n.optimize.canonical import canonical, symmetries
from boggle_i18n.optimize.moves import DiceSpace, FreeSpace
from boggle_i18n.optimize.problem import make_problem
from boggle_i18n.optimize.strategies import STRATEGIES
from boggle_i18n.scoring import get_scoring
from boggle_i18n.solver.base import Rules
from boggle_i18n.solver.reference import ReferenceSolver
from boggle_i18n.solver.scorer import prepare_scorer

WORDS = [
    "tea",
    "tee",
    "ten",
    "net",
    "nest",
    "rest",
    "tres",
    "star",
    "rats",
    "arts",
    "tars",
    "stare",
    "rates",
    "tears",
    "aster",
    "rant",
    "tarn",
    "earn",
    "near",
    "ears",
    "eats",
    "seat",
    "east",
    "teas",
    "sate",
    "ante",
    "antes",
    "neat",
    "nets",
    "tens",
    "sent",
    "rent",
    "tern",
    "terns",
    "stern",
    "rents",
    "inert",
    "inter",
    "niter",
    "tine",
    "tines",
    "site",
    "ties",
    "tier",
    "tiers",
    "rite",
    "rites",
    "tire",
    "tires",
    "resin",
    "rinse",
    "risen",
    "siren",
    "stain",
    "satin",
    "saint",
    "train",
    "trains",
    "strain",
    "retain",
    "retains",
    "retina",
    "retinas",
    "stainer",
]
RULES = Rules(min_length=3, scoring=get_scoring("classic-4x4"))
SMALL = Lexicon.from_words(WORDS, name="small")


def free_space(rows: int = 3, cols: int = 3) -> FreeSpace:
    scorer = prepare_scorer(SMALL, RULES, (rows, cols))
    space = FreeSpace(scorer.codec, rows, cols, sorted(set("".join(WORDS))))
    space.scorer = scorer  # type: ignore[attr-defined]
    return space


# --- moves ---------------------------------------------------------------------------------------


def test_free_moves_keep_boards_valid() -> None:
    space = free_space()
    rng = np.random.default_rng(1)
    for _ in range(20):
        state = space.random(rng)
        assert space.valid(state)
        neighbours = space.neighbours(state)
        # every single change and every swap of two different faces, each exactly one move away
        diffs = (neighbours != state).sum(axis=1)
        assert set(diffs.tolist()) <= {1, 2}
        assert all(space.valid(s) for s in neighbours)
        assert len({s.tobytes() for s in neighbours}) == len(neighbours)
        for moves in (1, 2, 3):
            assert all(space.valid(s) for s in space.perturb(state, rng, 50, moves))


@pytest.mark.parametrize("dice_id", ["en-new-4x4", "nl-4x4", "en-big-5x5-deluxe"])
def test_dice_moves_stay_rollable(dice_id: str) -> None:
    """Re-rolls and swaps never leave the set: every board can be rolled with those dice."""
    dice = get_dice(dice_id)
    scorer = prepare_scorer(SMALL, RULES, (dice.rows, dice.cols))
    space = DiceSpace(scorer.codec, dice)
    rng = np.random.default_rng(7)
    state = space.random(rng)
    for _ in range(3):
        assert space.valid(state) and dice.can_show(space.board(state))
        neighbours = space.neighbours(state)
        assert len(neighbours) > 0
        picked = neighbours[rng.choice(len(neighbours), 30)]
        for s in [*picked, *space.perturb(state, rng, 30, 3)]:
            assert space.valid(s), s
            assert dice.can_show(space.board(s))
        state = picked[0]


def test_rollable_rejects_an_impossible_board() -> None:
    dice = get_dice("nl-4x4")
    assert not dice.can_show(Board(4, 4, ("q",) * 16))  # one die has a q
    assert dice.can_show(dice.roll(__import__("random").Random(3)))


# --- canonical form ------------------------------------------------------------------------------


def _images(board: Board) -> list[Board]:
    return [Board(board.rows, board.cols, tuple(board.faces[i] for i in p)) for p in symmetries(board.rows, board.cols)]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda r: st.integers(1, 5).flatmap(
            lambda c: st.tuples(
                st.just(r), st.just(c), st.lists(st.sampled_from(["a", "b", "qu", ""]), min_size=r * c, max_size=r * c)
            )
        )
    )
)
def test_canonical_is_invariant_under_every_symmetry(shape_faces: tuple[int, int, list[str]]) -> None:
    rows, cols, faces = shape_faces
    board = Board(rows, cols, tuple(faces))
    want = canonical(board)
    assert want in _images(board)
    for image in _images(board):
        assert canonical(image) == want


def test_symmetry_counts() -> None:
    assert len(symmetries(4, 4)) == 8
    assert len(symmetries(3, 5)) == 4
    assert len(symmetries(1, 1)) == 1


def test_symmetries_keep_the_score(enable2k: Lexicon) -> None:
    board = Board(4, 4, tuple("perslatgsineters"))
    solver = ReferenceSolver()
    rules = RULES
    assert {solver.solve(b, enable2k, rules).score for b in _images(board)} == {3625}
    assert canonical(board).notation() == "pers/latg/sine/ters"


# --- searches ------------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_seeded_run_improves_on_random_boards(strategy: str) -> None:
    """A short run beats every one of 200 random boards of the same space."""
    space = free_space()
    rng = np.random.default_rng(0)
    scorer = space.scorer  # type: ignore[attr-defined]
    random_best = int(scorer.score_codes(np.stack([space.random(rng) for _ in range(200)]))[0].max())
    result = optimize(SMALL, RULES, (3, 3), strategy=strategy, seed=3, restarts=2, iterations=300, top=5, params=None)
    assert result.best[0].score > random_best
    assert result.stopped == "restarts"
    scores = [f.score for f in result.best]
    assert scores == sorted(scores, reverse=True)
    # reported scores are true scores, and boards are distinct up to symmetry
    solver = ReferenceSolver()
    for board, found in zip(result.boards(), result.best, strict=True):
        assert solver.solve(board, SMALL, RULES).score == found.score
        assert canonical(board) == board
    assert len(set(result.boards())) == len(result.boards())


def test_same_seed_same_boards_with_any_worker_count() -> None:
    runs = [optimize(SMALL, RULES, (3, 3), seed=11, restarts=4, iterations=20, workers=w) for w in (1, 1, 2, 3)]
    first = runs[0].to_dict()
    for run in runs[1:]:
        d = run.to_dict()
        assert d["best"] == first["best"]
        assert d["boards_evaluated"] == first["boards_evaluated"]
    other = optimize(SMALL, RULES, (3, 3), seed=12, restarts=4, iterations=20).to_dict()
    assert other["boards_evaluated"] != first["boards_evaluated"] or other["best"] != first["best"]


def test_dice_run_reports_rollable_boards(enable2k: Lexicon) -> None:
    result = optimize(enable2k, RULES, (4, 4), dice="en-new-4x4", seed=2, restarts=1, iterations=2, top=5)
    dice = get_dice("en-new-4x4")
    assert result.best and all(dice.can_show(b) for b in result.boards())
    assert result.settings["dice"] == "en-new-4x4"


def test_word_count_scoring_maximises_words() -> None:
    rules = Rules(min_length=3, scoring=get_scoring("word-count"))
    result = optimize(SMALL, rules, (3, 3), seed=1, restarts=2, iterations=50, top=3)
    solved = ReferenceSolver().solve(result.boards()[0], SMALL, rules)
    assert result.best[0].score == solved.n_words == result.best[0].n_words


def test_time_limit_stops_and_reports() -> None:
    started = time.monotonic()
    result = optimize(SMALL, RULES, (3, 3), seed=1, time_limit=0.5)
    assert time.monotonic() - started < 5
    assert result.stopped == "time-limit" and result.best and result.boards_evaluated > 0


def test_target_stops_early() -> None:
    full = optimize(SMALL, RULES, (3, 3), seed=5, restarts=3, iterations=50)
    goal = full.best[0].score
    hit = optimize(SMALL, RULES, (3, 3), seed=5, time_limit=30, target=goal)
    assert hit.stopped == "target" and hit.best[0].score >= goal


def test_a_stop_callback_ends_the_search_with_its_boards() -> None:
    """`stop` (the web page's stop button) ends a serial run like Ctrl-C; with workers it is refused."""
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > 5

    result = optimize(SMALL, RULES, (3, 3), seed=1, time_limit=60, stop=stop)
    assert result.stopped == "interrupted" and result.best and result.seconds < 30
    with pytest.raises(BoggleI18nError, match="serial runs only"):
        optimize(SMALL, RULES, (3, 3), seed=1, time_limit=1, workers=2, stop=stop)


def test_interrupt_keeps_the_best_so_far() -> None:
    """Ctrl-C (SIGINT) during a single-process run stops it and still reports boards."""
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = optimize(SMALL, RULES, (3, 3), seed=1, time_limit=20)
    finally:
        timer.cancel()
    assert result.stopped == "interrupted" and result.best and result.seconds < 10


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="needs fork")
def test_interrupts_with_workers_never_break_the_queue() -> None:
    """Many Ctrl-Cs at random moments of a two-worker run: each run stops, reports, and nothing raises.

    Ctrl-C used to raise KeyboardInterrupt wherever the parent was, once inside a
    queue read between a message's length and its body; the next read then waited
    forever (a hung CLI test). Now it only sets a flag that the loop checks.
    """
    before = signal.getsignal(signal.SIGINT)
    handlers = []
    optimize(SMALL, RULES, (3, 3), seed=9, restarts=4, iterations=20, workers=2,
             on_progress=lambda p: handlers.append(signal.getsignal(signal.SIGINT)))  # fmt: skip
    assert handlers and before not in handlers  # while workers run, Ctrl-C is a flag
    rng = np.random.default_rng(7)
    for attempt in range(6):
        timers: list[threading.Timer] = []

        def interrupt_soon(p: object, timers: list[threading.Timer] = timers, delay: float = rng.random()) -> None:
            if not timers:  # the first report: boards exist; Ctrl-C lands a random moment later
                timers.append(threading.Timer(0.3 * delay, lambda: os.kill(os.getpid(), signal.SIGINT)))
                timers[0].start()

        started = time.monotonic()
        try:
            result = optimize(SMALL, RULES, (3, 3), seed=attempt, time_limit=20, workers=2, on_progress=interrupt_soon)
        finally:
            for timer in timers:
                timer.cancel()
        assert result.stopped == "interrupted" and result.best, attempt
        assert time.monotonic() - started < 15
    assert signal.getsignal(signal.SIGINT) is before  # the handler is given back


def _dying_hill(search, rng, params):  # type: ignore[no-untyped-def]
    if os.getpid() != PARENT and rng.integers(0, 2**31) % 2 == 0:
        os._exit(3)
    from boggle_i18n.optimize.strategies import hill

    hill(search, rng, params)


PARENT = os.getpid()


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="needs fork")
def test_a_dying_worker_is_reported_not_waited_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from boggle_i18n.optimize import strategies

    monkeypatch.setitem(strategies.STRATEGY_FUNCTIONS, "hill", _dying_hill)
    started = time.monotonic()
    result = optimize(SMALL, RULES, (3, 3), seed=4, restarts=12, iterations=5, workers=2)
    assert time.monotonic() - started < 30
    assert any("died (exit code 3)" in e for e in result.errors), result.errors


def test_bad_settings_are_errors() -> None:
    with pytest.raises(BoggleI18nError, match="strategy"):
        optimize(SMALL, RULES, (3, 3), strategy="genetic", restarts=1)
    with pytest.raises(BoggleI18nError, match="never ends"):
        optimize(SMALL, RULES, (3, 3))
    with pytest.raises(BoggleI18nError, match="5x5"):
        optimize(SMALL, RULES, (4, 4), dice="en-big-5x5-deluxe", restarts=1)


def test_problem_travels_without_the_store() -> None:
    problem = make_problem(SMALL, RULES, (3, 3))
    assert problem.trie is not None
    lexicon = problem.load_lexicon()
    assert "retinas" in lexicon and "xyz" not in lexicon


# --- Dask cluster --------------------------------------------------------------------------------


@pytest.mark.parametrize("processes", [False, True])
def test_cluster_runs_the_same_restarts(processes: bool) -> None:
    """A real LocalCluster on this machine: the same seeded restarts give the same boards as one process."""
    distributed = pytest.importorskip("distributed")
    local = optimize(SMALL, RULES, (3, 3), seed=21, restarts=4, iterations=20)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None
    ) as cluster:
        remote = optimize(SMALL, RULES, (3, 3), seed=21, restarts=4, iterations=20, cluster=cluster.scheduler_address)
        assert remote.errors == []
        assert remote.to_dict()["best"] == local.to_dict()["best"]
        assert remote.boards_evaluated == local.boards_evaluated
        assert remote.cluster == cluster.scheduler_address
        timed = optimize(SMALL, RULES, (3, 3), seed=21, time_limit=1.5, cluster=cluster.scheduler_address)
        assert timed.stopped == "time-limit" and timed.best


def test_cluster_worker_killed_mid_run_is_not_waited_on() -> None:
    """SIGKILL one worker process of a real LocalCluster mid-run: Dask reruns its restart elsewhere, and the run
    still ends by its time limit with boards."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        victim = next(iter(cluster.workers.values())).process.process.pid
        killer = threading.Timer(1.5, lambda: os.kill(victim, signal.SIGKILL))
        killer.start()
        started = time.monotonic()
        try:
            result = optimize(SMALL, RULES, (4, 4), seed=1, time_limit=4, cluster=cluster.scheduler_address)
        finally:
            killer.cancel()
        assert time.monotonic() - started < 30
        assert result.best and result.stopped == "time-limit"


def test_cluster_address_that_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from boggle_i18n.optimize import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(BoggleI18nError, match="Dask scheduler"):
        optimize(SMALL, RULES, (3, 3), seed=1, restarts=1, cluster="tcp://127.0.0.1:9")


# --- CLI -----------------------------------------------------------------------------------------


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_i18n", *args], capture_output=True, text=True, timeout=timeout)


def test_cli_optimize_json(built_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    proc = _cli(
        "optimize",
        "--lexicon",
        "en-enable2k",
        "--store",
        str(built_store),
        "--size",
        "3x3",
        "--seed",
        "9",
        "--restarts",
        "2",
        "--iterations",
        "3",
        "--top",
        "3",
        "--json",
        "--output",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert {"best", "seed", "seconds", "boards_evaluated", "command"} <= set(data)
    assert data["seed"] == 9 and len(data["best"]) == 3 and (data["rows"], data["cols"]) == (3, 3)
    assert data["command"].startswith("boggle-i18n optimize --lexicon en-enable2k")
    assert {"board", "score", "n_words"} <= set(data["best"][0])
    assert "seed 9" in proc.stderr


def test_cli_ctrl_c_with_workers_still_reports(built_store: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "boggle_i18n",
            "optimize",
            "--lexicon",
            "en-enable2k",
            "--store",
            str(built_store),
            "--size",
            "3x3",
            "--seed",
            "1",
            "--time-limit",
            "60",
            "--workers",
            "2",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        assert proc.stderr is not None
        while time.monotonic() < deadline:  # wait until the search is under way
            line = proc.stderr.readline()
            if line.startswith("best"):
                break
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
    # The best so far is printed, then the exit says the run was cut short, as every command's Ctrl-C does.
    assert proc.returncode == 130, stderr
    assert stderr.splitlines()[-1] == "Error: interrupted"
    data = json.loads(stdout)
    assert data["stopped"] == "interrupted" and data["best"] and data["seconds"] < 50


def test_cli_bad_input(built_store: Path) -> None:
    proc = _cli("optimize", "--lexicon", "en-enable2k", "--store", str(built_store), "--strategy", "genetic")
    assert proc.returncode != 0 and proc.stderr.count("Error:") == 1 and "Traceback" not in proc.stderr
    proc = _cli("optimize", "--dice", "nl-4x4", "--size", "5x5", "--restarts", "1")
    assert proc.returncode != 0 and "Error:" in proc.stderr and "Traceback" not in proc.stderr


def test_results_page_from_result_files(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    for seed, (secs, stopped, score) in enumerate(
        [(30.0, "target", 99), (120.0, "time-limit", 90), (10.0, "target", 99)], 1
    ):
        run = optimize(SMALL, RULES, (3, 3), seed=seed, restarts=1, iterations=2, top=2).to_dict()
        run.update(seconds=secs, stopped=stopped, command=f"boggle-i18n optimize --seed {seed}")
        run["best"][0]["score"] = score
        run["settings"]["target"] = 99
        run["settings"]["time_limit"] = 120
        (folder / f"run{seed}.json").write_text(json.dumps(run))
    page = tmp_path / "results.md"
    proc = _cli("results", str(folder), "--output", str(page))
    assert proc.returncode == 0, proc.stderr
    text = page.read_text()
    assert (
        "Reached in 2 of 3 seeds; median time to the target 20 s over the seeds that reached it, 30 s over all 3"
        in text
    )
    assert "boggle-i18n optimize --seed 1" in text
    (folder / "bad.json").write_text("{}")
    proc = _cli("results", str(folder), "--output", str(page))
    assert proc.returncode == 1 and "bad.json" in proc.stderr and "Traceback" not in proc.stderr
    assert page.read_text() == text  # not clobbered


def test_free_faces_come_from_the_language_dice() -> None:
    from boggle_i18n.optimize.problem import free_faces

    english = free_faces("en", (4, 4), SMALL)
    assert "qu" in english and "q" not in english and len(english) == 26
    assert free_faces(None, (4, 4), SMALL) == tuple(sorted(set("".join(WORDS))))


def test_results_page_names_a_published_board_found_again(tmp_path: Path) -> None:
    from boggle_i18n.optimize.results import render_results

    run = optimize(SMALL, RULES, (3, 3), seed=1, restarts=1, iterations=2, top=1).to_dict()
    run.update(command="boggle-i18n optimize --seed 1", _file="a.json")
    board = run["best"][0]["board"]
    turned = "/".join("".join(row[::-1]) for row in board.split("/"))  # a mirror image of the found board
    known = [{"lexicon": "small", "size": "3x3", "dice": None, "board": turned, "score": 1, "source": "test"}]
    page = render_results([run], known)
    assert "the same board up to symmetry" in page
    known[0]["board"] = "zzzzzzzzz"
    assert "the same board up to symmetry" not in render_results([run], known)


def test_reference_engine_finds_the_same_boards() -> None:
    """The optimiser runs on any engine; the reference one gives the same seeded result as the fast one."""
    fast = optimize(SMALL, RULES, (2, 3), seed=8, restarts=1, iterations=3, top=3)
    slow = optimize(SMALL, RULES, (2, 3), seed=8, restarts=1, iterations=3, top=3, engine="reference")
    assert slow.to_dict()["best"] == fast.to_dict()["best"]


@pytest.mark.parametrize("command", ["optimize", "results"])
def test_command_help(command: str) -> None:
    from boggle_i18n.cli import app
    from boggle_i18n.cli.testing import CliRunner

    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0 and "Usage" in result.output


def test_free_faces_of_a_size_without_dice_are_the_preferred_sets() -> None:
    from boggle_i18n.language.records import get_language
    from boggle_i18n.optimize.problem import free_faces

    preferred = get_dice(get_language("en").dice[0]).faces - {""}
    assert set(free_faces("en", (3, 3), SMALL)) == preferred
