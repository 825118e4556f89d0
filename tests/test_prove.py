"""The prover: its bound, branching, classes, checkpoints and executors, against exhaustive enumeration.

A proof is only as good as its bound, so the bound is checked against every
board of random classes, the branching against planted boards, the class
enumeration against symmetry by brute force, and whole proofs of small boards
against scoring every board there is.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boggle_i18n.board import Board
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.lexicon.store import Lexicon
from boggle_i18n.optimize.canonical import canonical_faces, symmetries
from boggle_i18n.prove.checkpoint import read_checkpoint
from boggle_i18n.prove.classes import Scheme, class_space, make_partition, open_cells, split_order
from boggle_i18n.prove.engine import ClassProver
from boggle_i18n.prove.prover import ProofProgress, estimate, proof_spec, prove
from boggle_i18n.prove.tasks import ProofSpec
from boggle_i18n.scoring import Scoring, get_scoring
from boggle_i18n.solver import Rules
from boggle_i18n.solver.scorer import prepare_scorer
from tests.test_solver import SMALL, brute_force

CLASSIC = get_scoring("classic-4x4")
FACES_2X2 = ("a", "c", "e", "qu", "s", "t", "th")
FACES_2X3 = ("a", "e", "r", "s", "t")


def all_boards(shape: tuple[int, int], faces: tuple[str, ...]) -> list[Board]:
    rows, cols = shape
    return [Board(rows, cols, combo) for combo in itertools.product(faces, repeat=rows * cols)]


def best_by_enumeration(
    lexicon: Lexicon, rules: Rules, shape: tuple[int, int], faces: tuple[str, ...], brute: bool
) -> tuple[int, set[str]]:
    """The best score over every board, and the canonical boards that reach it (scored by the independent
    brute force of test_solver, or by the reference engine where the brute force is too slow)."""
    boards = all_boards(shape, faces)
    if brute:
        words = set(lexicon.keys())
        scores = []
        for board in boards:
            found = brute_force(board, words, rules.min_length, rules.diagonals)
            scores.append(sum(rules.scoring.points(len(w)) for w in found))
    else:
        scores = [int(s) for s in prepare_scorer(lexicon, rules, shape, "reference").score_boards(boards)[0]]
    best = max(scores)
    tops = {
        Board(*shape, canonical_faces(b.faces, *shape)).notation()
        for b, s in zip(boards, scores, strict=True)
        if s == best
    }
    return best, tops


@pytest.mark.parametrize(
    ("shape", "faces", "min_length", "diagonals", "buckets", "brute"),
    [
        ((2, 2), FACES_2X2, 3, True, 2, True),
        ((2, 2), FACES_2X2, 2, False, 3, True),
        ((2, 3), FACES_2X3, 3, True, 2, False),
        ((2, 3), FACES_2X3, 1, False, 1, False),
        ((2, 3), FACES_2X3, 3, True, Scheme.parse("1/3/1"), False),  # per-cell: open corners, 3 on the edges
        ((2, 3), FACES_2X3, 2, True, Scheme.parse("2/3/1"), False),
    ],
)
def test_proof_equals_exhaustive_enumeration(
    shape: tuple[int, int],
    faces: tuple[str, ...],
    min_length: int,
    diagonals: bool,
    buckets: int | Scheme,
    brute: bool,
) -> None:
    """With the threshold at the true best, the proof finds exactly the best boards (up to symmetry), with one
    bucket count on every cell or a count per kind of cell."""
    rules = Rules(min_length=min_length, scoring=CLASSIC, diagonals=diagonals)
    best, tops = best_by_enumeration(SMALL, rules, shape, faces, brute)
    assert best > 0
    spec = proof_spec(SMALL, rules, shape, faces, "aeiou", best, buckets=buckets, tasks_wanted=7)
    result = prove(spec, threshold_source="test")
    assert result.complete
    assert {b for b, s, _ in result.boards} == tops
    assert {s for _, s, _ in result.boards} == {best}
    # One point higher, nothing is left: no board beats the best.
    higher = prove(proof_spec(SMALL, rules, shape, faces, "aeiou", best + 1, buckets=buckets), threshold_source="t")
    assert higher.complete and higher.boards == []


def random_class_sets(rng: random.Random, prover: ClassProver, cells: int, per_cell: int) -> np.ndarray:
    codes = sorted({int(c) for mask in prover.masks.ravel() for c in range(64) if int(mask) >> c & 1})
    return np.array([sum(1 << c for c in rng.sample(codes, per_cell)) for _ in range(cells)], dtype=np.uint64)


def boards_of(prover: ClassProver, sets: np.ndarray) -> np.ndarray:
    options = [[c for c in range(64) if int(mask) >> c & 1] for mask in sets]
    return np.array(list(itertools.product(*options)), dtype=np.int32)


@pytest.mark.shared
def test_bound_covers_every_board_of_random_3x3_classes(enable2k: Lexicon) -> None:
    """For random classes (2-3 faces a cell), the root bound is at least the true score of every board in the
    class, and the branching keeps every board that reaches a threshold set just at the class's best, or low."""
    rules = Rules(min_length=3, scoring=CLASSIC)
    faces = (*"abcdefghijklmnoprstuvwxyz", "qu")
    spec = proof_spec(enable2k, rules, (3, 3), faces, "aeiouy", 0)
    prover = ClassProver(enable2k, rules, (3, 3), spec.partition, spec.space)
    rng = random.Random(7)
    checked = 0
    for trial in range(12):
        sets = random_class_sets(rng, prover, 9, 2 if trial % 2 else 3)
        boards = boards_of(prover, sets)
        scores, _ = prover.scorer.score_codes(boards)
        best = int(scores.max())
        candidates, (root, *_rest) = prover.search_sets(sets, best)
        assert root >= best
        kept = {tuple(row) for row in candidates}
        for row in np.flatnonzero(scores >= best):
            assert tuple(boards[row]) in kept  # no board at the threshold is lost
        # A low threshold keeps the bound above twice it, so the search merges three cells before it branches
        # incrementally: still no board at or above it is lost.
        low = max(1, int(np.percentile(scores, 80)) // 2)
        candidates, _ = prover.search_sets(sets, low)
        kept = {tuple(row) for row in candidates}
        assert all(tuple(boards[row]) in kept for row in np.flatnonzero(scores >= low))
        checked += len(boards)
    assert checked > 10_000


@pytest.mark.shared
@pytest.mark.parametrize("shape", [(3, 4), (4, 4), (4, 5)])
def test_bound_covers_every_board_of_sorted_and_walked_builds(enable2k: Lexicon, shape: tuple[int, int]) -> None:
    """Boards of up to 18 cells build their tree from sorted word-paths, larger ones path by path as the walk
    finds them (_bound.c); from 16 cells on each class orders its cells by their faces: on all, for classes
    with a few open cells among single faces, the bound covers every board of the class and the branching
    loses none at the class's best."""
    rules = Rules(min_length=3, scoring=CLASSIC)
    faces = (*"abcdefghijklmnoprstuvwxyz", "qu")
    cells = shape[0] * shape[1]
    spec = proof_spec(enable2k, rules, shape, faces, "aeiouy", 0, buckets=4)
    prover = ClassProver(enable2k, rules, shape, spec.partition, spec.space)
    rng = random.Random(11)
    base = [1 << prover.scorer.codec.index(f) for f in "serateslinedpstaoren"[:cells]]
    for _ in range(3):
        sets = np.array(base, dtype=np.uint64)
        for cell in rng.sample(range(cells), 4):
            sets[cell] = random_class_sets(rng, prover, 1, 3)[0]
        boards = boards_of(prover, sets)
        scores, _ = prover.scorer.score_codes(boards)
        best = int(scores.max())
        candidates, (root, *_rest) = prover.search_sets(sets, best)
        assert root >= best
        kept = {tuple(row) for row in candidates}
        assert all(tuple(boards[row]) in kept for row in np.flatnonzero(scores >= best))


def test_bound_with_a_choice_wider_than_32_faces() -> None:
    """A choice keeps only the children it has and moves to twice the room when full: two cells of 40 faces,
    each face ending a word, grow one choice past 2, 4, 8, 16 and 32 children. The bound still covers every
    board of the class (all 1,600, scored by the fast engine) and the branching loses none at the threshold."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    faces = (*letters, *(f"z{c}" for c in letters[:14]))
    words = {f + "st" for f in faces} | {f + "ts" for f in faces[::3]} | {"st" + f for f in faces[::2]}
    words |= {f + g + "s" for f, g in zip(faces, reversed(faces), strict=True)}
    lexicon = Lexicon.from_words(sorted(words), name="wide")
    rules = Rules(min_length=3, scoring=CLASSIC)
    spec = proof_spec(lexicon, rules, (2, 2), faces, "aeiou", 0, buckets=2)
    prover = ClassProver(lexicon, rules, (2, 2), spec.partition, spec.space)
    wide = sum(1 << prover.scorer.codec.index(f) for f in faces)
    sets = np.array([wide, wide, 1 << prover.scorer.codec.index("s"), 1 << prover.scorer.codec.index("t")], np.uint64)
    boards = boards_of(prover, sets)
    assert len(boards) == 1600
    scores, _ = prover.scorer.score_codes(boards)
    for threshold in (int(scores.max()), int(np.percentile(scores, 90)), 1):
        candidates, (root, *_rest) = prover.search_sets(sets, threshold)
        assert root >= int(scores.max())
        kept = {tuple(row) for row in candidates}
        assert all(tuple(boards[row]) in kept for row in np.flatnonzero(scores >= threshold))


def class_holding(spec: ProofSpec, board: str) -> int:
    """The canonical class that holds some image of `board` under the board's symmetries."""
    bucket_of = {f: i for i, b in enumerate(spec.partition.buckets) for f in b}
    for perm in symmetries(spec.problem.rows, spec.problem.cols):
        image = [board[i] for i in perm]
        digits = [bucket_of[image[c]] for c in spec.space.bucketed]
        number = sum(d * spec.partition.k ** (len(digits) - 1 - i) for i, d in enumerate(digits))
        if spec.space.canonical_mask(np.array([number]))[0]:
            return number
    raise AssertionError("no image of the board is in a canonical class")


@pytest.mark.shared
@pytest.mark.parametrize("scale", [1, 90_000])
def test_planted_best_3x3_is_found(enable2k: Lexicon, scale: int) -> None:
    """The class holding the published best 3x3 board (streaedlp, 545) gives it back at threshold 545, and
    nothing at 546. With every point worth 90,000 (a legal table) the class's words pass what the everyday
    int32 build holds: it says so, and the search runs again in the int64 build with the same answer, scaled."""
    scoring = Scoring("scaled", tuple((n, p * scale) for n, p in CLASSIC.table))
    rules = Rules(min_length=3, scoring=scoring)
    faces = (*"abcdefghijklmnoprstuvwxyz", "qu")
    best = 545 * scale
    spec = proof_spec(enable2k, rules, (3, 3), faces, "aeiouy", best)
    prover = ClassProver(enable2k, rules, (3, 3), spec.partition, spec.space)
    number = class_holding(spec, "streaedlp")
    narrow = prover._bound.search_class(prover.sets_of(number), *prover._tables[:6], 3, prover.order, best, prover._out)
    assert (narrow[0] == -2) == (scale > 1)  # -2: past int32
    outcome = prover.search(number, best)
    assert [(s, n) for _, s, n in outcome.boards] == [(best, 267)]
    assert outcome.boards[0][0] == Board(3, 3, canonical_faces(tuple("streaedlp"), 3, 3)).notation()
    assert prover.search(number, best + 1).boards == []


@pytest.mark.parametrize(("rows", "cols", "k", "open_count"), [(2, 2, 3, 0), (3, 3, 2, 0), (3, 3, 3, 4), (2, 3, 3, 0)])
def test_canonical_classes_cover_every_class_once(rows: int, cols: int, k: int, open_count: int) -> None:
    """Every class has exactly one canonical image under the board's symmetries, and the canonical ones are
    exactly those the class space lists."""
    order = split_order(rows, cols, [[0]] * (rows * cols))
    space = class_space(rows, cols, k, open_cells(rows, cols, order, open_count), tasks_wanted=5)
    listed = {int(n) for t in range(space.tasks) for n in space.task_classes(t)}
    digits = space.digits(np.arange(space.total))
    cells = list(space.bucketed)
    orbit_min = set()
    for row in digits:
        images = [tuple(row[list(p)][cells]) for p in symmetries(rows, cols)]
        orbit_min.add(int("".join(map(str, min(images))), k) if k > 1 else 0)
    assert listed == orbit_min


@pytest.mark.parametrize(
    ("rows", "cols", "scheme"), [(3, 3, "2/3/1"), (3, 3, "1/3/2"), (2, 3, "3/2/2"), (3, 4, "2/2/3"), (4, 4, "1/2/3")]
)
def test_per_cell_schemes_count_and_list_canonical_classes_exactly(rows: int, cols: int, scheme: str) -> None:
    """With bucket counts per kind of cell (mixed radix), the listed classes are exactly the smallest images of
    every class, Burnside's count is exact in total and by vowel cells (what the estimate stratifies on), and
    a class drawn with v vowel cells has them."""
    space = class_space(rows, cols, Scheme.parse(scheme).radix(rows, cols), tasks_wanted=7)
    listed = sorted(int(n) for t in range(space.tasks) for n in space.task_classes(t))
    digits = space.digits(np.arange(space.total))
    orbit_min = {min(space.number_of(row[list(p)]) for p in symmetries(rows, cols)) for row in digits}
    assert listed == sorted(orbit_min)
    assert space.canonical_count() == len(listed)
    bucketed = np.array(space.radix) > 1
    vowels = ((space.digits(np.array(listed)) == 0) & bucketed).sum(axis=1)
    assert np.bincount(vowels, minlength=len(space.bucketed) + 1).tolist() == space.canonical_by_vowels()
    every = ((digits == 0) & bucketed).sum(axis=1)
    assert np.bincount(every, minlength=len(space.bucketed) + 1).tolist() == space.all_by_vowels()
    rng = np.random.default_rng(3)
    for v in range(len(space.bucketed) + 1):
        drawn = space.digits(np.array([space.random_with_vowels(v, rng) for _ in range(5)]))
        assert (((drawn == 0) & bucketed).sum(axis=1) == v).all()
    # (2**4 * 3**12 + 2 * 2*3**3 + 2**2*3**6 + 2 * 2**2*3**6 + 2 * 2**3*3**7) / 8: identity, quarter turns,
    # half turn, the two mirrors through edges, the two diagonal mirrors (the paper's "about 1.06 million")
    assert class_space(4, 4, Scheme.parse("2/3/3").radix(4, 4)).canonical_count() == 1_068_363
    with pytest.raises(BoggleI18nError, match="C/E/I"):
        Scheme.parse("2/3")


def test_canonical_count_and_progress_by_classes() -> None:
    """The canonical classes are counted (by Burnside's lemma) as many as the tasks list, on square and
    oblong boards, with and without open cells, and the time left is projected per class: per task it would
    be far off where tasks hold different numbers of canonical classes. Wall time is said in hours, CPU
    time in CPU-hours."""
    from boggle_i18n.cli.prove_cmd import _duration

    shapes = [(3, 4, 3, 4), (3, 4, 2, 0), (3, 3, 3, 4), (3, 3, 2, 1), (1, 5, 3, 0), (2, 2, 4, 0)]
    for rows, cols, k, open_count in shapes:
        order = split_order(rows, cols, [[0]] * (rows * cols))
        space = class_space(rows, cols, k, open_cells(rows, cols, order, open_count), tasks_wanted=50)
        per_task = [len(space.task_classes(t)) for t in range(space.tasks)]
        assert space.canonical_count() == sum(per_task), (rows, cols, k, open_count)
        if (rows, cols, k) == (3, 4, 3):
            assert max(per_task) > 2 * min(per_task)  # uneven tasks: the case the per-class rate is for
    assert class_space(4, 4, 4).canonical_count() == 537_157_696  # (4**16 + 2*4**4 + 3*4**8 + 2*4**10) / 8

    # 10 of 100 tasks ran in 30 s and held 60 of 120 classes: 30 s left by classes, 270 s by tasks.
    progress = ProofProgress(10, 100, 60, 50.0, 30.0, -1, classes_total=120)
    assert progress.eta_seconds == pytest.approx(30.0)
    assert ProofProgress(10, 100, 60, 50.0, 30.0, -1).eta_seconds == pytest.approx(270.0)
    # Resumed work is not this run's rate: 40 classes came from the checkpoint, 20 ran in 30 s.
    resumed = ProofProgress(10, 100, 60, 50.0, 30.0, -1, resumed=4, classes_total=120, resumed_classes=40)
    assert resumed.eta_seconds == pytest.approx(90.0)
    assert ProofProgress(4, 100, 40, 0.0, 0.0, -1, resumed=4, classes_total=120, resumed_classes=40).eta_seconds is None
    assert _duration(5 * 3600) == "5.0 hours" and _duration(5 * 3600, cpu=True) == "5.0 CPU-hours"


def test_progress_log_lines_by_tenth_of_classes_or_time(capsys: pytest.CaptureFixture[str]) -> None:
    """Off a terminal, progress is a line per tenth of the classes (not of the tasks, which hold very
    different numbers of classes) or after five quiet minutes."""
    from boggle_i18n.cli.prove_cmd import _Display

    now = [0.0]
    display = _Display(clock=lambda: now[0])
    display.tty = False
    for tasks_done, classes_done, clock in [(1, 5, 10), (50, 9, 20), (51, 10, 30), (52, 11, 200), (53, 12, 331)]:
        now[0] = clock
        display.update(ProofProgress(tasks_done, 100, classes_done, 1.0, clock, -1, classes_total=100))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("  ")[1] for line in lines] == ["classes 10/100", "classes 12/100"]


