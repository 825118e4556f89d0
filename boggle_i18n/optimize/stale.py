"""Whether a result file still holds: its lexicon's trie sha256 against the lexicon built today.

Every result file records `settings.trie_sha256`, the sha256 of the trie it was
scored with. A lexicon rebuilt since (a new recipe, list or source version) has
another sha256: the result's scores may no longer be what the board scores now.
`check_runs` compares each run with the lexicon in the store and, with
`rescore`, scores its best board again under the run's own rules.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ..errors import BoggleI18nError
from ..folders import read_regular
from ..lexicon.store import Lexicon, lexicon_paths


@dataclass(frozen=True)
class Freshness:
    """One run's state: "current", "stale" (the lexicon changed) or "unchecked" (not built here)."""

    state: str
    recorded: str | None
    current: str | None
    rescored: int | None = None  # the best board's score with today's lexicon (rescore)

    def note(self) -> str:
        """A short cell for docs/results.md."""
        if self.state != "stale":
            return ""
        now = f"; scores {self.rescored} with today's lexicon" if self.rescored is not None else ""
        return f"stale: lexicon changed (trie {str(self.recorded)[:12]} -> {str(self.current)[:12]}){now}"


def _current_sha(name: str, store: str | os.PathLike[str] | None) -> str | None:
    try:
        _, manifest_path = lexicon_paths(name, store)
        sha = json.loads(read_regular(manifest_path)).get("trie_sha256")
    except (OSError, ValueError, AttributeError, BoggleI18nError):
        return None
    return sha if isinstance(sha, str) else None


def _rescore(run: dict[str, Any], lexicon: Lexicon) -> int | None:
    """The run's best board scored now, under the rules recorded in the run."""
    from ..board.notation import parse_board, parse_size
    from ..scoring import Beyond, Scoring
    from ..solver.base import Rules
    from ..solver.scorer import prepare_scorer
    from .results import result_size

    if not run.get("best"):
        return None
    settings = run["settings"]
    rules_raw = settings["rules"]
    rules = Rules(
        min_length=int(rules_raw["min_length"]),
        scoring=Scoring(
            name=str(rules_raw["scoring"]["name"]),
            table=tuple(sorted((int(n), int(p)) for n, p in rules_raw["scoring"]["table"].items())),
            beyond=Beyond(**rules_raw["scoring"]["beyond"]) if "beyond" in rules_raw["scoring"] else None,
        ),
        diagonals=bool(rules_raw.get("diagonals", True)),
    )
    shape = parse_size(str(result_size(run)))
    board = parse_board(run["best"][0]["board"], {}, shape)
    scorer = prepare_scorer(lexicon, rules, shape, engine="reference")
    return int(scorer.solve(board).score)


def check_runs(
    runs: list[dict[str, Any]], store: str | os.PathLike[str] | None = None, rescore: bool = False
) -> dict[str, Freshness]:
    """Each run's `Freshness` by its file name, against the lexicons built in `store` (never builds one)."""
    out: dict[str, Freshness] = {}
    loaded: dict[str, Lexicon] = {}
    for run in runs:
        name = run["settings"]["lexicon"]
        recorded = run["settings"].get("trie_sha256")
        current = _current_sha(name, store)
        if current is None or recorded is None:
            out[run["_file"]] = Freshness("unchecked", recorded, current)
            continue
        if current == recorded:
            out[run["_file"]] = Freshness("current", recorded, current)
            continue
        score = None
        if rescore:
            if name not in loaded:
                loaded[name] = Lexicon.load(name, store)
            score = _rescore(run, loaded[name])
        out[run["_file"]] = Freshness("stale", recorded, current, score)
    return out
