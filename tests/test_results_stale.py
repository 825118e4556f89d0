"""`results` marks a result whose lexicon changed since (trie sha256) as stale, and can re-score it."""

from __future__ import annotations

import json
from pathlib import Path

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.optimize.results import load_results
from boggle_i18n.optimize.stale import check_runs

BOARD = "tape/rats/sent/ears"


def result_file(folder: Path, name: str, trie_sha256: str, score: int) -> None:
    """A result as `optimize --output` writes it (the fields `results` reads)."""
    run = {
        "best": [{"board": BOARD, "score": score, "n_words": 10}],
        "seed": 1,
        "seconds": 1.0,
        "boards_evaluated": 100,
        "strategy": "hill",
        "stopped": "time-limit",
        "command": f"boggle-i18n optimize --lexicon {name} --seed 1",
        "started": "2026-11-23T10:00:00Z",
        "settings": {
            "lexicon": name,
            "trie_sha256": trie_sha256,
            "size": "4x4",
            "dice": None,
            "rules": {"min_length": 3, "scoring": {"name": "classic-4x4", "table": {"3": 1, "4": 1}}},
        },
    }
    (folder / f"{name}-run.json").write_text(json.dumps(run), encoding="utf-8")


def build(store: Path, tmp_path: Path, words: str) -> str:
    source = tmp_path / "words.txt"
    source.write_text(words, encoding="utf-8")
    return str(build_lexicon("en", source=source, store=store, download=False).manifest["trie_sha256"])


def test_current_then_stale_then_rescored(tmp_path: Path) -> None:
    store, results = tmp_path / "store", tmp_path / "results"
    results.mkdir()
    sha = build(store, tmp_path, "tape\nrats\nsent\nears\n")
    result_file(results, "en", sha, 4)
    runs, _ = load_results(results)
    assert check_runs(runs, store)["en-run.json"].state == "current"
    build(store, tmp_path, "tape\nrats\n")  # the lexicon changed since the run
    fresh = check_runs(runs, store, rescore=True)["en-run.json"]
    assert fresh.state == "stale" and fresh.recorded == sha and fresh.current != sha
    assert fresh.rescored == 2  # tape and rats are still words on the board
    result = CliRunner().invoke(app, ["results", str(results), "--store", str(store), "--rescore"])
    assert result.exit_code == 0, result.output
    assert "| 4 (stale: lexicon changed (trie " in result.stdout and "scores 2 with today's lexicon)" in result.stdout
    assert result.stderr.startswith("en-run.json: stale: lexicon changed")


def test_a_lexicon_not_built_here_is_not_checked(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    result_file(results, "en", "0" * 64, 4)
    runs, _ = load_results(results)
    assert check_runs(runs, tmp_path / "empty-store")["en-run.json"].state == "unchecked"
    result = CliRunner().invoke(app, ["results", str(results), "--store", str(tmp_path / "empty-store")])
    assert result.exit_code == 0 and "stale" not in result.stdout and result.stderr == ""