def test_partition_and_open_cells() -> None:
    """Vowels get a bucket of their own, every face lands in exactly one bucket, open cells are whole orbits."""
    faces = tuple("abcdefghijklmnopqrstuvwxyz")
    counts = {ch: 100 - i for i, ch in enumerate("etaoinshrdlcumwfgypbvkjxqz")}
    part = make_partition(faces, "aeiou", counts, 4)
    assert part.buckets[0] == tuple("aeiou")
    assert sorted(f for b in part.buckets for f in b) == sorted(faces)
    order = split_order(3, 3, [[0] * 8 if i == 4 else [0] * 3 for i in range(9)])
    assert order[0] == 4
    assert open_cells(3, 3, (4, 1, 3, 5, 7, 0, 2, 6, 8), 4) == frozenset({0, 2, 6, 8})
    assert open_cells(3, 3, (4, 1, 3, 5, 7, 0, 2, 6, 8), 3) == frozenset()
    with pytest.raises(BoggleI18nError):
        make_partition(faces, "aeiou", counts, 40)


def small_spec(threshold: int = 0, buckets: int = 3) -> ProofSpec:
    rules = Rules(min_length=3, scoring=CLASSIC)
    return proof_spec(SMALL, rules, (2, 3), FACES_2X3, "aeiou", threshold, buckets=buckets, tasks_wanted=12)


