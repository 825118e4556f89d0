"""tools/precision_audit.py: deterministic weighted sampling, verdicts kept on resampling, the report's
figures from a small judged file, the refusal to publish an unjudged file, and the generated section of
docs/languages.md in step with results/audit/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))

from doc_section import read_section
from precision_audit import (
    AUDIT_DIR,
    END,
    START,
    AuditError,
    Row,
    Sample,
    board_weights,
    draw,
    figures,
    parse,
    read_all,
    report,
    resample,
    wilson,
)

JUDGED = """# lang: xx
# policy: every form plays.
word\tweight\tdraws\tverdict\treason\tnote
aa\t10\t3\taccept\t\t
bb\t1\t1\treject\tname\ta town
cc\t5\t1\taccept\t\tcommon
"""


def test_draws_are_deterministic_for_a_seed_and_follow_the_weights() -> None:
    weights = {"common": 900, "rare": 100, "never": 0}
    first = draw(weights, 2000, seed=3)
    assert first == draw(dict(reversed(weights.items())), 2000, seed=3)  # order of the dict does not matter
    assert first != draw(weights, 2000, seed=4)
    assert sum(first.values()) == 2000 and "never" not in first
    assert 0.87 < first["common"] / 2000 < 0.93  # 90% of the weight, drawn with replacement


def test_resample_keeps_verdicts_of_words_drawn_again_and_marks_new_ones() -> None:
    old = parse(JUDGED, "xx")
    new = resample(old, "xx", {"aa": 50, "dd": 50}, {"lang": "xx"}, draws=40, seed=1)
    rows = {r.word: r for r in new.rows}
    assert set(rows) == {"aa", "dd"}  # bb and cc are no longer found: gone
    assert rows["aa"].verdict == "accept" and rows["aa"].weight == 50
    assert rows["dd"].verdict == "unjudged"
    assert new.policy == ["every form plays."] and new.unjudged == 1
    assert parse(new.text(), "xx").rows == new.rows  # the file reads back as written


def test_report_figures_from_a_small_judged_file() -> None:
    f = figures(parse(JUDGED, "xx"))
    assert (f.words, f.draws) == (3, 5)
    assert f.as_met == pytest.approx(4 / 5)  # draws accepted: aa 3 + cc 1 of 5
    low, high = f.as_met_ci
    assert (round(low, 3), round(high, 3)) == (0.376, 0.964)  # Wilson 95% for 4 of 5
    # per distinct word: draws weighted 1/weight: aa 0.3, bb 1, cc 0.2 -> 0.5 of 1.5 accepted
    assert f.distinct == pytest.approx(1 / 3)
    assert f.reasons == {"name": 1}
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_report_publishes_no_figure_for_a_file_with_unjudged_words() -> None:
    waiting = Sample("yy", rows=[Row("aa", 3, 1, "accept"), Row("zz", 2, 1)])
    with pytest.raises(AuditError, match="1 unjudged"):
        figures(waiting)
    text = report([parse(JUDGED, "xx"), waiting])
    assert "| xx | 3 | 5 | 80% |" in text
    assert "| yy |" not in text and "not yet judged (no figure is published): yy (1 of 2 words)" in text
    assert "- **xx**: every form plays." in text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("aa\t1\t1\treject\t\t", "needs a reason"),
        ("aa\t1\t1\treject\tbad-reason\t", "needs a reason"),
        ("aa\t1\t1\tmaybe\t\t", "verdict 'maybe'"),
        ("aa\t1\t1\taccept\tname\t", "only a reject has a reason"),
        ("aa\t0\t1\taccept\t\t", "positive whole numbers"),
        ("aa\t1\taccept\t\t", "fields"),
    ],
)
def test_a_bad_row_is_refused_with_its_line(line: str, message: str) -> None:
    with pytest.raises(AuditError, match=message):
        parse("word\tweight\tdraws\tverdict\treason\tnote\n" + line + "\n", "xx")


def test_the_docs_section_is_the_report_of_the_committed_files() -> None:
    """docs/languages.md's precision section is what `report` makes of results/audit/ (no drift)."""
    samples = read_all(AUDIT_DIR)
    assert samples, "results/audit/ holds the samples"
    assert read_section(REPO / "docs" / "languages.md", START, END) == report(samples)
    judged = [s for s in samples if not s.unjudged]
    assert all(s.policy for s in judged), "every judged file says how it was judged"


def test_the_command_reports_a_bad_language_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO / "tools" / "precision_audit.py"), "sample", "../xx", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and proc.stderr.startswith("Error: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr and not list(tmp_path.iterdir())


def test_board_weights_count_the_boards_a_word_is_on(built_store: Path) -> None:
    """On real data (English dice, as `compare en` rolls them): the same seed gives the same weights, and a
    word's weight is the number of boards it is found on."""
    weights, meta = board_weights("en", 40, 5, str(built_store))
    again, _ = board_weights("en", 40, 5, str(built_store))
    assert weights == again and meta["lang"] == "en" and "dice en-new-4x4" in meta["boards"]
    assert weights and all(1 <= n <= 40 for n in weights.values())
    assert max(weights.values()) > 1  # common short words are on many boards


def test_the_welsh_alphabet_in_the_docs_is_the_records() -> None:
    """docs/languages.md names Welsh Scrabble's 28 letters; they are the `cy` record's letters and units (J in,
    no PH), so the claim cannot drift from what the game plays."""
    from boggle_i18n.language.records import get_language

    cy = get_language("cy")
    row = next(
        line
        for line in (REPO / "docs" / "languages.md").read_text(encoding="utf-8").split("\n")
        if line.startswith("| cy | aspell-cy")
    )
    claimed = row.split("2005 edition: `", 1)[1].split("`", 1)[0].split()
    assert len(claimed) == 28 and set(claimed) == set(cy.alphabet) | set(cy.units)
    assert "j" in claimed and "ph" not in claimed
