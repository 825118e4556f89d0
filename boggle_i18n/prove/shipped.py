"""The proven and best-known boards that ship with the package, so Records and `results` show them anywhere.

`shipped-results.json` beside this module bundles the result files of the
repository's `results/` folder (`optimize --output` runs, `prove --output`
proofs, `known.json`; not estimates or checkpoints), written by
`python tools/ship_results.py` and checked against `results/` by
tests/test_shipped_results.py. `load_records(folder)` gives the shipped files
plus the user's own folder's, read and checked as `load_results` and
`load_proofs` read a folder; a user's file of the same name replaces the shipped one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import BoggleI18nError
from ..optimize.results import REQUIRED as RUN_REQUIRED
from ..optimize.results import load_results
from ..storage import atomic_write_text
from .records import REQUIRED as PROOF_REQUIRED
from .records import load_proofs

SHIPPED = Path(__file__).resolve().with_name("shipped-results.json")
FORMAT = 1


def bundle(folder: Path) -> dict[str, Any]:
    """The bundle of `folder`'s result files, known boards and proofs (checked as `results` checks them)."""
    runs, known = load_results(folder)  # refuses a malformed result file, naming it
    proofs = load_proofs(folder)
    files = {r.pop("_file"): r for r in [*runs, *proofs]}
    return {"format": FORMAT, "from": "results/", "files": dict(sorted(files.items())), "known": known}


def write_bundle(folder: Path, path: Path = SHIPPED) -> str:
    """Write the bundle of `folder` to `path` atomically; its text (one file per line, so diffs stay readable)."""
    data = bundle(folder)
    lines = [
        f"  {json.dumps(name)}: {json.dumps(doc, ensure_ascii=False, sort_keys=True)}"
        for name, doc in data["files"].items()
    ]
    text = (
        "{\n"
        f'"format": {FORMAT},\n"from": "results/",\n'
        f'"known": {json.dumps(data["known"], ensure_ascii=False, sort_keys=True)},\n'
        '"files": {\n' + ",\n".join(lines) + "\n}\n}\n"
    )
    atomic_write_text(path, text)
    return text


def read_bundle(path: Path = SHIPPED) -> dict[str, Any]:
    """The shipped bundle, checked before it is trusted (format, and every file's required keys)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise BoggleI18nError(f"the shipped records {path} cannot be read ({exc.__class__.__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
        raise BoggleI18nError(f"the shipped records {path} are not format {FORMAT}: reinstall boggle-i18n")
    for name, doc in data["files"].items():
        required = PROOF_REQUIRED if isinstance(doc, dict) and doc.get("kind") == "proof" else RUN_REQUIRED
        if not isinstance(doc, dict) or any(k not in doc for k in required):
            raise BoggleI18nError(f"the shipped records {path} hold a malformed file {name!r}: reinstall boggle-i18n")
    return data


def load_records(folder: Path | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(optimize runs, known boards, proofs): the shipped ones plus `folder`'s (None: the shipped ones only).

    Each run and proof has `_file` (its file name) and `_shipped` (True when it came from the package).
    """
    data = read_bundle()
    files: dict[str, dict[str, Any]] = {
        name: {**doc, "_file": name, "_shipped": True} for name, doc in data["files"].items()
    }
    known = list(data.get("known") or [])
    if folder is not None:
        runs, own_known = load_results(folder)
        for doc in [*runs, *load_proofs(folder)]:
            files[doc["_file"]] = {**doc, "_shipped": False}
        known += [k for k in own_known if k not in known]
    docs = [files[name] for name in sorted(files)]
    return (
        [d for d in docs if d.get("kind") != "proof"],
        known,
        [d for d in docs if d.get("kind") == "proof"],
    )