def test_checkpoint_resume_after_interrupt_equals_straight_run(tmp_path: Path) -> None:
    """A proof stopped at a random task and resumed gives what one straight run gives, without redoing the
    finished tasks; a torn last line is dropped and redone."""
    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    assert straight.complete and straight.boards
    path = tmp_path / "proof.ckpt"
    stop_after = random.Random(3).randint(2, spec.space.tasks - 2)

    def interrupt(p: ProofProgress) -> None:
        if p.tasks_done >= stop_after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        prove(spec, threshold_source="test", checkpoint=path, on_progress=interrupt)
    _, done, torn = read_checkpoint(path)
    assert len(done) == stop_after and not torn
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"task": 99, "classes"')  # a write cut off by a kill
    seen: list[int] = []
    resumed = prove(
        spec,
        threshold_source="test",
        checkpoint=path,
        resume=True,
        on_progress=lambda p: seen.append(p.tasks_done),
    )
    assert resumed.complete
    assert resumed.boards == straight.boards
    assert resumed.classes == straight.classes
    assert seen[0] == stop_after  # the finished tasks were not run again
    assert len(read_checkpoint(path)[1]) == spec.space.tasks


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_termination_stops_the_workers_and_keeps_the_checkpoint(tmp_path: Path, signame: str) -> None:
    """`kill` (SIGTERM) or a closed terminal (SIGHUP) stops a proof as Ctrl-C does: the workers end with it
    (a killed parent used to leave them running), the handler is put back, and the proof resumes."""
    import multiprocessing
    import os
    import signal
    import time

    number = getattr(signal, signame)
    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    path = tmp_path / "proof.ckpt"
    before = signal.getsignal(number)

    def terminate(p: ProofProgress) -> None:
        if p.tasks_done >= 2:
            os.kill(os.getpid(), number)

    with pytest.raises(KeyboardInterrupt):
        prove(spec, threshold_source="test", checkpoint=path, workers=2, on_progress=terminate)
    assert signal.getsignal(number) is before
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()
    resumed = prove(spec, threshold_source="test", checkpoint=path, resume=True)
    assert resumed.complete and resumed.boards == straight.boards


