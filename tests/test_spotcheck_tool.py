"""tools/spotcheck_proofs.py: a proof's heaviest tasks and its board tasks searched again through `prove --resume`
say `same` for a true proof, and `DIFFERENT` when the published boards or a task's record do not hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_prove import _invoke

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

import spotcheck_proofs  # noqa: E402

MINI_EN = Path(__file__).resolve().parent / "fixtures" / "mini-en.txt"


@pytest.fixture
def proof(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A small published proof with its checkpoint, and its lexicon store."""
    from boggle_i18n import build_lexicon

    store = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=store)
    monkeypatch.setenv("BOGGLE_I18N_HOME", str(store))
    results = tmp_path / "results"
    results.mkdir()
    out, ckpt = results / "prove-mini-2x3.json", results / "prove-mini-2x3.ckpt"
    args = ["prove", "--lexicon", "en-enable2k", "--size", "2x3", "--threshold", "3", "--tasks", "8"]
    done: Any = _invoke(*args, "--store", str(store), "--checkpoint", str(ckpt), "--output", str(out))
    assert done.exit_code == 0, done.stderr
    assert json.loads(out.read_text())["boards"], "the small proof should find boards to check"
    return results, store


def _spotcheck(results: Path, store: Path, out: Path) -> list[str]:
    where = ["--results", str(results), "--glob", "prove-*.json"]
    spotcheck_proofs.main(["--store", str(store), "--out", str(out), "--heaviest", "1", *where])
    return (out / "spotcheck.tsv").read_text().splitlines()[1].split("\t")


def test_a_true_proof_checks_the_same(proof: tuple[Path, Path], tmp_path: Path) -> None:
    results, store = proof
    row = _spotcheck(results, store, tmp_path / "spot")
    published = json.loads((results / "prove-mini-2x3.json").read_text())
    assert row[2] == "same", row
    assert (row[3], int(row[4])) == (published["proven_best"]["board"], published["proven_best"]["score"])
    assert row[5], "some tasks were searched again"
    assert float(row[7]) >= 0 and float(row[6]) >= 0


def test_published_boards_that_do_not_hold_check_different(proof: tuple[Path, Path], tmp_path: Path) -> None:
    results, store = proof
    path = results / "prove-mini-2x3.json"
    data = json.loads(path.read_text())
    data["boards"] = data["boards"][1:]  # a board left out of the published result
    path.write_text(json.dumps(data))
    assert _spotcheck(results, store, tmp_path / "spot")[2] == "DIFFERENT"


def test_a_task_record_that_does_not_hold_checks_different(proof: tuple[Path, Path], tmp_path: Path) -> None:
    """A board task whose record (with a valid check, as an older prover would have written it) holds no board:
    searched again it finds one, so the check says DIFFERENT."""
    from boggle_i18n.prove.checkpoint import line_check

    results, store = proof
    ckpt = results / "prove-mini-2x3.ckpt"
    lines = ckpt.read_text().splitlines()
    identity = json.loads(lines[0])["proof"]
    records = [json.loads(line) for line in lines[1:]]
    tampered = next(r for r in records if r["boards"])
    tampered["boards"] = []
    tampered["check"] = line_check(identity, tampered)
    ckpt.write_text("\n".join([lines[0], *(json.dumps(r, separators=(",", ":")) for r in records)]) + "\n")
    assert _spotcheck(results, store, tmp_path / "spot")[2] == "DIFFERENT"
