"""The `boggle-i18n` command line, driven through its in-process runner (boggle_i18n.cli.testing)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from importlib.metadata import version
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner

COMMANDS = ["build-lexicon", "lexicons", "dice", "random", "solve"]
BOARD = "perslatgsineters"
BOARD_ROWS = ["pers", "latg", "sine", "ters"]
BOARD_SCORE = 3625  # ENABLE2K, published by hybrid-boggle
MINI_EN = FIXTURES / "mini-en.txt"

runner = CliRunner()


def invoke(*args: str, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def ok(*args: str, input: str | None = None):
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


def assert_one_error_line(result) -> str:
    """Exit 1, exactly one `Error:` line, no traceback and no stray exception."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert "Traceback" not in result.output
    return errors[0]


def mini_recipe(folder: Path, extra_stage: str = "") -> Path:
    """A recipe of our own whose system list is a small fixture file."""
    path = folder / "mini.toml"
    path.write_text(
        'name = "mini"\nlanguage = "nl"\nlicence = "test data"\n\n'
        f'[source]\nname = "mini fixture"\nsystem = ["{FIXTURES / "mini-nl.txt"}"]\n\n'
        '[[stages]]\nstage = "drop-capitalised"\n\n'
        '[[stages]]\nstage = "length"\nmin = 3\n' + extra_stage,
        encoding="utf-8",
    )
    return path


@pytest.fixture
def enable2k_store(built_store: Path, tmp_path: Path) -> Path:
    """A private copy of the built en-enable2k, safe to damage."""
    store = tmp_path / "copy"
    store.mkdir()
    for suffix in (".marisa", ".json"):
        shutil.copy(built_store / f"en-enable2k{suffix}", store)
    return store


# --- help and version -------------------------------------------------------------------------


def test_app_help_lists_commands() -> None:
    """The top-level help names every command."""
    result = ok("--help")
    for command in COMMANDS:
        assert command in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help(command: str) -> None:
    """Every command has working help."""
    result = ok(command, "--help")
    assert "Usage" in result.output and command in result.output


def test_version() -> None:
    """--version prints the installed distribution's version."""
    result = ok("--version")
    assert result.output.strip() == f"boggle-i18n {version('boggle-i18n')}"


# --- build-lexicon, lexicons, dice ------------------------------------------------------------


def test_build_lexicon_prints_stage_counts(store: Path) -> None:
    """The build report shows each stage's in/kept/dropped/changed, matching the fixture by hand."""
    result = ok("build-lexicon", "en-enable2k", "--source", MINI_EN, "--store", store)
    out = result.stdout
    assert "6 words from 11 raw entries" in out
    expected = [  # stage, in, kept, dropped, changed
        ("strip", 11, 11, 0, 0),
        ("skip-blank", 11, 11, 0, 0),
        ("normalize", 11, 11, 0, 0),
        ("lowercase", 11, 11, 0, 1),
        ("regex-keep", 11, 11, 0, 0),
        ("length", 11, 9, 2, 0),
        ("dedupe", 9, 8, 1, 0),
        ("dice-alphabet", 8, 6, 2, 0),
    ]
    for i, (stage, n_in, kept, dropped, changed) in enumerate(expected, 1):
        row = rf"^{i}\s+{stage}\s.*\s{n_in}\s+{kept}\s+{dropped}\s+{changed}\b"
        assert re.search(row, out, re.M), f"no row {row!r} in\n{out}"
    assert re.search(r"dice-alphabet.*qat, tranq", out)
    assert "longest word: catalog" in out
    assert (store / "en-enable2k.marisa").is_file()


def test_build_lexicon_json(store: Path) -> None:
    """--json prints the manifest, the same document as the stored NAME.json."""
    result = ok("build-lexicon", "en-enable2k", "--source", MINI_EN, "--store", store, "--json")
    manifest = json.loads(result.stdout)
    assert manifest == json.loads((store / "en-enable2k.json").read_text(encoding="utf-8"))
    assert manifest["word_count"] == 6
    assert [s["kept"] for s in manifest["stages"]] == [11, 11, 11, 11, 11, 9, 8, 6]
    assert manifest["source"]["sha256"] == hashlib.sha256(MINI_EN.read_bytes()).hexdigest()