def _tamper(path: Path, edit: Any, line: int | None = None) -> None:
    """Apply `edit(record)` to one task line (the one holding the best board, by default), keeping its check."""
    lines = path.read_text().splitlines()
    records = [json.loads(x) for x in lines[1:]]
    if line is None:
        line = max(range(len(records)), key=lambda i: max((b[1] for b in records[i]["boards"]), default=-1))
    edit(records[line])
    lines[line + 1] = json.dumps(records[line])
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda r: r["boards"].insert(0, ["zzz/zzz", 99999, 9]), id="forged-board"),
        pytest.param(lambda r: r["boards"].clear(), id="best-hidden"),
        pytest.param(lambda r: r["boards"][0].__setitem__(1, r["boards"][0][1] + 50), id="score-raised"),
        pytest.param(lambda r: r["boards"].insert(0, ["aaa/aaa", 999, 1]), id="real-board-low-score"),
    ],
)
def test_a_tampered_checkpoint_is_never_proven_with_wrong_content(tmp_path: Path, edit: Any) -> None:
    """A line edited by hand: the resumed proof gives exactly the straight run's boards (the line fails its check
    and its task is searched again), and says so; never "zzz/zzz = 99999", never a hidden best board."""
    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    path = tmp_path / "proof.ckpt"
    prove(spec, threshold_source="test", checkpoint=path)
    _tamper(path, edit)
    resumed = prove(spec, threshold_source="test", checkpoint=path, resume=True)
    assert resumed.complete and resumed.boards == straight.boards
    assert any("failed their check" in n for n in resumed.notes), resumed.notes


