"""`compare` and `boggle_i18n.comparison.compare`: boards per language, their figures, plot, errors."""

from __future__ import annotations

import itertools
import json
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.api import letter_distribution, parse_board, solve
from boggle_i18n.board.dice import DiceSet, get_dice
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.comparison.compare import (
    BoardSource,
    compare,
    compare_language,
    language_seed,
    progress_line,
    roll_codes,
    summarise,
)
from boggle_i18n.language.selection import select
from boggle_i18n.solver.codec import FaceCodec

runner = CliRunner()


def _words(letters: str, lengths: tuple[int, ...] = (3, 4)) -> list[str]:
    """Every string of `lengths` over `letters`: a small lexicon on which random boards score."""
    return ["".join(p) for n in lengths for p in itertools.product(letters, repeat=n)]


@pytest.fixture
def small_store(tmp_path: Path) -> Path:
    """`en` (dice) and `es` (no dice: a letter distribution) built from small generated lists."""
    store = tmp_path / "store"
    for name, letters in (("en", "aeinrst"), ("es", "aeinorsñ")):
        source = tmp_path / f"{name}.txt"
        source.write_text("\n".join(_words(letters)) + "\n", encoding="utf-8")
        build_lexicon(name, source=source, store=store, download=False)
    return store


def _run(*args: str) -> Any:
    return runner.invoke(app, ["compare", *args])


def _json(*args: str) -> dict[str, Any]:
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# --- seeds and rolling ------------------------------------------------------------------------


def test_language_seed_depends_on_seed_and_code() -> None:
    assert language_seed(1, "en") == language_seed(1, "en")
    assert len({language_seed(1, "en"), language_seed(2, "en"), language_seed(1, "nl")}) == 3
    assert 0 <= language_seed(123, "pt-br") < 2**63


def _toy_dice() -> DiceSet:
    """Four dice whose faces never repeat across dice, so each face names its die."""
    dice = (("a", "b", "c"), ("d", "e"), ("f", "g", "h", "i"), ("qu", "k", "l"))
    return DiceSet("toy-2x2", "toy", "en", 2, 2, dice, 3, "classic-4x4", "test")


def test_dice_boards_use_each_die_once_with_every_face_possible() -> None:
    ds = _toy_dice()
    codec = FaceCodec(list("abcdefghijklqu"))
    codes = roll_codes(BoardSource("dice", ds), codec, (2, 2), 4000, seed=5)
    assert codes.shape == (4000, 4) and codes.dtype == np.int32
    die_of = {face: i for i, die in enumerate(ds.dice) for face in die}
    seen_faces: Counter[str] = Counter()
    cells_of_die0: Counter[int] = Counter()
    for row in codes:
        faces = [codec.faces[c] for c in row]
        assert sorted(die_of[f] for f in faces) == [0, 1, 2, 3]  # a permutation of the dice
        seen_faces.update(faces)
        cells_of_die0[next(i for i, f in enumerate(faces) if die_of[f] == 0)] += 1
    assert set(seen_faces) == {f for die in ds.dice for f in die}
    assert min(cells_of_die0.values()) > 800  # each die lands on every cell, about 1000 times each
    assert 1200 < seen_faces["d"] < 2800  # a 2-sided die shows each face about half the time


def test_rolls_are_reproducible_per_seed() -> None:
    ds = _toy_dice()
    codec = FaceCodec(list("abcdefghijklqu"))
    one = roll_codes(BoardSource("dice", ds), codec, (2, 2), 50, seed=9)
    assert np.array_equal(one, roll_codes(BoardSource("dice", ds), codec, (2, 2), 50, seed=9))
    assert not np.array_equal(one, roll_codes(BoardSource("dice", ds), codec, (2, 2), 50, seed=10))


def test_distribution_boards_follow_the_weights() -> None:
    source = BoardSource("distribution", None, ("a", "b", "qu", "z"), (0.5, 0.3, 0.2, 0.0), "x")
    codec = FaceCodec(list("abquz"))
    codes = roll_codes(source, codec, (4, 4), 5000, seed=3)
    counts = Counter(codec.faces[c] for c in codes.ravel())
    total = 5000 * 16
    assert counts["z"] == 0
    for face, weight in zip(source.faces[:3], source.weights[:3], strict=True):
        assert abs(counts[face] / total - weight) < 0.01


