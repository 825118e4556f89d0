"""A newcomer's first hour (issue 38): English offline, first-use builds, `random`, a user's own list, the data.

Every test runs offline on an empty store (conftest's autouse fixture sets BOGGLE_I18N_OFFLINE and fresh folders).
The English ones need Debian's wamerican (/usr/share/dict/american-english), which .ci/run installs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import require_file

from boggle_i18n import Lexicon, build_lexicon
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import NoSourceError
from boggle_i18n.lexicon.ensure import ensure_lexicon

runner = CliRunner()
AMERICAN = Path("/usr/share/dict/american-english")
BOARD = "serstanetigelpsr"  # a 4x4 board with plenty of English words


def _run(*args: str) -> object:
    return runner.invoke(app, list(args))


@pytest.fixture
def american() -> Path:
    """Debian's American English list, the one an offline machine has in place of ENABLE."""
    return require_file(AMERICAN, "Debian's wamerican; apt-get install wamerican")


# --- English offline: one library place says what to do -------------------------------------------------


def test_solve_offline_names_the_installed_english_list(american: Path, store: Path) -> None:
    """`solve` of an English board with no ENABLE and no internet: one Error line naming en-us and the command."""
    result = _run("solve", BOARD, "--store", str(store))
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    message = lines[0]
    assert "lexicon 'en' cannot be built: its list" in message and "downloads are off" in message
    assert "boggle-i18n build-lexicon en-us --as en" in message
    assert "--lexicon en-us" in message and str(american) in message
    assert "--source PATH" not in message  # the option solve does not have
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [["lookup", "cat"], ["compare", "en", "--boards", "5"], ["score"]])
def test_every_command_gets_the_same_hint(american: Path, store: Path, command: list[str]) -> None:
    """lookup, compare and score meet the same decision: it is made in the ensure layer, not per command."""
    result = runner.invoke(app, [*command, "--store", str(store)], input="serstanetigelpsr\n")
    assert result.exit_code != 0
    assert "boggle-i18n build-lexicon en-us --as en" in result.stderr, result.stderr


def test_the_named_command_makes_solve_work(american: Path, store: Path) -> None:
    """Running the one command the hint names makes `solve` (and every command using `en`) work offline."""
    built = _run("build-lexicon", "en-us", "--as", "en", "--store", str(store))
    assert built.exit_code == 0, built.stderr
    result = _run("solve", BOARD, "--store", str(store), "--json")
    assert result.exit_code == 0, result.stderr
    solved = json.loads(result.stdout)
    assert solved["lexicon"]["name"] == "en" and solved["score"] > 0
    manifest = Lexicon.load("en", store).manifest
    assert manifest["source"]["path"] == str(american)  # recorded as what it is: SCOWL, not ENABLE
    looked = _run("lookup", "cat", "--store", str(store))
    assert looked.exit_code == 0 and "yes" in looked.stdout


def test_hint_prefers_a_built_alternative(american: Path, store: Path) -> None:
    """Once en-us is built, the hint says so (a built list first, an installed one after)."""
    build_lexicon("en-us", store=store, download=False)
    with pytest.raises(NoSourceError, match=r"lexicon en-us is built: pass --lexicon en-us"):
        ensure_lexicon("en", store=store)


def test_first_use_build_says_language_and_source(american: Path, store: Path) -> None:
    """A first use names the language and the list it reads before building, and the build after."""
    result = _run("solve", BOARD, "--lexicon", "en-us", "--store", str(store))
    assert result.exit_code == 0, result.stderr
    first, second = result.stderr.strip().splitlines()[:2]
    assert first.startswith("building lexicon en-us (English), first use: source wamerican")
    assert str(american) in first
    assert second.startswith("lexicon 'en-us' was not built yet: built it first in ")


def test_first_use_build_shows_progress(american: Path, store: Path) -> None:
    """The build is a progress task named with its language, advanced to 100% as the list is read."""
    from boggle_i18n import progress

    seen: list[tuple[str, int | None]] = []
    advanced: list[int] = []

    class Shown:
        def __enter__(self) -> object:
            return advanced.append

        def __exit__(self, *exc: object) -> None:
            return None

    def reporter(message: str, total: int | None) -> Shown:
        seen.append((message, total))
        return Shown()

    progress.set_reporter(reporter)
    try:
        ensure_lexicon("en-us", store=store)
    finally:
        progress.set_reporter(None)
    assert ("building lexicon en-us (English)", 100) in seen
    assert sum(advanced) == 100