def test_an_unchecked_version_1_checkpoint_is_rescored(tmp_path: Path) -> None:
    """A checkpoint from before line checks (version 1): its claims are scored again, wrong scores corrected and
    boards below the threshold or not of this proof dropped."""
    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    path = tmp_path / "proof.ckpt"
    prove(spec, threshold_source="test", checkpoint=path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 1
    records = [json.loads(x) for x in lines[1:]]
    for r in records:
        del r["check"]
    best = max(records, key=lambda r: max((b[1] for b in r["boards"]), default=-1))
    best["boards"][0][1] += 50  # a raised score: corrected
    best["boards"].append(["zzz/zzz", 99999, 9])  # not a board of these faces: dropped
    best["boards"].append(["aaa/aaa", 12, 1])  # a real board below the threshold: dropped
    path.write_text("\n".join(json.dumps(x) for x in [header, *records]) + "\n")
    resumed = prove(spec, threshold_source="test", checkpoint=path, resume=True)
    assert resumed.boards == straight.boards
    assert any("not a board of this proof" in n for n in resumed.notes)
    assert any("as the checkpoint said" in n for n in resumed.notes)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("task", 99999, "task 99999 is not a whole number in 0.."),
        ("task", -1, "task -1"),
        ("task", 1.5, "task 1.5"),
        ("cpu_seconds", "NaN", "damaged"),
        ("cpu_seconds", "1e400", "cpu_seconds Infinity is not a finite"),
        ("cpu_seconds", "Infinity", "damaged"),
        ("classes", True, "classes true"),
        ("boards", [["ab", "12", 1]], 'score "12" is not'),
    ],
)
def test_checkpoint_numbers_outside_the_proof_are_one_error(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    """Task numbers outside the proof, NaN, 1e400, Infinity, booleans and strings for numbers: one error naming
    the line (NaN and 1e400 were taken, 1e400 crashed)."""
    spec = small_spec(threshold=12)
    path = tmp_path / "proof.ckpt"
    prove(spec, threshold_source="test", checkpoint=path)
    lines = path.read_text().splitlines()
    text = json.dumps(value) if not (isinstance(value, str) and value[0] in "N1I") else value
    record = json.loads(lines[3])
    record[field] = "@@"
    lines[3] = json.dumps(record).replace('"@@"', text)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BoggleI18nError, match=r"line 4") as info:
        prove(spec, threshold_source="test", checkpoint=path, resume=True)
    assert message in str(info.value)


