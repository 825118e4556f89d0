"""Long library work names itself to a reporter (the CLI's, on a terminal only); without one it is silent."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import shared_file

from boggle_i18n import build_lexicon, progress
from boggle_i18n.board.paths import count_paths
from boggle_i18n.cli import progress as cli_progress
from boggle_i18n.lexicon import Lexicon
from boggle_i18n.solver.compiled import compile_lexicon


@pytest.fixture
def seen() -> Iterator[list[tuple[str, int | None, int]]]:
    tasks: list[tuple[str, int | None, int]] = []

    @contextmanager
    def record(message: str, total: int | None) -> Iterator[progress.Advance]:
        done = [0]
        yield lambda n: done.__setitem__(0, done[0] + n)
        tasks.append((message, total, done[0]))

    progress.set_reporter(record)
    try:
        yield tasks
    finally:
        progress.set_reporter(None)


def test_paths_advance_cell_by_cell(seen: list[tuple[str, int | None, int]]) -> None:
    assert count_paths(3, 4).total == count_paths(4, 3).total
    assert seen[0] == ("counting paths cell by cell (4x3)", 12, 12)


def test_the_first_compile_says_what_it_is(seen: list[tuple[str, int | None, int]], tmp_path: Path) -> None:
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=tmp_path, download=False)
    compile_lexicon(Lexicon.load("en-enable2k", tmp_path))
    assert [m for m, _, _ in seen] == ["compiling lexicon en-enable2k for the fast engine (once: cached in the store)"]
    compile_lexicon(Lexicon.load("en-enable2k", tmp_path))  # cached: nothing to say
    assert len(seen) == 1


def test_quiet_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    cli_progress.install()
    with progress.task("anything", 3) as advance:
        advance(3)  # no reporter: nothing happens, nothing fails
    assert not progress._REPORTER