# --- a user's own list is recorded as theirs -----------------------------------------------------------


def test_own_source_is_recorded_as_the_users(tmp_path: Path, store: Path) -> None:
    """`build-lexicon en --source my-words.txt --as en-mine`: name, path and sha256 of that file, licence unknown."""
    words = tmp_path / "my-words.txt"
    words.write_text("cat\ndogs\nhouse\n", encoding="utf-8")
    result = _run("build-lexicon", "en", "--source", str(words), "--as", "en-mine", "--store", str(store), "--json")
    assert result.exit_code == 0, result.stderr
    manifest = json.loads(result.stdout)
    source = manifest["source"]
    assert source["name"] == "my-words.txt" and source["path"] == str(words) and source["url"] is None
    import hashlib

    assert source["sha256"] == hashlib.sha256(words.read_bytes()).hexdigest()
    assert manifest["licence"] == "unknown" and "ENABLE" not in manifest["attribution"]
    text = _run("build-lexicon", "en", "--source", str(words), "--as", "en-mine", "--store", str(store))
    assert "licence: unknown" in text.stdout and "ENABLE" not in text.stdout


def test_own_source_licence_option(tmp_path: Path, store: Path) -> None:
    """`--licence` is recorded, and kept in the rebuild command; an empty one is refused before any work."""
    words = tmp_path / "mine.txt"
    words.write_text("cat\ndogs\n", encoding="utf-8")
    args = ["build-lexicon", "en", "--source", str(words), "--as", "en-mine", "--store", str(store)]
    result = _run(*args, "--licence", "CC0-1.0", "--json")
    assert result.exit_code == 0, result.stderr
    manifest = json.loads(result.stdout)
    assert manifest["licence"] == "CC0-1.0" and manifest["build_command"][-2:] == ["--licence", "CC0-1.0"]
    refused = _run(*args, "--licence", " ")
    assert refused.exit_code != 0 and refused.stderr.startswith("Error: --licence")


def test_copy_of_the_recipes_own_list_keeps_its_name(tmp_path: Path, store: Path) -> None:
    """A --source file with the recipe's sha256 is the recipe's list: its name, version, URL and licence."""
    from boggle_i18n.pipeline.recipe import load_recipe

    recipe = load_recipe("en")
    words = tmp_path / "copy.txt"
    words.write_text("cat\ndogs\n", encoding="utf-8")
    import dataclasses

    same = dataclasses.replace(recipe.source, sha256=__import__("hashlib").sha256(words.read_bytes()).hexdigest())
    from boggle_i18n.pipeline.sources import resolve_source

    resolved = resolve_source(dataclasses.replace(recipe, source=same), words)
    list(resolved.lines("utf-8"))
    assert not resolved.own_list(same)
    assert resolved.name == recipe.source.name and resolved.url == recipe.source.url


# --- random: the same fallback as compare and the web; its output pipes ------------------------------------


def test_random_without_dice_draws_by_the_lexicon(store: Path) -> None:
    """`random --lang gd` (no dice set) draws letters by its lexicon, as compare does, instead of refusing."""
    from test_debian_lists import system_list

    system_list("gd")  # wgaelic: small, installed by .ci/run
    result = _run("random", "--lang", "gd", "--seed", "4", "--store", str(store))
    assert result.exit_code == 0, result.stderr
    assert "weighted by lexicon gd" in result.stdout and "--letters lexicon" in result.stdout
    again = next(line for line in result.stdout.splitlines() if line.startswith("# again: "))
    repeat = _run(*again.split()[3:], "--store", str(store))  # drop "# again: boggle-i18n"
    assert repeat.stdout == result.stdout


def test_random_fallback_is_compares_rule() -> None:
    """One rule: compare's board source and random's default both follow Selection.rolls."""
    from boggle_i18n.language.selection import select

    assert select(lang="en", size=(4, 4)).rolls == "dice"
    assert select(lang="en", size=(3, 3)).rolls == "letters"
    assert select(lang="he").rolls == "letters"


def test_random_3x3_english_falls_back_too(built_store: Path) -> None:
    """A size with no English dice draws by the lexicon's frequencies instead of stopping."""
    rolled = _run("random", "--lang", "en", "--size", "3x3", "--seed", "1", "--store", str(built_store))
    assert rolled.exit_code == 0, rolled.stderr
    assert "drew 3x3 letters from the faces of en-new-4x4, weighted by lexicon en" in rolled.stdout