def test_lexicons_lists_recipes_and_built(store: Path) -> None:
    """`lexicons` names every shipped recipe, and the built ones once built."""
    shipped = sorted(p.stem for p in (REPO / "pipelines").glob("*.toml"))
    assert {"nl", "nl-teuncm", "en", "en-enable2k", "de"} <= set(shipped)
    before = ok("lexicons", "--store", store).stdout
    for name in shipped:
        assert re.search(rf"^\s+{re.escape(name)}\s", before, re.M)
    assert "(none yet)" in before
    ok("build-lexicon", "en-enable2k", "--source", MINI_EN, "--store", store, "--as", "mine")
    after = ok("lexicons", "--store", store).stdout
    assert "(none yet)" not in after
    assert re.search(r"^\s+mine\s+en\s+6 words", after, re.M)


def test_lexicons_json(store: Path) -> None:
    """--json gives recipes (with a built flag) and built lexicons."""
    ok("build-lexicon", "en-enable2k", "--source", MINI_EN, "--store", store)
    data = json.loads(ok("lexicons", "--store", store, "--json").stdout)
    shipped = sorted(p.stem for p in (REPO / "pipelines").glob("*.toml"))
    assert sorted(r["name"] for r in data["recipes"]) == shipped
    assert {r["name"]: r["built"] for r in data["recipes"]}["en-enable2k"] is True
    assert {r["name"]: r["built"] for r in data["recipes"]}["nl"] is False
    assert [(b["name"], b["word_count"]) for b in data["built"]] == [("en-enable2k", 6)]
    assert Path(data["store"]) == store


def test_dice_lists_sets() -> None:
    """`dice` lists every shipped dice set; --lang filters; --json has the dice."""
    ids = sorted(json.loads(p.read_text(encoding="utf-8"))["id"] for p in (REPO / "lexicons" / "dice").glob("*.json"))
    assert "nl-4x4" in ids and "en-new-4x4" in ids
    out = ok("dice").stdout
    for dice_id in ids:
        assert re.search(rf"^{re.escape(dice_id)}\s", out, re.M)
    dutch = ok("dice", "--lang", "nl").stdout
    assert re.search(r"^nl-4x4\s+4x4", dutch, re.M) and "en-new-4x4" not in dutch
    data = json.loads(ok("dice", "--json").stdout)
    assert sorted(d["dice"] for d in data) == ids
    nl = next(d for d in data if d["dice"] == "nl-4x4")
    assert (nl["rows"], nl["cols"], nl["lang"], nl["min_length"]) == (4, 4, "nl", 3) and len(nl["faces"]) == 16


# --- solve ------------------------------------------------------------------------------------


def test_solve_known_score(built_store: Path) -> None:
    """perslatgsineters scores 3625 with ENABLE2K (the published optimum)."""
    out = ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store).stdout
    assert re.search(rf"\bscore {BOARD_SCORE} from \d+ words", out)
    assert "replastering" in out


def grid_letter(r: int, c: int) -> str:
    return BOARD_ROWS[r][c]