def test_a_full_disk_while_checkpointing_loses_no_finished_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills after a few tasks, mid-line: the proof stops with the OSError, the checkpoint holds the tasks
    written whole (the torn line is dropped on resume) and the resumed proof equals a straight run."""
    import errno

    from boggle_i18n.prove import checkpoint as checkpoint_module

    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    path = tmp_path / "proof.ckpt"
    real = checkpoint_module.CheckpointWriter._write
    written: list[int] = []

    def filling(self: Any, data: dict[str, Any]) -> None:
        if len(written) == 4:
            self._file.write(json.dumps(data)[:20])  # half a line reaches the disk, then it is full
            self._file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(1)
        real(self, data)

    monkeypatch.setattr(checkpoint_module.CheckpointWriter, "_write", filling)
    with pytest.raises(OSError, match="No space"):
        prove(spec, threshold_source="test", checkpoint=path, workers=1)
    monkeypatch.undo()
    _, done, torn = read_checkpoint(path)
    assert torn and len(done) == 3
    resumed = prove(spec, threshold_source="test", checkpoint=path, resume=True)
    assert resumed.complete and resumed.boards == straight.boards


def test_foreign_or_damaged_checkpoints_are_one_error(tmp_path: Path) -> None:
    spec = small_spec(threshold=12)
    path = tmp_path / "proof.ckpt"
    prove(spec, threshold_source="test", checkpoint=path)
    other = small_spec(threshold=13)
    with pytest.raises(BoggleI18nError, match=r"belongs to another proof.*threshold"):
        prove(other, threshold_source="test", checkpoint=path, resume=True)
    with pytest.raises(BoggleI18nError, match="exists"):
        prove(spec, threshold_source="test", checkpoint=path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], "{not json", *lines[2:]]) + "\n")
    with pytest.raises(BoggleI18nError, match="line 2 is damaged"):
        prove(spec, threshold_source="test", checkpoint=path, resume=True)
    path.write_text(json.dumps({"some": "json"}) + "\n")
    with pytest.raises(BoggleI18nError, match="not a boggle-i18n proof checkpoint"):
        prove(spec, threshold_source="test", checkpoint=path, resume=True)


def test_one_and_two_workers_agree() -> None:
    spec = small_spec(threshold=12)
    one = prove(spec, threshold_source="test", workers=1)
    two = prove(spec, threshold_source="test", workers=2)
    assert one.complete and two.complete
    assert one.boards == two.boards and one.classes == two.classes


def test_estimate_projects_from_a_sample() -> None:
    """The estimate samples by strata of vowel cells whose exact sizes add up to the proof's classes, weights
    each stratum's mean by its size, reports the cost quantiles over every class, and repeats with its seed."""
    spec = small_spec(threshold=12)
    est = estimate(spec, sample=20)
    assert est.sampled == 20
    full = prove(spec, threshold_source="test")
    assert est.classes_total == full.classes
    assert est.low_seconds <= est.total_seconds <= est.high_seconds
    assert len(est.strata) > 1 and sum(st.classes for st in est.strata) == full.classes
    assert sum(st.mean * st.classes for st in est.strata) == pytest.approx(est.total_seconds)
    assert list(est.quantiles) == ["p50", "p90", "p99", "p99.9"]
    assert (
        list(est.quantiles.values()) == sorted(est.quantiles.values()) and est.quantiles["p99.9"] <= est.slowest_class
    )
    mixed = proof_spec(
        SMALL, Rules(min_length=3, scoring=CLASSIC), (2, 3), FACES_2X3, "aeiou", 12, buckets=Scheme.parse("2/3/1")
    )
    one, two = estimate(mixed, sample=12, seed=5), estimate(mixed, sample=12, seed=5)
    assert one.scheme == "2/3/-" and one.classes_total == prove(mixed, threshold_source="t").classes
    assert [len(st.times) for st in one.strata] == [len(st.times) for st in two.strata]


