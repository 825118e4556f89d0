"""Real --json output of every command, in the variants that change its shape (shared by the schema tool and test)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from boggle_i18n.cli.testing import CliRunner

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI_EN = FIXTURES / "mini-en.txt"

# command -> argument lists; "{store}" is the sample store; score reads BOARDS on stdin and prints JSON Lines.
VARIANTS: dict[str, list[list[str]]] = {
    "solve": [
        ["solve", "perslatgsineters", "--lexicon", "en-enable2k"],
        ["solve", "[qu]abc/defg/hijk/lmn.", "--lexicon", "en-enable2k", "--no-diagonals", "--scoring", "3:1,5:2"],
        ["solve", "abc/def/ghi/jkl/mno", "--lexicon", "en-enable2k", "--scoring", "superbig-6x6-per-letter"],
    ],
    "score": [["score", "--lexicon", "en-enable2k"]],
    "random": [
        ["random", "--seed", "1"],
        ["random", "--lang", "en", "--size", "3x7", "--letters", "uniform", "--seed", "2"],
        ["random", "--lang", "en", "--letters", "lexicon", "--seed", "3"],
        ["random", "--lang", "es", "--letters", "lexicon", "--seed", "4"],
        ["random", "--lang", "en", "--count", "3", "--seed", "5"],  # JSON Lines, with `index`
    ],
    "compare": [
        ["compare", "en", "--boards", "20", "--seed", "1"],
        ["compare", "en", "es", "--boards", "10", "--seed", "2", "--optimize-time", "0.3"],
        ["compare", "en", "es", "--boards", "10", "--seed", "3", "--roll", "letters"],
    ],
    "optimize": [
        [
            "optimize",
            "--lexicon",
            "en-enable2k",
            "--size",
            "3x3",
            "--restarts",
            "1",
            "--iterations",
            "2",
            "--seed",
            "1",
        ],
        [
            "optimize",
            "--dice",
            "en-new-4x4",
            "--lexicon",
            "en-enable2k",
            "--restarts",
            "1",
            "--seed",
            "2",
            "--top",
            "2",
        ],
    ],
    "lexicons": [["lexicons"]],
    "languages": [["languages"]],
    "dice": [["dice"]],
    "paths": [["paths", "--size", "3x3"], ["paths", "--size", "2x4", "--no-diagonals", "--max-length", "3"]],
    "build-lexicon": [["build-lexicon", "en", "--source", str(MINI_EN), "--as", "sample"]],
    "judge": [  # the lists on stdin (JUDGE_LISTS)
        ["judge", "catz/dogs/[qu]itx/oxen", "-", "--lexicon", "en-enable2k"],
        ["judge", "catz/dogs/[qu]itx/oxen", "-", "--lexicon", "en-enable2k", "--no-strike", "--paths"],
    ],
    "lookup": [
        ["lookup", "cat", "Dog", "zzz", "--lexicon", "en-enable2k"],
    ],
    "prove": [
        ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--threshold", "1"],
        ["prove", "--lexicon", "en-enable2k", "--size", "2x3", "--threshold", "100000", "--no-diagonals"],
        ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--threshold", "1", "--estimate", "--sample", "4"],
    ],
    # last: its changes stay in the sample store
    "word": [
        ["word", "remove", "Cat", "--lexicon", "en-enable2k"],
        ["word", "add", "zzzq", "cat", "--lexicon", "en-enable2k"],
        ["word", "list", "--lexicon", "en-enable2k"],
    ],
}
BOARDS = "perslatgsineters\nabc\nstreaedlp\n"
JUDGE_LISTS = "Ann: cat Dog dog zebra qi xyz\nBob: cat cats\n"
STDIN = {"score": BOARDS, "judge": JUDGE_LISTS}


def sample_store(root: Path) -> Path:
    """A store with en-enable2k, en and es built from the small English fixture, and one broken manifest."""
    from boggle_i18n import build_lexicon

    store = root / "store"
    for name in ("en-enable2k", "en", "es"):
        build_lexicon(name, source=MINI_EN, store=store)
    (store / "broken.json").write_text("{not json", encoding="utf-8")
    return store


def command_outputs(root: Path) -> dict[str, list[Any]]:
    """Every variant's parsed --json output, by command (score: one value per JSON line)."""
    from boggle_i18n.cli import app

    store = sample_store(root)
    runner = CliRunner()
    old = os.environ.get("BOGGLE_I18N_HOME")
    os.environ["BOGGLE_I18N_HOME"] = str(store)
    try:
        out: dict[str, list[Any]] = {}
        for command, variants in VARIANTS.items():
            for args in variants:
                result = runner.invoke(app, [*args, "--json"], input=STDIN.get(command))
                if result.exit_code not in (0, 1) or not result.stdout.strip():
                    raise AssertionError(f"{args}: exit {result.exit_code}\n{result.output}")
                if command == "score" or "--count" in args:
                    out.setdefault(command, []).extend(json.loads(line) for line in result.stdout.splitlines())
                else:
                    out.setdefault(command, []).append(json.loads(result.stdout))
        return out
    finally:
        if old is None:
            os.environ.pop("BOGGLE_I18N_HOME", None)
        else:
            os.environ["BOGGLE_I18N_HOME"] = old
