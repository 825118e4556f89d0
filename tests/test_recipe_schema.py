"""Recipes: every field checked on load (one line naming recipe, stage and field), `extends`, stale lexicons."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import shared_file

from boggle_i18n import build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import LexiconError, RecipeError
from boggle_i18n.lexicon.ensure import ensure_lexicon
from boggle_i18n.pipeline.recipe import load_recipe, recipe_names

GOOD = """
name = "mine"
language = "nl"
licence = "test"
encoding = "utf-8"

[source]
name = "my list"
system = ["/nonexistent/list"]

[[stages]]
stage = "strip"

[[stages]]
stage = "fold-accents"
overrides = { "ë" = "e" }

[[stages]]
stage = "length"
min = 3
"""


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change,message",
    [
        (('encoding = "utf-8"', "encoding = 5"), r"field 'encoding' must be a string, not 5"),
        (('encoding = "utf-8"', 'encoding = "utf-9"'), r"field 'encoding': unknown encoding 'utf-9'"),
        (('{ "ë" = "e" }', '{ "ë" = 5 }'), r"stage 2 \(fold-accents\): bad parameters: field 'overrides'"),
        (('system = ["/nonexistent/list"]', 'system = "/path"'), r"\[source\]: field 'system' must be a list"),
        (("min = 3", "minimum = 3"), r"stage 3 \(length\): bad parameters: unknown field 'minimum'"),
        (("min = 3", 'min = "3"'), r"stage 3 \(length\): bad parameters: field 'min' must be int"),
        (('stage = "strip"', 'stage = "stripp"'), r"stage 1: unknown stage 'stripp'"),
        (('licence = "test"', 'licence = "test"\nlicense = "x"'), r"unknown field 'license'"),
        (('name = "my list"', 'name = "my list"\nurl = 3'), r"\[source\]: field 'url' must be a string"),
        (('name = "mine"', 'name = "../evil"'), r"field 'name' must be lower-case"),
        (('licence = "test"\n', ""), r"missing field 'licence'"),
        (('name = "my list"', 'name = "my list"\nparticles = "و"'), r"field 'particles' must be a list"),
        (
            ('name = "my list"', 'name = "my list"\nparticles = ["و", "و"]'),
            r"'particles' must be a list of at most 8 different",
        ),
        (('name = "my list"', 'name = "my list"\nparticles = ["a b"]'), r"'particles' must be .* no spaces"),
        (('name = "my list"', 'name = "my list"\nparticles = [""]'), r"'particles' must be .* 1 to 4 characters"),
        (
            ('name = "my list"', 'name = "my list"\nparticles = ["o"]\nparticles_min_zipf = "2"'),
            r"field 'particles_min_zipf' must be an integer or a number",
        ),
        (
            ('name = "my list"', 'name = "my list"\nparticles = ["o"]\nparticles_min_zipf = 0'),
            r"'particles_min_zipf' must be a Zipf frequency above 0",
        ),
        (
            ('name = "my list"', 'name = "my list"\nparticles_min_zipf = 2.5'),
            r"'particles_min_zipf' .* with 'particles' to apply to",
        ),
    ],
)
def test_bad_recipe_fields_give_one_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    """Each mistake is one line naming the recipe file, the stage (if any) and the field, raised on load."""
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(RecipeError, match=message) as err:
        load_recipe(str(path))
    text = str(err.value)
    assert "\n" not in text and str(path) in text


def test_particles_join_one_at_a_time(tmp_path: Path) -> None:
    """`particles`: each entry is a word alone and with one particle before it, never two; the manifest says so."""
    words = tmp_path / "words.txt"
    words.write_text("kat\nhond\n", encoding="utf-8")
    path = write(tmp_path, GOOD.replace('name = "my list"', 'name = "my list"\nparticles = ["en", "o"]'))
    lexicon = build_lexicon(str(path), source=words, store=tmp_path / "store", download=False)
    assert sorted(lexicon) == ["enhond", "enkat", "hond", "kat", "ohond", "okat"]
    assert lexicon.manifest["source"]["particles"] == ["en", "o"]


def test_particle_forms_need_attestation_with_min_zipf(tmp_path: Path) -> None:
    """`particles_min_zipf`: an entry stays a word whatever its frequency; a particle form only when wordfreq
    lists it at least that frequent (Dutch on + der = onder is in use, on + kat is not); the manifest says so."""
    pytest.importorskip("wordfreq")
    words = tmp_path / "words.txt"
    words.write_text("der\nkat\nzzzkat\n", encoding="utf-8")
    recipe = GOOD.replace('name = "my list"', 'name = "my list"\nparticles = ["on"]\nparticles_min_zipf = 1.0')
    lexicon = build_lexicon(str(write(tmp_path, recipe)), source=words, store=tmp_path / "store", download=False)
    assert sorted(lexicon) == ["der", "kat", "onder", "zzzkat"]
    assert lexicon.manifest["source"]["particles_min_zipf"] == 1.0


def test_stages_must_be_a_list(tmp_path: Path) -> None:
    """`stages = "oops"` (a string, not [[stages]] tables) is named as the field at fault."""
    text = 'stages = "oops"\n' + GOOD[: GOOD.index("[[stages]]")]
    with pytest.raises(RecipeError, match=r"mine\.toml: field 'stages' must be a list, not 'oops'"):
        load_recipe(str(write(tmp_path, text)))


def test_good_recipe_loads(tmp_path: Path) -> None:
    recipe = load_recipe(str(write(tmp_path, GOOD)))
    assert [name for name, _ in recipe.stages] == ["strip", "fold-accents", "length"]
    assert recipe.stages[2][1] == {"min": 3}


def test_bad_recipe_fails_before_any_work_in_the_cli(tmp_path: Path) -> None:
    """build-lexicon with a bad recipe: one Error line, exit 1, no store written, the source never read."""
    path = write(tmp_path, GOOD.replace("min = 3", 'min = "3"'))
    result = CliRunner().invoke(app, ["build-lexicon", str(path), "--store", str(tmp_path / "store")])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: recipe ")
    assert "field 'min'" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "store").exists()


def test_every_shipped_recipe_and_preset_loads() -> None:
    """Shipped recipes pass the same checks; presets are not listed as recipes."""
    names = recipe_names()
    assert "wordlist" not in names and "wordlist-dice" not in names
    for name in names:
        assert load_recipe(name).name == name


# --- extends ----------------------------------------------------------------------------------


def test_en_enable2k_extends_en_with_the_same_hash() -> None:
    """en-enable2k states only its source; the merged recipe hashes as the old stand-alone file did."""
    recipe = load_recipe("en-enable2k")
    base = load_recipe("en")
    assert recipe.extends == ("en",)
    assert recipe.stages == base.stages
    assert recipe.source.sha256 == "f1e9b50e535a31d0d8451f7b373bb7966637d225e256a7c485983a0c7545fcd3"
    # The hash of pipelines/en-enable2k.toml before it used `extends` (commit e63ed2c).
    assert recipe.sha256 == "3899a2a77466716eb8f3176ccc2d0ec5a6dad3edc408403ec49e9bb4590d9c4d"


def test_extends_replaces_top_level_keys_and_chains(tmp_path: Path) -> None:
    """A child's keys replace the base's whole (stages are not merged); a chain applies in order."""
    write(tmp_path, GOOD, "base.toml")
    write(tmp_path, 'extends = "base.toml"\nname = "middle"\n', "middle.toml")
    child = write(tmp_path, 'extends = "middle.toml"\nname = "child"\n[[stages]]\nstage = "lowercase"\n', "child.toml")
    recipe = load_recipe(str(child))
    assert recipe.name == "child" and recipe.licence == "test"
    assert [s for s, _ in recipe.stages] == ["lowercase"]
    assert recipe.extends == ("middle.toml", "base.toml")
    assert "extends" not in recipe.raw


def test_editing_a_base_changes_the_childs_hash(tmp_path: Path) -> None:
    base = write(tmp_path, GOOD, "base.toml")
    child = write(tmp_path, 'extends = "base.toml"\nname = "child"\n', "child.toml")
    before = load_recipe(str(child)).sha256
    base.write_text(GOOD.replace("min = 3", "min = 4"), encoding="utf-8")
    assert load_recipe(str(child)).sha256 != before


def test_extends_errors(tmp_path: Path) -> None:
    """A cycle, an unknown base or a non-string `extends` is one clear line."""
    write(tmp_path, 'extends = "b.toml"\nname = "a"\n', "a.toml")
    write(tmp_path, 'extends = "a.toml"\nname = "b"\n', "b.toml")
    with pytest.raises(RecipeError, match="cycle"):
        load_recipe(str(tmp_path / "a.toml"))
    with pytest.raises(RecipeError, match="unknown recipe or preset 'nope'"):
        load_recipe(str(write(tmp_path, 'extends = "nope"\nname = "c"\n', "c.toml")))
    with pytest.raises(RecipeError, match="'extends' must be a string"):
        load_recipe(str(write(tmp_path, 'extends = 3\nname = "d"\n', "d.toml")))


def test_user_recipe_can_extend_a_shipped_preset(tmp_path: Path) -> None:
    """`extends = "wordlist"` gives the shared Debian pipeline, with the language's letter policy."""
    path = write(
        tmp_path,
        'extends = "wordlist"\nname = "my-es"\nlanguage = "es"\nlicence = "x"\n[source]\nname = "mine"\n',
    )
    source = write(tmp_path, "Año\naño\ncanción\nfútbol\nqué\nmadrid\n", "words.txt")
    lexicon = build_lexicon(str(path), source=source, store=tmp_path / "store")
    assert set(lexicon) == {"año", "cancion", "futbol", "que", "madrid"}