def test_multi_letter_faces_are_weighted_by_their_own_frequency() -> None:
    lexicon = Lexicon.from_words(["quiz", "quit", "queen", "aqua", "qat", "tea"])
    ds = DiceSet("t", "t", "en", 1, 3, (("qu", "q"), ("t", "a"), ("e", "z")), 3, "classic-4x4", "test")
    faces, weights = letter_distribution(ds, lexicon)
    weight = dict(zip(faces, weights, strict=True))
    assert weight["qu"] == 4  # quiz, quit, queen, aqua: its own count, not the weight of "q"
    assert weight["q"] == 5 and weight["t"] == 3 and weight["e"] == 3 and weight["z"] == 1


# --- the library ------------------------------------------------------------------------------


def test_distribution_language_is_labelled_and_draws_its_alphabet(small_store: Path) -> None:
    lines: list[str] = []
    events: list[dict] = []
    result = compare_language(
        "es", size=(4, 4), n_boards=200, seed=1, store=small_store, progress=lines.append, events=events.append
    )
    # One fact, two forms: the CLI's English line and the event the web page words in its own language.
    assert events == [
        {
            "step": "rolling",
            "lang": "es",
            "boards": 200,
            "size": "4x4",
            "source": {"kind": "distribution", "dice": None, "lexicon": "es", "chosen": True},
            "seed": result.seed,
        }
    ]
    assert lines == [progress_line(events[0], result.source)] and lines[0].startswith("es: 200 4x4 boards, letter")
    assert result.source.kind == "distribution" and result.source.dice is None
    assert "distribution" in result.source.label and "lexicon es" in result.source.describe()
    data = result.to_dict()
    assert data["boards_from"]["kind"] == "distribution" and data["boards_from"]["lexicon"] == "es"
    faces = data["boards_from"]["faces"]
    assert abs(sum(faces.values()) - 1) < 1e-9
    assert {ch for b in result.boards for ch in b.replace("/", "")} <= {f for f, w in faces.items() if w > 0}


def test_a_language_with_dice_of_another_size_draws_their_faces(small_store: Path) -> None:
    """en has no 3x3 set: the cells are drawn from the faces of its first set, labelled so."""
    result = compare_language("en", size=(3, 3), n_boards=100, seed=1, store=small_store)
    lender = get_dice(select(lang="en").language.dice[0])
    assert result.source.kind == "distribution" and result.source.dice == lender
    assert result.source.label == f"distribution ({lender.id} faces)"


def test_dice_language_scores_match_the_reference_solver(small_store: Path) -> None:
    result = compare_language("en", size=(4, 4), n_boards=300, seed=2, store=small_store)
    assert result.source.kind == "dice" and result.source.dice is not None
    lexicon = Lexicon.load("en", small_store)
    rules = select(lang="en", size=(4, 4)).rules
    for board, score, n in list(zip(result.boards, result.scores, result.n_words, strict=True))[:20]:
        solved = solve(parse_board(board, lang="en"), lexicon, rules)
        assert (solved.score, solved.n_words) == (score, n)
    assert max(result.scores) > 0
    assert result.lexicon_words == len(lexicon)


