"""Shared fixtures. Real data comes from ../shared/data beside the repository.

Without ../shared a test that needs it is skipped on a developer's machine, but
fails when CI=true: CI always has it, so a skip there would hide a broken test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boggle_i18n import Lexicon, build_lexicon

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def require_file(path: Path, why: str) -> Path:
    """`path`, or fail (CI=true: CI always provides it) / skip (elsewhere) if it is absent."""
    if not path.is_file():
        message = f"needs {path} ({why})"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def shared_file(*parts: str) -> Path:
    """A file under ../shared/data (real word lists and dice)."""
    return require_file(SHARED.joinpath(*parts), "../shared beside the repository")


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
