"""Word frequencies (wordfreq, the [frequency] extra): the `frequent` stage, common tiers, coverage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.comparison.frequency import coverage, top_words
from boggle_i18n.errors import BoggleI18nError, RecipeError
from boggle_i18n.language.records import get_language, languages
from boggle_i18n.pipeline import load_recipe

pytest.importorskip("wordfreq")  # the test extra installs it: CI runs these

ENGLISH = "the\nhouse\nrain\nstair\nstairs\nsnare\nrains\nxylograph\nzymurgy\ntrain\nstrain\n"


@pytest.fixture
def common_store(tmp_path: Path) -> Path:
    """`en` and its common tier from the same small list of real words."""
    source = tmp_path / "en.txt"
    source.write_text(ENGLISH, encoding="utf-8")
    store = tmp_path / "store"
    build_lexicon("en", source=source, store=store, download=False)
    build_lexicon("en-common", source=source, store=store, download=False)
    return store


def test_common_tier_keeps_frequent_words_only(common_store: Path) -> None:
    full, common = Lexicon.load("en", common_store), Lexicon.load("en-common", common_store)
    assert "xylograph" in full and "zymurgy" in full
    assert "xylograph" not in common and "zymurgy" not in common  # rare: under Zipf 3
    assert {"the", "house", "rain", "train", "stairs"} <= set(common.words_with_prefix(""))
    (frequent,) = [st for st in common.manifest["stages"] if st["stage"] == "frequent"]
    assert frequent["params"] == {"min_zipf": 3.0} and frequent["dropped"] == 2


def test_common_recipes_are_in_step_with_their_bases() -> None:
    """tools/common_recipes.py --check: every XX-common.toml is its base recipe plus the one stage."""
    result = subprocess.run(
        [sys.executable, str(REPO / "tools" / "common_recipes.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    covered = {lang.lexicon for lang in languages().values() if lang.wordfreq}
    for name in covered:
        common = load_recipe(f"{name}-common")
        # a base may have its own `frequent` stage (ar: forms in use); the tier adds one more
        base = load_recipe(name).stages
        assert [s for s, _ in common.stages].count("frequent") == [s for s, _ in base].count("frequent") + 1
        assert [s for s, _ in common.stages if s != "frequent"] == [s for s, _ in base if s != "frequent"]


def test_frequent_needs_a_frequency_source(tmp_path: Path) -> None:
    recipe = tmp_path / "ga-common.toml"
    recipe.write_text(
        'name = "ga-common"\nlanguage = "ga"\nlicence = "t"\n[source]\nname = "x"\n[[stages]]\nstage = "frequent"\n',
        encoding="utf-8",
    )
    source = tmp_path / "ga.txt"
    source.write_text("teach\n", encoding="utf-8")
    with pytest.raises(RecipeError, match="no frequency source"):
        build_lexicon(str(recipe), source=source, store=tmp_path / "store", download=False)


def test_compare_tier_common_reports_languages_without_one_apart(common_store: Path) -> None:
    runner = CliRunner()
    args = ["compare", "en", "ga", "--tier", "common", "--roll", "letters", "--boards", "30", "--store"]
    result = runner.invoke(app, [*args, str(common_store)])
    assert result.exit_code == 0, result.stderr
    assert "reported apart, no common tier: ga" in result.stdout
    assert "tier: common" in result.stdout and result.stdout.splitlines()[2].startswith("en ")
    data = __import__("json").loads(runner.invoke(app, [*args, str(common_store), "--json"]).stdout)
    assert data["basis"]["tier"] == "common" and data["without_tier"] == ["ga"]
    assert data["languages"][0]["lexicon"] == "en-common"
    bad = runner.invoke(app, ["compare", "ga", "--tier", "common", "--store", str(common_store)])
    assert bad.exit_code == 1 and bad.stderr.startswith("Error: no language named has a common tier")
    odd = runner.invoke(app, ["compare", "en", "--tier", "rare", "--store", str(common_store)])
    assert odd.exit_code == 1 and odd.stderr == "Error: --tier must be one of full, common, not 'rare'\n"


def test_top_words_and_coverage(common_store: Path) -> None:
    english = get_language("en")
    top = top_words(english, n=50)
    assert len(top) == 50 and all(len(w) >= 3 and w.isalpha() for w in top) and top[0] == "the"
    result = coverage(Lexicon.load("en", common_store), english, ["the", "house", "Rain", "zebra"])
    assert (result.checked, result.found, result.missing) == (4, 3, ("zebra",))
    assert result.share == 0.75 and result.to_dict()["share"] == 0.75


def test_languages_without_a_frequency_source_are_said_so() -> None:
    with pytest.raises(BoggleI18nError, match="no frequency source covers 'ga'"):
        top_words(get_language("ga"))


def test_lookup_finds_a_folded_word_the_frequency_list_spells_otherwise(tmp_path: Path) -> None:
    """`frequent` sees the source spelling (Mädchen, Arabic أول); the lexicon stores the folded one (maedchen, اول),
    which wordfreq may not list: `lookup` of the stored spelling finds the word, a rare word stays rare."""
    from boggle_i18n.lookup import lookup

    recipe = tmp_path / "mine.toml"
    recipe.write_text(
        'name = "mine"\nlanguage = "de"\nlicence = "t"\nencoding = "utf-8"\n[source]\nname = "x"\n'
        '[[stages]]\nstage = "strip"\n[[stages]]\nstage = "frequent"\nmin_zipf = 3.0\n'
        '[[stages]]\nstage = "case"\n[[stages]]\nstage = "fold-accents"\noverrides = { "ä" = "ae" }\n',
        encoding="utf-8",
    )
    source = tmp_path / "de.txt"
    source.write_text("Mädchen\nHaus\nZwiebelturmspitze\n", encoding="utf-8")
    store = tmp_path / "store"
    build_lexicon(str(recipe), source=source, store=store, download=False)
    assert "maedchen" in Lexicon.load("mine", store)
    girl, haus, rare = lookup(["maedchen", "haus", "zwiebelturmspitze"], lexicon="mine", store=store)
    assert girl.found and girl.normalised == "maedchen"  # wordfreq: maedchen is under Zipf 3
    assert haus.found
    assert not rare.found and rare.dropped is not None and rare.dropped.stage == "frequent"