def test_summary_figures_against_a_direct_computation() -> None:
    scores = [0, 3, 9, 10, 12, 40, 40, 7, 100, 1]
    stats = summarise([f"b{i}" for i in range(10)], scores, [s // 2 for s in scores])
    ordered = sorted(scores)
    assert stats["mean"] == 22.2
    assert stats["median"] == (ordered[4] + ordered[5]) / 2 == 9.5
    assert stats["p90"] == 46.0  # linear: 40 + 0.1 * (100 - 40)
    assert (stats["max"], stats["max_board"]) == (100, "b8")
    assert stats["share_under_10"] == 0.5
    assert stats["mean_words"] == sum(s // 2 for s in scores) / 10


def test_longest_words_come_from_the_best_boards(small_store: Path) -> None:
    result = compare_language("en", n_boards=100, seed=4, store=small_store)
    lexicon = Lexicon.load("en", small_store)
    assert result.longest and all(w in lexicon for w in result.longest)
    assert [len(w) for w in result.longest] == sorted((len(w) for w in result.longest), reverse=True)
    best = int(np.argmax(result.scores))
    top_words = {w.word for w in solve(parse_board(result.boards[best], lang="en"), lexicon).words}
    assert len(result.longest[0]) >= max(len(w) for w in top_words)


def test_adding_a_language_does_not_change_another_languages_boards(small_store: Path) -> None:
    """On a given basis; by default adding es (no dice) moves the whole table, en too, onto letters."""
    for roll in ("letters", "own"):
        alone = compare(["en"], n_boards=50, seed=8, store=small_store, roll=roll)[0]
        both = compare(["es", "en"], n_boards=50, seed=8, store=small_store, roll=roll)[1]
        assert alone.boards == both.boards and alone.scores == both.scores
    assert compare(["en"], n_boards=5, seed=8, store=small_store)[0].source.kind == "dice"
    assert compare(["es", "en"], n_boards=5, seed=8, store=small_store)[1].source.kind == "distribution"


# --- the command ------------------------------------------------------------------------------


def test_compare_table_and_json(small_store: Path) -> None:
    result = _run("en", "es", "--boards", "120", "--seed", "3", "--roll", "own", "--store", str(small_store))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["lang", "boards", "from"]
    assert lines[2].startswith("en ") and "dice en-" in lines[2]
    assert lines[3].startswith("es ") and "distribution (alphabet)" in lines[3]
    assert "--seed 3" in result.stdout
    assert "es: 120 4x4 boards, letter distribution" in result.stderr  # progress on stderr
    data = _json("en", "es", "--boards", "120", "--seed", "3", "--roll", "own", "--store", str(small_store))
    assert (data["seed"], data["n_boards"], data["rows"], data["cols"]) == (3, 120, 4, 4)
    for lang in data["languages"]:
        assert len(lang["boards"]) == 120 and lang["seed"] == language_seed(3, lang["lang"])
        scores = [b["score"] for b in lang["boards"]]
        assert lang["max"] == max(scores) and lang["mean"] == round(sum(scores) / 120, 2)
        assert lang["share_under_10"] == round(sum(s < 10 for s in scores) / 120, 4)
    assert [lang["boards_from"]["kind"] for lang in data["languages"]] == ["dice", "distribution"]


def test_compare_is_deterministic_per_seed(small_store: Path) -> None:
    args = ("en", "es", "--boards", "60", "--store", str(small_store), "--size", "5x5")
    one, two = _json(*args, "--seed", "11"), _json(*args, "--seed", "11")
    other = _json(*args, "--seed", "12")
    strip = [{k: v for k, v in lang.items() if k != "seconds"} for lang in one["languages"]]
    assert strip == [{k: v for k, v in lang.items() if k != "seconds"} for lang in two["languages"]]
    assert one["languages"][0]["boards"] != other["languages"][0]["boards"]


def test_missing_lexicon_is_built_first_from_the_system_list(tmp_path: Path) -> None:
    """gd (wgaelic, small) is not built: compare builds it from /usr/share/dict and says so on stderr."""
    from test_debian_lists import system_list

    system_list("gd")  # skips (fails under CI, which installs wgaelic) when the list is absent
    store = tmp_path / "store"
    result = _run("gd", "--boards", "30", "--store", str(store))
    assert result.exit_code == 0, result.stderr
    assert "lexicon 'gd' was not built yet: built it first" in result.stderr
    assert (store / "gd.marisa").is_file() and "distribution (alphabet)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["xx"], "unknown language 'xx'"),
        (["en", "--boards", "0"], "--boards must be in 1..10,000,000, not 0"),
        (["en", "--seed", "-1"], "--seed must be in 0.."),
        ([""], "unknown language ''"),
        (["en", "--size", "4y4"], "bad size '4y4'"),
        (["en", "--size", "0x4"], "bad size '0x4'"),
        (["en", "--plot", "out.pdf"], "must end in .png or .svg"),
        (["en", "--plot", "no-such-folder/out.png"], "no folder"),
        (["en", "--optimize-time", "0"], "--optimize-time must be in 0.001.."),
    ],
)
def test_bad_input_is_one_error_line(small_store: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = _run(*args, "--store", str(small_store))
    assert result.exit_code != 0 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert not (tmp_path / "out.pdf").exists()


def test_missing_matplotlib_is_one_line_saying_how_to_install(
    small_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # simulates matplotlib not installed
    out = tmp_path / "plot.png"
    result = _run("en", "--plot", str(out), "--store", str(small_store))
    assert result.exit_code != 0 and result.stdout == "" and not out.exists()
    assert result.stderr.splitlines() == [
        "Error: --plot needs matplotlib: pip install 'boggle-i18n[plot]' (or pip install matplotlib)"
    ]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_is_written(small_store: Path, tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")  # the [plot] extra; CI installs it, so there this never skips
    out = tmp_path / f"scores{suffix}"
    result = _run("en", "es", "--boards", "50", "--plot", str(out), "--store", str(small_store))
    assert result.exit_code == 0, result.stderr
    head = out.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in out.read_bytes()


class _FakeFound:
    def __init__(self, faces: tuple[str, ...], score: int) -> None:
        self.faces, self.score, self.n_words = faces, score, 7


def test_optimize_time_calls_the_optimizer_on_the_same_dice_or_faces(
    small_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test double stands in for `boggle_i18n.optimize.optimizer` (its API: optimize(lexicon, rules, shape, ...))."""
    calls: list[dict[str, Any]] = []

    def fake_optimize(lexicon: Any, rules: Any, shape: tuple[int, int], **kwargs: Any) -> Any:
        calls.append({"lexicon": lexicon.name, "shape": shape, **kwargs})
        cells = shape[0] * shape[1]
        best = [_FakeFound(tuple("aeinrstaeinrstae"[:cells]), 999)]
        return types.SimpleNamespace(best=best, seconds=0.5, boards_evaluated=1234, stopped="time-limit")

    fake = types.ModuleType("boggle_i18n.optimize.optimizer")
    fake.optimize = fake_optimize  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "boggle_i18n.optimize", types.ModuleType("boggle_i18n.optimize"))
    monkeypatch.setitem(sys.modules, "boggle_i18n.optimize.optimizer", fake)
    data = _json(
        "en",
        "es",
        "--boards",
        "20",
        "--seed",
        "5",
        "--optimize-time",
        "2.5",
        "--roll",
        "own",
        "--store",
        str(small_store),
    )
    en, es = calls
    assert en["dice"] == data["languages"][0]["boards_from"]["dice"] and en["time_limit"] == 2.5
    assert en["seed"] == language_seed(5, "en") and en["shape"] == (4, 4)
    assert es.get("dice") is None and es["faces"] == list(data["languages"][1]["boards_from"]["faces"])
    assert data["languages"][0]["optimized"] == {
        "board": "aein/rsta/einr/stae",
        "score": 999,
        "n_words": 7,
        "seconds": 0.5,
        "boards_evaluated": 1234,
        "stopped": "time-limit",
    }
    table = _run("en", "--boards", "20", "--optimize-time", "1", "--store", str(small_store))
    assert table.stdout.splitlines()[0].rstrip().endswith("optimized") and "999 aein/rsta/einr/stae" in table.stdout


def test_optimize_time_without_the_optimizer_is_one_error_line(
    small_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "boggle_i18n.optimize.optimizer", None)  # simulates a build without it
    result = _run("en", "--optimize-time", "1", "--store", str(small_store))
    assert result.exit_code != 0 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "Error: --optimize-time needs the optimizer (boggle_i18n.optimize), not in this build"
    ]


# --- real data --------------------------------------------------------------------------------


def test_real_data_en_dice_and_es_distribution(built_store: Path) -> None:
    """en (ENABLE) on its 4x4 dice and es (wspanish) from its letter distribution, checked against the reference."""
    data = _json("en", "es", "--boards", "400", "--seed", "1", "--roll", "own", "--store", str(built_store))
    en, es = data["languages"]
    assert en["boards_from"]["kind"] == "dice" and es["boards_from"]["kind"] == "distribution"
    assert en["word_count"] == len(Lexicon.load("en", built_store)) > 170_000
    for lang in (en, es):
        lexicon = Lexicon.load(lang["lexicon"], built_store)
        rules = select(lang=lang["lang"], size=(4, 4)).rules
        for board in lang["boards"][:10]:
            solved = solve(parse_board(board["board"], lang=lang["lang"]), lexicon, rules)
            assert (solved.score, solved.n_words) == (board["score"], board["n_words"])
        scores = sorted(b["score"] for b in lang["boards"])
        assert lang["median"] == (scores[199] + scores[200]) / 2
        assert lang["p90"] == round(float(np.percentile(scores, 90)), 2)
        assert 20 < lang["mean"] < 400  # random 4x4 boards of a full lexicon score tens to hundreds
        assert all(w in lexicon for w in lang["longest_words"])


# --- one basis: --roll letters|dice|own--------------------------------------------------------


def test_roll_letters_puts_every_language_on_its_letter_distribution(small_store: Path) -> None:
    """en has dice, es has none: with --roll letters both draw from letters, under one rule set."""
    data = _json("en", "es", "--boards", "80", "--seed", "4", "--roll", "letters", "--store", str(small_store))
    assert data["basis"]["roll"] == "letters" and data["basis"]["rules"] == {"min_length": 3, "scoring": "classic-4x4"}
    assert data["without_dice"] == []
    for lang in data["languages"]:
        assert lang["boards_from"]["kind"] == "distribution"
        assert (lang["rules"]["min_length"], lang["rules"]["scoring"]["name"]) == (3, "classic-4x4")
        assert 0 <= lang["short_word_points"] <= 1 and lang["alphabet_size"] == {"en": 7, "es": 8}[lang["lang"]]
    text = _run("en", "es", "--boards", "80", "--roll", "letters", "--store", str(small_store))
    assert "one basis: --roll letters" in text.stdout and "3+ letters, classic-4x4 for all" in text.stdout
    assert "3-4 letter pts" in text.stdout.splitlines()[0]


def test_roll_dice_reports_languages_without_dice_apart(small_store: Path) -> None:
    data = _json("en", "es", "--boards", "50", "--roll", "dice", "--store", str(small_store))
    assert [lang["lang"] for lang in data["languages"]] == ["en"] and data["without_dice"] == ["es"]
    assert data["languages"][0]["boards_from"]["kind"] == "dice"
    text = _run("en", "es", "--boards", "50", "--roll", "dice", "--store", str(small_store))
    assert "reported apart, no 4x4 dice set: es" in text.stdout
    assert not any(line.startswith("es ") for line in text.stdout.splitlines())


def test_one_basis_by_default_letters_unless_every_language_has_dice(small_store: Path) -> None:
    """en has 4x4 dice, es none: by default both draw from letters under one rule set; en alone rolls dice."""
    data = _json("en", "es", "--boards", "40", "--seed", "4", "--store", str(small_store))
    assert data["basis"]["roll"] == "letters" and data["basis"]["rules"] == {"min_length": 3, "scoring": "classic-4x4"}
    assert {lang["boards_from"]["kind"] for lang in data["languages"]} == {"distribution"}
    alone = _json("en", "--boards", "20", "--store", str(small_store))
    assert alone["basis"]["roll"] == "dice" and alone["languages"][0]["boards_from"]["kind"] == "dice"
    text = _run("en", "es", "--boards", "40", "--store", str(small_store))
    assert "one basis: --roll letters" in text.stdout and "MIXED" not in text.stdout


def test_roll_own_mixes_bases_and_says_so(small_store: Path) -> None:
    """Only --roll own mixes: en from its dice and its rules, es from letters; the table names the mix."""
    data = _json("en", "es", "--boards", "40", "--roll", "own", "--store", str(small_store))
    assert data["basis"]["roll"] == "own" and data["basis"]["rules"] is None
    kinds = {lang["lang"]: lang["boards_from"]["kind"] for lang in data["languages"]}
    assert kinds == {"en": "dice", "es": "distribution"}
    text = _run("en", "es", "--boards", "40", "--roll", "own", "--store", str(small_store))
    assert "MIXED BASIS (--roll own)" in text.stdout


def test_roll_dice_at_5x5_uses_the_big_rules_for_all(small_store: Path) -> None:
    data = _json("en", "--boards", "20", "--size", "5x5", "--roll", "dice", "--store", str(small_store))
    assert data["basis"]["rules"] == {"min_length": 4, "scoring": "big-5x5"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("es", "--roll", "dice"), "Error: no language named has a 4x4 dice set: use --roll letters"),
        (("en", "--roll", "both"), "Error: --roll must be one of letters, dice, own, not 'both'"),
    ],
)
def test_roll_errors(small_store: Path, args: tuple[str, ...], message: str) -> None:
    result = _run(*args, "--store", str(small_store))
    assert result.exit_code == 1 and result.stderr == message + "\n" and result.stdout == ""