def test_solve_json(built_store: Path) -> None:
    """--json has board, lexicon (name, manifest sha), score, n_words and words with valid paths."""
    data = json.loads(ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--json").stdout)
    assert {"board", "lexicon", "score", "n_words", "words"} <= set(data)
    assert data["board"] == "/".join(BOARD_ROWS)
    assert data["lexicon"]["name"] == "en-enable2k"
    manifest_bytes = (built_store / "en-enable2k.json").read_bytes()
    assert data["lexicon"]["manifest_sha256"] == hashlib.sha256(manifest_bytes).hexdigest()
    assert data["score"] == BOARD_SCORE
    assert data["n_words"] == len(data["words"]) == len({w["word"] for w in data["words"]})
    assert sum(w["points"] for w in data["words"]) == BOARD_SCORE
    for w in data["words"]:
        assert set(w) >= {"word", "points", "path"}
        path = w["path"]
        assert all(isinstance(cell, list) and len(cell) == 2 for cell in path)
        cells = [tuple(cell) for cell in path]
        assert len(set(cells)) == len(cells)
        assert all(0 <= r < 4 and 0 <= c < 4 for r, c in cells)
        assert all(max(abs(r1 - r2), abs(c1 - c2)) == 1 for (r1, c1), (r2, c2) in pairwise(cells))
        assert "".join(grid_letter(r, c) for r, c in cells) == w["word"]
    by_word = {w["word"]: w["points"] for w in data["words"]}
    assert by_word["replastering"] == 11 and by_word["per"] == 1


def test_solve_paths(built_store: Path) -> None:
    """--paths draws each word's steps on the grid: replastering shows steps 1 to 12."""
    out = ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--paths").stdout
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("replastering"))
    drawn = lines[start + 1 : start + 5]
    assert [re.findall(r"[A-Z]", line) for line in drawn] == [list(r.upper()) for r in BOARD_ROWS]
    steps = sorted(int(n) for line in drawn for n in re.findall(r"\d+", line))
    assert steps == list(range(1, 13))


def test_solve_no_diagonals_lowers_score(built_store: Path) -> None:
    """Without diagonals fewer words exist, and every path moves orthogonally."""
    data = json.loads(
        ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--no-diagonals", "--json").stdout
    )
    assert 0 < data["score"] < BOARD_SCORE
    for w in data["words"]:
        cells = w["path"]
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(cells))


def test_solve_output_file(built_store: Path, tmp_path: Path) -> None:
    """--output writes the result to the file instead of stdout."""
    target = tmp_path / "out" / "result.json"
    target.parent.mkdir()
    result = ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--json", "--output", target)
    assert "score" not in result.stdout
    assert json.loads(target.read_text(encoding="utf-8"))["score"] == BOARD_SCORE
    assert [p.name for p in target.parent.iterdir()] == ["result.json"]


def test_solve_board_from_file(built_store: Path) -> None:
    """A board file (one row per line, faces split by spaces) gives the same result."""
    out = ok(
        "solve", "--file", FIXTURES / "perslatgsineters.board", "--lexicon", "en-enable2k", "--store", built_store
    ).stdout
    assert f"score {BOARD_SCORE} from" in out


def test_solve_board_from_stdin(built_store: Path) -> None:
    """`-` reads the board from stdin in file notation."""
    text = (FIXTURES / "perslatgsineters.board").read_text(encoding="utf-8")
    out = ok("solve", "-", "--lexicon", "en-enable2k", "--store", built_store, input=text).stdout
    assert f"score {BOARD_SCORE} from" in out


def test_solve_builds_missing_lexicon_first(tmp_path: Path) -> None:
    """solve with an unbuilt lexicon builds it (from the recipe's system list) and says so, once."""
    recipe = mini_recipe(tmp_path)
    store = tmp_path / "store"
    board = "katx/hond/fiet/xxxs"  # kat, tand (diagonal a-n), hond, fiets; Kees is a name; ab too short
    first = ok("solve", board, "--lexicon", recipe, "--store", store, "--json")
    assert "not built yet" in first.stderr and "built it first" in first.stderr
    data = json.loads(first.stdout)
    assert sorted(w["word"] for w in data["words"]) == ["fiets", "hond", "kat", "tand"]
    assert data["score"] == 5  # 1 + 1 + 1 + 2
    assert (store / "mini.marisa").is_file()
    manifest = json.loads((store / "mini.json").read_text(encoding="utf-8"))
    assert manifest["source"]["kind"] == "system"
    # Built now: neither the recipe path nor the name builds again.
    for name in (str(recipe), "mini"):
        again = ok("solve", board, "--lexicon", name, "--store", store, "--json")
        assert "building" not in again.stderr
        assert json.loads(again.stdout)["score"] == 5
    flat = json.loads(ok("solve", board, "--lexicon", "mini", "--store", store, "--json", "--no-diagonals").stdout)
    assert flat["score"] == 4  # tand needs the diagonal a-n


