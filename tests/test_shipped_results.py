"""The records that ship with the package (boggle_i18n/prove/shipped-results.json): up to date with results/,
and shown by `results` and the web page's Records from any folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoggleI18nError
from boggle_i18n.prove import shipped
from boggle_i18n.prove.shipped import SHIPPED, bundle, load_records, write_bundle

REPO = Path(__file__).resolve().parent.parent


def test_the_shipped_file_is_up_to_date_with_results(tmp_path: Path) -> None:
    """Regenerated from results/ it is byte for byte the file in the package (python tools/ship_results.py)."""
    fresh = write_bundle(REPO / "results", tmp_path / "fresh.json")
    assert SHIPPED.read_text(encoding="utf-8") == fresh, "run: python tools/ship_results.py"
    proc = subprocess.run(
        [sys.executable, str(REPO / "tools" / "ship_results.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_the_bundle_holds_every_result_file_and_proof() -> None:
    data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    names = {p.name for p in (REPO / "results").glob("*.json")} - {"known.json"}
    assert set(data["files"]) == names
    assert any(d.get("kind") == "proof" and d["complete"] for d in data["files"].values())
    assert data["known"] == json.loads((REPO / "results" / "known.json").read_text(encoding="utf-8"))


def test_results_from_any_folder_equals_results_in_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`boggle-i18n results` run elsewhere shows the shipped records: the proofs and best boards of results/."""
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    anywhere = runner.invoke(app, ["results", "--store", str(tmp_path / "store")])
    assert anywhere.exit_code == 0, anywhere.stderr
    assert "## Proven best boards" in anywhere.stdout and "prts/aiee/stnr" in anywhere.stdout.lower().replace(" ", "")
    here = runner.invoke(app, ["results", "--results", str(REPO / "results"), "--store", str(tmp_path / "store")])
    assert here.exit_code == 0, here.stderr
    # Same sections; the repository's folder adds only its estimates (never shipped).
    assert here.stdout.split("## Estimated proof costs")[0].rstrip() == anywhere.stdout.rstrip()
    alone = runner.invoke(app, ["results", str(REPO / "results"), "--store", str(tmp_path / "store")])
    assert alone.exit_code == 0 and alone.stdout == here.stdout  # results/ on its own: the same records


def test_a_users_folder_adds_and_replaces(tmp_path: Path) -> None:
    runs, known, proofs = load_records(None)
    assert all(r["_shipped"] for r in [*runs, *proofs]) and known
    own = json.loads((REPO / "results" / "en-4x4-free-seed1.json").read_text(encoding="utf-8"))
    own["best"][0]["score"] += 1
    (tmp_path / "en-4x4-free-seed1.json").write_text(json.dumps(own), encoding="utf-8")
    (tmp_path / "mine.json").write_text(json.dumps(own), encoding="utf-8")
    runs2, _, _ = load_records(tmp_path)
    by_name = {r["_file"]: r for r in runs2}
    assert len(runs2) == len(runs) + 1
    assert by_name["en-4x4-free-seed1.json"]["_shipped"] is False and by_name["mine.json"]["_shipped"] is False
    assert by_name["en-4x4-free-seed1.json"]["best"][0]["score"] == own["best"][0]["score"]


def test_a_damaged_shipped_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "shipped.json"
    bad.write_text('{"format": 1, "files": {"x.json": {"best": []}}}', encoding="utf-8")
    monkeypatch.setattr(shipped, "SHIPPED", bad)
    with pytest.raises(BoggleI18nError, match=r"malformed file 'x\.json'"):
        shipped.read_bundle(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(BoggleI18nError, match="cannot be read"):
        shipped.read_bundle(bad)


def test_bundle_refuses_a_malformed_result(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    with pytest.raises(BoggleI18nError, match=r"bad\.json"):
        bundle(tmp_path)


def test_dir_renders_alone_and_results_adds_to_the_shipped_records(tmp_path: Path) -> None:
    """What `results --help` says: DIR is that folder alone; --results DIR adds it to the shipped records."""
    own = json.loads((REPO / "results" / "en-4x4-free-seed1.json").read_text(encoding="utf-8"))
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "en-4x4-free-seed1.json").write_text(json.dumps(own), encoding="utf-8")
    runner = CliRunner()
    store = ["--store", str(tmp_path / "store")]
    alone = runner.invoke(app, ["results", str(tmp_path / "mine"), *store])
    added = runner.invoke(app, ["results", "--results", str(tmp_path / "mine"), *store])
    shipped_only = runner.invoke(app, ["results", *store])
    assert alone.exit_code == added.exit_code == shipped_only.exit_code == 0, (alone.stderr, added.stderr)
    assert "## Proven best boards" not in alone.stdout and "en-4x4-free-seed1.json" in alone.stdout
    assert "## Proven best boards" in added.stdout and added.stdout == shipped_only.stdout  # same name: replaced
    both = runner.invoke(app, ["results", str(tmp_path / "mine"), "--results", str(tmp_path / "mine"), *store])
    assert both.exit_code != 0 and both.stderr.startswith("Error:") and "not both" in both.stderr
    said = runner.invoke(app, ["results", "--help"], env={"COLUMNS": "200"}).stdout
    assert "without the shipped records" in said and "Add the result files in this folder" in said