def test_a_local_worker_that_dies_costs_only_its_tasks() -> None:
    """SIGKILL a worker process mid-proof: the pool is rebuilt, unfinished tasks run again, same result."""
    import multiprocessing
    import os
    import signal

    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    killed: list[int] = []

    def kill_one(p: ProofProgress) -> None:
        if p.tasks_done >= 1 and not killed:
            children = multiprocessing.active_children()
            if children:
                killed.append(children[0].pid or 0)
                os.kill(children[0].pid or 0, signal.SIGKILL)

    result = prove(spec, threshold_source="test", workers=2, on_progress=kill_one)
    assert killed
    assert result.complete and result.boards == straight.boards and result.classes == straight.classes


def test_dask_cluster_with_a_worker_killed_mid_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real LocalCluster: one worker SIGKILLed after the first task; Dask reruns its tasks, same result. Two
    tasks in flight at a time (the window of a proof of many tasks), refilled as they finish."""
    import os
    import signal

    from boggle_i18n.prove import executors

    monkeypatch.setattr(executors, "MIN_WINDOW", 2)
    monkeypatch.setattr(executors, "WINDOW_PER_THREAD", 1)
    distributed = pytest.importorskip("distributed")
    spec = small_spec(threshold=12)
    straight = prove(spec, threshold_source="test")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        victim = next(iter(cluster.workers.values())).process.process.pid
        killed: list[int] = []

        def kill_one(p: ProofProgress) -> None:
            if p.tasks_done - p.resumed >= 1 and not killed:
                killed.append(victim)
                os.kill(victim, signal.SIGKILL)

        result = prove(
            spec,
            threshold_source="test",
            cluster=cluster.scheduler_address,
            on_progress=kill_one,
        )
    assert killed
    assert result.complete and result.boards == straight.boards and result.classes == straight.classes
    assert result.cluster is not None


# --- the command ---------------------------------------------------------------------------------

MINI_EN = Path(__file__).resolve().parent / "fixtures" / "mini-en.txt"


@pytest.fixture
def mini_store(tmp_path: Path) -> Path:
    from boggle_i18n import build_lexicon

    store = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=store)
    return store


def _invoke(*args: str) -> object:
    from boggle_i18n.cli import app
    from boggle_i18n.cli.testing import CliRunner

    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--size", "9x9"], "1 to 64 cells"),
        (["--size", "0x3"], "size"),
        (["--resume"], "--resume needs --checkpoint"),
        (["--threshold", "-1"], "threshold"),
        (["--buckets", "40"], "buckets"),
        (["--buckets", "2/x/3"], "C/E/I"),
        (["--buckets", "2/3/3", "--open", "0"], "--open"),
        (["--buckets", "3,2/3/3"], "--estimate"),
        (["--lang", "xx"], "xx"),
        (["--output", "{tmp}/no/such/dir/out.json"], "no/such/dir"),
    ],
)
def test_bad_prove_input_is_one_error_line(mini_store: Path, tmp_path: Path, extra: list[str], message: str) -> None:
    args = ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--threshold", "1", "--store", str(mini_store)]
    result: Any = _invoke(*args, *[e.replace("{tmp}", str(tmp_path)) for e in extra])
    assert result.exit_code != 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], lines
    assert "Traceback" not in result.output


def test_prove_command_writes_a_result_that_results_reads(mini_store: Path, tmp_path: Path) -> None:
    """A whole proof through the command, its result file, a checkpoint that refuses to be overwritten, and
    the proven section of `results`."""
    folder = tmp_path / "results"
    folder.mkdir()
    out = folder / "proof.json"
    ckpt = tmp_path / "proof.ckpt"
    base = ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--store", str(mini_store)]
    result: Any = _invoke(*base, "--threshold", "1", "--checkpoint", str(ckpt), "--output", str(out))
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["kind"] == "proof" and data["complete"] and data["proven_best"]["score"] >= 1
    assert data["settings"]["trie_sha256"]
    again: Any = _invoke(*base, "--threshold", "1", "--checkpoint", str(ckpt))
    assert again.exit_code == 1 and "exists" in again.stderr
    resumed: Any = _invoke(*base, "--checkpoint", str(ckpt), "--resume", "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert json.loads(resumed.stdout)["boards"] == data["boards"]
    page: Any = _invoke("results", str(folder))
    assert page.exit_code == 0, page.stderr
    assert "## Proven best boards" in page.stdout and f"**{data['proven_best']['score']}** proven" in page.stdout
    assert "## Estimated proof costs" not in page.stdout

    # An estimate one folder down gets its own table, with the exact class count, beside the proofs.
    (folder / "estimates").mkdir()
    est_out = folder / "estimates" / "est.json"
    est: Any = _invoke(*base, "--threshold", "1", "--estimate", "--sample", "5", "--output", str(est_out))
    assert est.exit_code == 0, est.stderr
    estimate = json.loads(est_out.read_text())
    assert estimate["kind"] == "proof-estimate" and estimate["estimate"]["classes_total"] == data["classes"]
    page = _invoke("results", str(folder))
    assert page.exit_code == 0, page.stderr
    section = page.stdout.split("## Estimated proof costs")[1]
    row = next(line for line in section.splitlines() if line.startswith("| en-enable2k | 2x2 |"))
    assert f"| {data['classes']:,} | 5 (1) |" in row and estimate["command"] in row and "| `4` |" in row


@pytest.mark.parametrize(
    ("given", "other"),
    [
        (["--buckets", "4"], ["--buckets", "2"]),
        (["--buckets", "2/3/1"], ["--buckets", "2"]),
        (["--tasks", "7"], ["--tasks", "3"]),
    ],
)
def test_resume_keeps_the_checkpoints_classes_and_tasks(
    mini_store: Path, tmp_path: Path, given: list[str], other: list[str]
) -> None:
    """A proof begun on other classes than today's default (an old `--buckets 4`, or a per-cell scheme), or cut
    into other tasks, resumes on its own classes and tasks when --resume is given without --buckets or --tasks,
    and gives the straight run's boards; with a --buckets or --tasks that differs, the checkpoint is refused."""
    from boggle_i18n.prove.checkpoint import read_checkpoint
    from boggle_i18n.prove.tasks import classes_of

    ckpt = tmp_path / "proof.ckpt"
    base = ["prove", "--lexicon", "en-enable2k", "--size", "2x3", "--threshold", "3", "--store", str(mini_store)]
    straight: Any = _invoke(*base, *given, "--checkpoint", str(ckpt), "--json")
    assert straight.exit_code == 0, straight.stderr
    identity, _, _ = read_checkpoint(ckpt)
    if given[0] == "--buckets":
        assert str(classes_of(identity)[0]) == given[1]
    assert json.loads(straight.stdout)["boards"]
    lines = ckpt.read_bytes().splitlines(keepends=True)
    ckpt.write_bytes(b"".join(lines[: 1 + len(lines) // 2]))  # stopped half way
    resumed: Any = _invoke(*base, "--checkpoint", str(ckpt), "--resume", "--json")
    assert resumed.exit_code == 0, resumed.stderr
    for key in ("boards", "classes", "tasks"):
        assert json.loads(resumed.stdout)[key] == json.loads(straight.stdout)[key]
    refused: Any = _invoke(*base, *other, "--checkpoint", str(ckpt), "--resume")
    assert refused.exit_code == 1 and "belongs to another proof" in refused.stderr


def test_a_class_too_large_for_memory_is_one_error_line(mini_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A class whose tree does not fit (a scheme of too few classes: ENABLE2K 4x4 `2/2/3` passed 13 GB) is one
    `Error:` line naming the class and the remedy, not a traceback."""
    from boggle_i18n.prove.engine import ClassProver

    def no_memory(self: object, sets: object, threshold: int) -> None:
        raise MemoryError

    monkeypatch.setattr(ClassProver, "search_sets", no_memory)
    base = ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--threshold", "1", "--store", str(mini_store)]
    result: Any = _invoke(*base, "--estimate", "--sample", "2")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: class ") and "--buckets" in lines[0], lines