def test_solve_rebuilds_when_recipe_changes(tmp_path: Path) -> None:
    """A changed recipe file is not answered from the stale lexicon."""
    recipe = mini_recipe(tmp_path)
    store = tmp_path / "store"
    board = "katx/hond/fiet/xxxs"
    ok("solve", board, "--lexicon", recipe, "--store", store)
    mini_recipe(tmp_path, extra_stage='\n[[stages]]\nstage = "regex-drop"\npattern = "^h"\n')
    changed = ok("solve", board, "--lexicon", recipe, "--store", store, "--json")
    assert "built it first" in changed.stderr
    assert sorted(w["word"] for w in json.loads(changed.stdout)["words"]) == ["fiets", "kat", "tand"]


# --- random -----------------------------------------------------------------------------------


def nl_faces() -> set[str]:
    data = json.loads((REPO / "lexicons" / "dice" / "nl-4x4.json").read_text(encoding="utf-8"))
    return {face.lower() for die in data["dice"] for face in die}


def test_random_is_reproducible() -> None:
    """The same seed rolls the same board; seed and dice set are named on stdout only; faces come from the dice."""
    first = ok("random", "--seed", "7", "--dice", "nl-4x4")
    second = ok("random", "--seed", "7", "--dice", "nl-4x4")
    assert first.stdout == second.stdout
    assert first.stderr == ""  # the seed goes to one stream: stdout, with the board
    assert "rolled dice set nl-4x4 (language nl), seed 7" in first.stdout
    assert "again: boggle-i18n random --lang nl --dice nl-4x4 --seed 7" in first.stdout
    lines = first.stdout.splitlines()
    (notation,) = [line for line in lines if not line.startswith("#")]  # the one line `solve -` and `score -` read
    rows = notation.split("/")
    assert len(rows) == 4 and all(len(r) == 4 for r in rows)
    assert set("".join(rows)) <= nl_faces()
    other = ok("random", "--seed", "8", "--dice", "nl-4x4")
    assert "seed 8" in other.stdout and other.stdout != first.stdout


def test_random_json() -> None:
    """--json carries board, size, seed and the resolved language and dice set, nothing on stderr."""
    result = ok("random", "--seed", "7", "--dice", "nl-4x4", "--json")
    data = json.loads(result.stdout)
    assert result.stderr == ""
    assert data["seed"] == 7 and data["rows"] == 4 and data["cols"] == 4
    assert (data["lang"], data["dice"], data["letters"]) == ("nl", "nl-4x4", None)
    assert data["board"] in ok("random", "--seed", "7", "--dice", "nl-4x4").stdout
    by_lang = json.loads(ok("random", "--lang", "en", "--size", "5x5", "--seed", "3", "--json").stdout)
    assert (by_lang["lang"], by_lang["dice"]) == ("en", "en-big-5x5-deluxe")


def test_random_again_command_rolls_the_same_board() -> None:
    """The printed `again:` command, run as printed, gives the same board (dice and letters modes)."""
    for args in (["--lang", "en"], ["--lang", "nl", "--size", "3x7", "--letters", "uniform"]):
        data = json.loads(ok("random", *args, "--json").stdout)
        again = data["again"].split()[1:]  # drop the program name
        assert json.loads(ok(*again, "--json").stdout)["board"] == data["board"]


def test_random_without_seed_echoes_one() -> None:
    """Without --seed a fresh seed is drawn and printed, so the board can be rolled again."""
    first = ok("random", "--dice", "nl-4x4", "--json")
    seed = json.loads(first.stdout)["seed"]
    assert isinstance(seed, int) and first.stderr == ""
    again = json.loads(ok("random", "--dice", "nl-4x4", "--json", "--seed", str(seed)).stdout)
    assert again["board"] == json.loads(first.stdout)["board"]


