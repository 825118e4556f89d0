"""Shared fixtures. Real data comes from ../shared/data beside the repository.

Without ../shared a test that needs it is skipped on a developer's machine, but
fails when CI=true: CI always has it, so a skip there would hide a broken test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest

from boggle_i18n import Lexicon, build_lexicon

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def in_ci() -> bool:
    """Whether the suite runs under CI (CI=true), where every tool and data file must be present."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(message: str) -> NoReturn:
    """Something a test needs is absent: fail under CI (which installs everything), skip elsewhere."""
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


def require_file(path: Path, why: str) -> Path:
    """`path`, or fail (CI=true: CI always provides it) / skip (elsewhere) if it is absent."""
    if not path.is_file():
        missing(f"needs {path} ({why})")
    return path


def require_tool(tool: str, package: str) -> str:
    """The path of program `tool` on PATH (found as the code finds it), or fail under CI / skip elsewhere.

    A machine with a dictionary (hunspell-es) but not the tool that expands it
    (hunspell-tools) skips the tests that expand it, with this reason, instead of failing them.
    """
    found = shutil.which(tool)
    if found is None:
        missing(f"needs the {tool} tool (apt-get install {package}; .ci/run installs it)")
    return found


# A recipe's `expand` -> the program it runs (None: the project's own expander, pipeline/affixes.py).
EXPAND_TOOLS: dict[str, str | None] = {"unmunch": "unmunch", "aspell": "aspell", "hunspell": None}


def require_recipe_tools(recipe: Any) -> None:
    """The tool a recipe's source needs to expand its dictionary (unmunch, aspell), if any."""
    expand = recipe.source.expand
    tool = EXPAND_TOOLS[expand] if expand else None
    if tool:
        require_tool(tool, recipe.source.tool_package or expand)


SHARED_REASON = "../shared beside the repository"  # the skip reason the closing summary counts
FETCH_COMMAND = "python tools/fetch_test_data.py"


def shared_file(*parts: str) -> Path:
    """A file under ../shared/data (real word lists and dice)."""
    return require_file(SHARED.joinpath(*parts), SHARED_REASON)


def _skip_reason(report: Any) -> str:
    """A skipped test's reason (pytest keeps it as (file, line, reason), or as text)."""
    longrepr = report.longrepr
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def data_summary(reasons: list[str]) -> list[str]:
    """The closing lines for skips that want data: the shared lists (and the command that gets them) and Debian
    packages (apt-get); none when nothing skipped for want of either."""
    shared = sum(SHARED_REASON in r for r in reasons)
    debian = sum("apt-get install" in r for r in reasons)
    lines = []
    if shared:
        lines.append(
            f"{shared} skipped for want of the real test data in {SHARED} (word lists and dice): "
            f"get the word lists with `{FETCH_COMMAND}` (README, Tests)"
        )
    if debian:
        lines.append(f"{debian} skipped for want of a Debian package: each skip names its apt-get install (pytest -rs)")
    return lines


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say at the end how many tests skipped for want of data, and how to get it: a green run with hundreds of
    skips otherwise looks like a full one."""
    lines = data_summary([_skip_reason(r) for r in terminalreporter.stats.get("skipped", [])])
    if lines:
        terminalreporter.section("test data", sep="-", yellow=True)
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own store and cache, and never downloads."""
    root = tmp_path_factory.mktemp("boggle-home")
    monkeypatch.setenv("BOGGLE_I18N_HOME", str(root / "store"))
    monkeypatch.setenv("BOGGLE_I18N_CACHE", str(root / "cache"))
    monkeypatch.setenv("BOGGLE_I18N_OFFLINE", "1")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """An empty lexicon store folder."""
    return tmp_path / "store"


@pytest.fixture(scope="session")
def built_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding en-enable2k, en, nl, de and es built once per session from ../shared."""
    root = tmp_path_factory.mktemp("built-store")
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=root, download=False)
    build_lexicon("en", source=shared_file("lexicons", "en-enable1.txt"), store=root, download=False)
    build_lexicon("nl", source=shared_file("lexicons", "nl-opentaal-wordlist.txt"), store=root, download=False)
    build_lexicon("de", source=shared_file("lexicons", "de-ngerman.txt"), store=root, download=False)
    build_lexicon("es", source=shared_file("lexicons", "es-wspanish.txt"), store=root, download=False)
    return root


@pytest.fixture(scope="session")
def enable2k(built_store: Path) -> Lexicon:
    """ENABLE2K, as used by the published high-score boards."""
    return Lexicon.load("en-enable2k", built_store)


@pytest.fixture(scope="session")
def enable1(built_store: Path) -> Lexicon:
    """ENABLE (enable1), the `en` default."""
    return Lexicon.load("en", built_store)


@pytest.fixture(scope="session")
def dutch(built_store: Path) -> Lexicon:
    """The `nl` lexicon built from OpenTaal 2.20.23."""
    return Lexicon.load("nl", built_store)


@pytest.fixture(scope="module")
def browser() -> Any:
    """Debian's chromium under Playwright, one per test module and closed with it: a second sync_playwright()
    alive in the same thread fails ("Sync API inside the asyncio loop"), and while one is alive asyncio.run
    cannot run, so no browser outlives the module that asked for it."""
    from web_support import ARGS, CHROMIUM

    require_file(CHROMIUM, "Debian's chromium: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()