@pytest.mark.parametrize("reader", [["solve", "-", "--lang", "nl"], ["score", "-", "--lang", "nl"]])
def test_random_output_pipes_into_solve_and_score(reader: list[str], built_store: Path) -> None:
    """`random | solve -` and `random | score -` read the default output as it is (the `#` lines are skipped)."""
    rolled = _run("random", "--dice", "nl-4x4", "--seed", "7")
    assert rolled.exit_code == 0
    (notation,) = [line for line in rolled.stdout.splitlines() if not line.startswith("#")]
    result = runner.invoke(app, [*reader, "--store", str(built_store)], input=rolled.stdout)
    assert result.exit_code == 0, result.stderr
    if reader[0] == "score":
        assert result.stdout.startswith(f"{notation}\t")
    else:
        direct = _run("solve", notation, "--lang", "nl", "--store", str(built_store))
        assert result.stdout.splitlines()[:4] == direct.stdout.splitlines()[:4]


# --- the tests' real data: a way to get it, and a closing summary that says it is missing ----------------------


def _fetch_tool() -> object:
    import importlib.util

    from conftest import REPO

    spec = importlib.util.spec_from_file_location("fetch_test_data", REPO / "tools" / "fetch_test_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_fetch_table_matches_the_shared_readme() -> None:
    """The script's checksums are the ones shared/data/lexicons/README.md records, for every file it fetches."""
    import re

    from conftest import shared_file

    readme = shared_file("lexicons", "README.md").read_text(encoding="utf-8")
    recorded = dict(re.findall(r"^\| ([\w.-]+) \| [\d,]+ \| [\d,]+ \| ([0-9a-f]{64}) \|$", readme, re.M))
    tool: Any = _fetch_tool()
    for item in tool.FILES:
        assert recorded[item.name.removeprefix("lexicons/")] == item.sha256, item.name


def test_fetch_normalisations_give_the_shared_bytes() -> None:
    """ENABLE as downloaded (CRLF, no final line end; ENABLE2K with CRs) normalises to the shared files' bytes."""
    import hashlib

    from conftest import shared_file

    tool: Any = _fetch_tool()
    by_name = {item.name: item for item in tool.FILES}
    enable1 = shared_file("lexicons", "en-enable1.txt").read_bytes()
    upstream = enable1.replace(b"\n", b"\r\n").removesuffix(b"\r\n") + b" \r\n\r\n"  # a copy with stray blanks
    assert hashlib.sha256(tool.enable_normalised(upstream)).hexdigest() == by_name["lexicons/en-enable1.txt"].sha256
    enable2k = shared_file("lexicons", "en-enable2k.txt").read_bytes()
    crlf = enable2k.replace(b"\n", b"\r\n")
    assert hashlib.sha256(tool.without_cr(crlf)).hexdigest() == by_name["lexicons/en-enable2k.txt"].sha256


def test_fetch_offline_copies_installed_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Offline, the installed Debian lists are copied with their checksums checked; the downloads are named as
    missing, nothing half-written is left, and the exit status says files are missing."""
    spanish = require_file(Path("/usr/share/dict/spanish"), "apt-get install wspanish")
    tool: Any = _fetch_tool()
    dest = tmp_path / "data"
    assert tool.main(["--dest", str(dest)]) == 1  # conftest sets BOGGLE_I18N_OFFLINE: the downloads are missing
    err = capsys.readouterr().err
    assert "lexicons/en-enable1.txt: downloads are off" in err and "not in" in err
    copied = dest / "lexicons" / "es-wspanish.txt"
    assert copied.read_bytes() == spanish.read_bytes()
    assert not list((dest / "lexicons").glob(".*.tmp")) and not (dest / "lexicons" / "en-enable1.txt").exists()
    # A file with another checksum is reported and left as it is.
    copied.write_bytes(b"not the list\n")
    ok, what = tool.fetch(next(i for i in tool.FILES if i.name.endswith("es-wspanish.txt")), dest, False)
    assert not ok and "left alone" in what and copied.read_bytes() == b"not the list\n"


def test_closing_summary_counts_skips_for_want_of_data() -> None:
    """The pytest closing summary counts the skips that want ../shared and names the fetch command."""
    from conftest import SHARED_REASON, data_summary

    reasons = [f"needs /x/lexicons/en-enable2k.txt ({SHARED_REASON})"] * 3 + [
        "needs /usr/share/dict/dutch (apt-get install wdutch; .ci/run installs it)",
        "some other reason",
    ]
    shared, debian = data_summary(reasons)
    assert shared.startswith("3 skipped for want of the real test data") and "tools/fetch_test_data.py" in shared
    assert debian.startswith("1 skipped for want of a Debian package")
    assert data_summary(["some other reason"]) == []


# --- the web page: a language it can play, and a build that says whose list and how far ----------------------


def test_playable_lexicon_prefers_built_then_installed() -> None:
    """The web page's choice: the default when built, another built one, the default installed, another installed."""
    from boggle_i18n.language.overview import playable_lexicon

    def lex(name: str, state: str = "not built", at_hand: bool = False) -> dict[str, Any]:
        return {"name": name, "state": state, "at_hand": at_hand}

    assert playable_lexicon("en", [lex("en", "built"), lex("en-us", "built")]) == "en"
    assert playable_lexicon("en", [lex("en"), lex("en-us", at_hand=True), lex("en-gb", "built")]) == "en-gb"
    assert playable_lexicon("en", [lex("en"), lex("en-gb", at_hand=True), lex("en-us", at_hand=True)]) == "en-gb"
    assert playable_lexicon("nl", [lex("nl", at_hand=True), lex("nl-teuncm", at_hand=True)]) == "nl"
    assert playable_lexicon("en", [lex("en"), lex("en-enable2k")]) is None  # only downloads: not without a wait


def test_languages_say_what_is_playable_offline(american: Path, store: Path) -> None:
    """On an empty store offline, English is playable with its installed list, not with ENABLE (a download)."""
    from boggle_i18n.language.overview import language_overview

    english = next(x for x in language_overview(store) if x["lang"] == "en")
    assert english["playable_lexicon"] == "en-us"
    states = {x["name"]: x["at_hand"] for x in english["lexicons"]}
    assert states["en-us"] and not states["en"]


def test_web_build_reports_language_and_percent(store: Path) -> None:
    """A first-use build on the server records the lexicon's language and reaches 100% of its list read."""
    from test_debian_lists import system_list

    from boggle_i18n.web.state import Building, Lexicons

    system_list("gd")
    lexicons = Lexicons(store)
    try:
        lexicons.get("gd", wait=0.0, build=True)
    except Building as exc:
        assert exc.to_dict()["building"] == "gd" and "percent" in exc.to_dict()
    lexicon = lexicons.get("gd", wait=60.0, build=True)
    assert len(lexicon) > 0
    status = lexicons.status()["gd"]
    assert status["lang"] == "gd" and status["percent"] == 100
    assert any(line.startswith("building lexicon gd (") for line in status["lines"])


def test_lookup_says_what_it_builds(store: Path) -> None:
    """`lookup` builds on first use through the command line's loader, so it names language and source too."""
    from test_debian_lists import system_list

    system_list("gd")
    result = _run("lookup", "taigh", "--lang", "gd", "--store", str(store))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("building lexicon gd (") and "/usr/share/dict/gaelic" in result.stderr
    assert "lexicon 'gd' was not built yet: built it first" in result.stderr


def test_web_jobs_say_they_are_building(store: Path) -> None:
    """A compare job that must build its lexicon says "building" with the language (not only "loading")."""
    from test_debian_lists import system_list

    from boggle_i18n.web.app import WebApp

    system_list("da")  # wdanish (3.9 MB): a build of seconds, polled four times a second
    web = WebApp(store, None)
    job = web.start_compare({"langs": ["da"], "boards": 20, "seed": 1})
    import time

    deadline = time.monotonic() + 120
    while job.state == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert job.state == "done", job.to_dict()
    steps = [e for e in job.events if e.get("step") == "building"]
    assert steps and steps[0]["lang"] == "da" and steps[0]["lexicon"] == "da"


def test_word_command_says_what_it_builds(store: Path) -> None:
    """`word remove` builds on first use through the command line's loader too: language and source named."""
    from test_debian_lists import system_list

    system_list("gd")
    result = _run("word", "remove", "taigh", "--lang", "gd", "--store", str(store))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("building lexicon gd (") and "built it first" in result.stderr