def test_random_uniform_any_size() -> None:
    """--size 3x5 --letters uniform draws 3 rows of 5 cells."""
    data = json.loads(ok("random", "--size", "3x5", "--letters", "uniform", "--seed", "1", "--json").stdout)
    assert (data["rows"], data["cols"]) == (3, 5)
    rows = data["board"].split("/")
    assert len(rows) == 3
    cells = [re.findall(r"\[[a-z]*\]|[a-z]", row) for row in rows]
    assert all(len(c) == 5 for c in cells)
    text = ok("random", "--size", "3x5", "--letters", "uniform", "--seed", "1").stdout
    grid = [line for line in text.splitlines() if line.startswith("# ") and " " in line[2:]][:3]
    assert len(grid) == 3 and all(len(row[2:].split()) == 5 for row in grid)
    assert "drew 3x5 letters from the faces of en-new-4x4, uniform over printed faces" in text


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["abc/de", "ab1c", "abcde", "[qu"])
def test_malformed_board(built_store: Path, board: str) -> None:
    """A board that cannot be parsed gives one Error line and exit 1."""
    line = assert_one_error_line(invoke("solve", board, "--lexicon", "en-enable2k", "--store", built_store))
    assert "board" in line or "face" in line or "[" in line


def test_unknown_lang() -> None:
    """An unknown language code lists the known ones."""
    line = assert_one_error_line(invoke("solve", BOARD, "--lang", "xx"))
    assert "'xx'" in line and "nl" in line


def test_unknown_dice(built_store: Path) -> None:
    """Unknown dice sets are reported by solve and by random."""
    line = assert_one_error_line(
        invoke("solve", BOARD, "--dice", "nope", "--lexicon", "en-enable2k", "--store", built_store)
    )
    assert "'nope'" in line
    assert "'nope'" in assert_one_error_line(invoke("random", "--dice", "nope"))


def test_unknown_recipe(store: Path) -> None:
    """An unknown recipe name lists the shipped ones."""
    line = assert_one_error_line(invoke("build-lexicon", "klingon", "--store", store))
    assert "'klingon'" in line and "nl-teuncm" in line


def test_missing_source_file(store: Path, tmp_path: Path) -> None:
    """A --source that does not exist is named in the error."""
    line = assert_one_error_line(invoke("build-lexicon", "en", "--source", tmp_path / "gone.txt", "--store", store))
    assert "gone.txt" in line


def test_undecodable_source(store: Path, tmp_path: Path) -> None:
    """Latin-1 bytes in a UTF-8 list: the error names the byte offset."""
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("cat\ncafé\n".encode("latin-1"))
    line = assert_one_error_line(invoke("build-lexicon", "en", "--source", bad, "--store", store))
    assert "offset 7" in line


def test_empty_source(store: Path, tmp_path: Path) -> None:
    """An empty list is refused."""
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert "empty" in assert_one_error_line(invoke("build-lexicon", "en", "--source", empty, "--store", store))


def test_no_source_offline(store: Path) -> None:
    """Offline with no list at hand: one line naming --source and the download URL."""
    line = assert_one_error_line(invoke("build-lexicon", "en-enable2k", "--store", store))
    assert "--source" in line and "https://" in line


def test_bad_recipe_parameter(store: Path, tmp_path: Path) -> None:
    """A recipe parameter of the wrong type is one Error line naming the stage, not a traceback."""
    recipe = mini_recipe(tmp_path, extra_stage='\n[[stages]]\nstage = "length"\nmax = "4"\n')
    line = assert_one_error_line(invoke("build-lexicon", recipe, "--store", store))
    assert "stage 3" in line


def test_corrupt_trie(enable2k_store: Path) -> None:
    """A damaged trie file is refused with a rebuild hint."""
    trie = enable2k_store / "en-enable2k.marisa"
    trie.write_bytes(trie.read_bytes()[:1000])
    line = assert_one_error_line(invoke("solve", BOARD, "--lexicon", "en-enable2k", "--store", enable2k_store))
    assert "corrupt" in line and "rebuild" in line


@pytest.mark.parametrize("scoring", ["3:x", "nope", "3:1,4"])
def test_bad_scoring(built_store: Path, scoring: str) -> None:
    """A malformed scoring table or unknown preset is a clean error."""
    result = invoke("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--scoring", scoring)
    assert "scoring" in assert_one_error_line(result).lower()


def test_no_board(built_store: Path) -> None:
    """solve without a board says how to give one."""
    assert "board" in assert_one_error_line(invoke("solve", "--lexicon", "en-enable2k", "--store", built_store))