# --- a lexicon from an older recipe is never silently used ----------------------------------------


def test_stale_shipped_lexicon_is_rebuilt_or_refused(store: Path) -> None:
    """A built lexicon whose manifest names another hash of its shipped recipe is rebuilt; with no source, refused."""
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=store, download=False)
    manifest_path = store / "en-enable2k.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    assert ensure_lexicon("en-enable2k", store=store).manifest["recipe_sha256"] == manifest["recipe_sha256"]
    manifest["recipe_sha256"] = hashlib.sha256(b"an older recipe").hexdigest()
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    # the refusal names what would make it work (issue 38): another list at hand, or the --source command
    with pytest.raises(
        LexiconError, match=r"built from an older recipe .* cannot be rebuilt: .* is not here .*--source"
    ):
        ensure_lexicon("en-enable2k", store=store)


def test_stale_lexicon_with_a_source_is_rebuilt(tmp_path: Path) -> None:
    """With the system list present, an out-of-date lexicon is rebuilt and says so."""
    store = tmp_path / "store"
    recipe = write(tmp_path, GOOD.replace("/nonexistent/list", str(write(tmp_path, "kat\nhond\n", "l.txt"))))
    first = ensure_lexicon(str(recipe), store=store)
    assert set(first) == {"kat", "hond"}
    recipe.write_text(recipe.read_text(encoding="utf-8").replace("min = 3", "min = 4"), encoding="utf-8")
    rebuilt: list[str] = []
    second = ensure_lexicon(str(recipe), store=store, on_build=rebuilt.append)
    assert rebuilt == ["mine"] and set(second) == {"hond"}


def test_lexicon_stored_under_another_name_is_left_alone(store: Path) -> None:
    """`--as en-mine` records recipe name en-mine, not a shipped recipe: no false 'stale'."""
    build_lexicon("en", source=shared_file("lexicons", "en-enable1.txt"), store=store, save_as="en-mine")
    assert len(ensure_lexicon("en-mine", store=store)) == 172_695