@pytest.mark.parametrize(
    "args",
    [
        ["random", "--seed", "abc"],
        ["solve", BOARD, "--min-length", "x"],
        ["solve", BOARD, "--min-length", "0"],
        ["random", "--nope"],
    ],
)
def test_bad_option_types_exit_2(args: list[str]) -> None:
    """Usage errors are Click's: exit 2."""
    assert invoke(*args).exit_code == 2


# --- boards as people type them, and sharing them (issue 8) -------------------------------------


def test_solve_rows_as_separate_arguments(built_store: Path) -> None:
    """`solve pers latg sine ters` (no quotes) is the same board as `pers/latg/sine/ters`."""
    out = ok("solve", *BOARD_ROWS, "--lexicon", "en-enable2k", "--store", built_store).stdout
    assert f"score {BOARD_SCORE} from" in out


@pytest.mark.parametrize("how", ["file", "file-dash", "dash"])
def test_board_with_utf8_bom(built_store: Path, tmp_path: Path, how: str) -> None:
    """A board saved with a UTF-8 BOM reads the same, from a file, `--file -` or `-`."""
    text = "\ufeff" + (FIXTURES / "perslatgsineters.board").read_text(encoding="utf-8")
    path = tmp_path / "bom.board"
    path.write_text(text, encoding="utf-8")
    args = {"file": ["--file", path], "file-dash": ["--file", "-"], "dash": ["-"]}[how]
    out = ok("solve", *args, "--lexicon", "en-enable2k", "--store", built_store, input=text).stdout
    assert f"score {BOARD_SCORE} from" in out


def test_solve_output_names_board_language_and_dice(built_store: Path) -> None:
    """Text output carries the board in notation (to paste back) and what it was played with."""
    out = ok("solve", "PERS", "LATG", "SINE", "TERS", "--lexicon", "en-enable2k", "--store", built_store).stdout
    assert "board pers/latg/sine/ters (4x4); language en; dice en-new-4x4" in out.splitlines()
    data = json.loads(ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--json").stdout)
    assert (data["board"], data["lang"], data["dice"]) == ("pers/latg/sine/ters", "en", "en-new-4x4")


def test_solve_qu_board_round_trips(built_store: Path) -> None:
    """The printed notation brackets long faces, so it reads back the same whatever q means."""
    first = json.loads(ok("solve", "qbcdefghijklmnop", "--lexicon", "en", "--store", built_store, "--json").stdout)
    assert first["board"].startswith("[qu]")
    again = ok("solve", first["board"], "--lexicon", "en", "--bare-q", "q", "--store", built_store, "--json")
    assert json.loads(again.stdout)["score"] == first["score"]


def test_names_are_case_insensitive(built_store: Path) -> None:
    """--lang NL, --dice NL-4x4 and --scoring Classic-4x4 are the lower-case names."""
    lower = json.loads(ok("solve", "trap/kaas/oven/blij", "--lang", "nl", "--store", built_store, "--json").stdout)
    upper = ok(
        "solve",
        "TRAP/KAAS/OVEN/BLIJ",
        "--lang",
        "NL",
        "--dice",
        "NL-4x4",
        "--scoring",
        "Classic-4x4",
        "--store",
        built_store,
        "--json",
    )
    assert json.loads(upper.stdout)["score"] == lower["score"] > 0
    assert re.search(r"^nl-4x4\s", ok("dice", "--lang", "NL").stdout, re.M)


def test_zero_point_scoring_warns(built_store: Path) -> None:
    """A table that gives admitted words 0 points works, with one Warning line on stderr."""
    result = ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store, "--scoring", "big-5x5")
    assert result.stderr.splitlines() == [
        "Warning: scoring big-5x5 gives 0 points to 3-letter words, which min length 3 admits"
    ]
    assert "Warning" not in ok("solve", BOARD, "--lexicon", "en-enable2k", "--store", built_store).stderr


def test_random_letters_lexicon_names_its_lexicon(built_store: Path) -> None:
    """--letters lexicon says which lexicon weighted the faces, and its again command repeats the board."""
    args = ["random", "--lang", "en", "--size", "6x6", "--letters", "lexicon", "--seed", "2", "--store", built_store]
    data = json.loads(ok(*args, "--json").stdout)
    assert (data["lexicon"], data["dice"], data["letters"], data["rows"]) == ("en", "en-superbig-6x6", "lexicon", 6)
    assert "weighted by lexicon en" in ok(*args).stdout
    assert json.loads(ok(*args, "--json").stdout)["board"] == data["board"]


# --- lexicons: broken manifests are shown, never hidden or crashing ------------------------------


def test_lexicons_shows_broken_manifests(enable2k_store: Path) -> None:
    """A corrupt manifest, a wrong-typed field and a string format_version are listed with the reason."""
    good = json.loads((enable2k_store / "en-enable2k.json").read_text(encoding="utf-8"))
    for name, change in (("typed", {"word_count": "many"}), ("v1", {"format_version": "1"})):
        (enable2k_store / f"{name}.json").write_text(json.dumps({**good, **change}), encoding="utf-8")
        shutil.copy(enable2k_store / "en-enable2k.marisa", enable2k_store / f"{name}.marisa")
    (enable2k_store / "corrupt.json").write_text('{"format": ', encoding="utf-8")
    out = ok("lexicons", "--store", enable2k_store).stdout
    assert re.search(r"^\s+corrupt\s+BROKEN\s+corrupt\.json: corrupt \(not valid JSON\)$", out, re.M)
    assert re.search(r"^\s+typed\s+BROKEN\s+typed\.json: field 'word_count' is a string, not an integer$", out, re.M)
    assert re.search(r"v1\.json: format_version is '1' \(a string\), this boggle-i18n reads 1$", out, re.M)
    assert re.search(r"^\s+en-enable2k\s+en\s+173,402 words", out, re.M)
    data = json.loads(ok("lexicons", "--store", enable2k_store, "--json").stdout)
    assert [b["name"] for b in data["built"]] == ["en-enable2k"]
    assert sorted(b["name"] for b in data["broken"]) == ["corrupt", "typed", "v1"]
    line = assert_one_error_line(invoke("solve", BOARD, "--lexicon", "typed", "--store", enable2k_store))
    assert "field 'word_count' is a string" in line


def test_build_as_is_case_insensitive(store: Path) -> None:
    """`--as Mine` stores `mine`, which `lexicons` lists and `--lexicon MINE` loads."""
    ok("build-lexicon", "en-enable2k", "--source", MINI_EN, "--store", store, "--as", "Mine")
    assert sorted(p.name for p in store.iterdir()) == ["mine.json", "mine.marisa"]
    assert re.search(r"^\s+mine\s+en\s+6 words", ok("lexicons", "--store", store).stdout, re.M)
    assert (
        json.loads(ok("solve", "catx/dogx/xxxx/xxxx", "--lexicon", "MINE", "--store", store, "--json").stdout)[
            "lexicon"
        ]["name"]
        == "mine"
    )


def test_json_lines_from_one_encoding_are_each_values_own() -> None:
    """`to_json` encodes a list of one-line values in one call and cuts it at the gaps between them: on
    values holding the gap text themselves (`}, {` in a string, nested dicts in lists), mixed kinds, empty
    ones and non-ASCII text, every line is still that value's own `json.dumps`, and the whole parses back."""
    import random

    from boggle_i18n.cli.common import _one_line_each, to_json

    rng = random.Random(25)
    atoms = [0, -3, 2.5, None, True, "", "é", "a}, {b", "], [", '"}, {"', "\n"]

    def value(depth: int) -> object:
        kind = rng.random()
        if depth > 3 or kind < 0.3:
            return rng.choice(atoms)
        if kind < 0.6:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["w", "}, {", "p"]): value(depth + 1) for _ in range(rng.randrange(4))}

    for i in range(3000):
        values = [value(1) for _ in range(rng.randrange(6))]
        if i % 2:  # the common case, a solve's words: values of one kind
            values = [{"w": v} if i % 4 == 1 else [v] for v in values]
        assert _one_line_each(values) == [json.dumps(v, ensure_ascii=False) for v in values]
        assert json.loads(to_json({"words": values})) == {"words": values}
