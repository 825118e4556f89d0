"""Checkpoints: a proof's finished tasks, one JSON line each, so a killed run resumes without redoing them.

The first line names the proof (`ProofSpec.identity()`); each later line is
one finished task, appended and flushed to disk as soon as it is done. A run
killed mid-write leaves at most a torn last line, which a resume drops and
redoes. Anything else that does not parse, or a header of another proof
(another lexicon, rules, size, buckets or threshold), is an error naming what
differs: a foreign checkpoint is never mixed into a proof.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from ..errors import BoggleI18nError
from .tasks import TaskResult

FORMAT = "boggle-i18n-proof-checkpoint"
VERSION = 1


def read_checkpoint(path: Path) -> tuple[dict[str, Any], dict[int, TaskResult], bool]:
    """(header identity, finished tasks by number, whether a torn last line was dropped)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BoggleI18nError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")
    torn = bool(lines and lines[-1])  # no newline after the last record: it was cut off
    complete_lines = lines[:-1]
    if not complete_lines:
        raise BoggleI18nError(f"checkpoint {path} has no header line; it is not a proof checkpoint")
    try:
        header = json.loads(complete_lines[0])
    except (ValueError, UnicodeDecodeError):
        raise BoggleI18nError(f"checkpoint {path} does not start with a proof header; it is not a checkpoint") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not isinstance(header.get("proof"), dict):
        raise BoggleI18nError(f"{path} is not a boggle-i18n proof checkpoint")
    if header.get("version") != VERSION:
        raise BoggleI18nError(f"checkpoint {path} has format version {header.get('version')}, not {VERSION}")
    done: dict[int, TaskResult] = {}
    for number, line in enumerate(complete_lines[1:], 2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            result = TaskResult.from_dict(data)
        except (ValueError, UnicodeDecodeError, KeyError, TypeError, IndexError):
            raise BoggleI18nError(f"checkpoint {path} line {number} is damaged; it cannot be resumed") from None
        done[result.task] = result
    return header["proof"], done, torn


def check_identity(path: Path, found: dict[str, Any], wanted: dict[str, Any]) -> None:
    """One error naming every field where the checkpoint's proof differs from this one."""
    differs = [k for k in sorted(set(found) | set(wanted)) if found.get(k) != wanted.get(k)]
    if differs:
        detail = "; ".join(f"{k}: checkpoint {found.get(k)!r}, now {wanted.get(k)!r}" for k in differs[:3])
        raise BoggleI18nError(f"checkpoint {path} belongs to another proof ({detail})")


class CheckpointWriter:
    """Appends finished tasks to a checkpoint, each line flushed and synced before the next task counts."""

    def __init__(self, path: Path, identity: dict[str, Any], *, fresh: bool, drop_torn: bool = False) -> None:
        self.path = path
        if fresh:
            self._file = self._open(path, "x")
            self._write({"format": FORMAT, "version": VERSION, "proof": identity})
        else:
            if drop_torn:
                raw = path.read_bytes()
                with open(path, "r+b") as f:
                    f.truncate(raw.rfind(b"\n") + 1)
            self._file = self._open(path, "a")

    @staticmethod
    def _open(path: Path, mode: str) -> IO[str]:
        try:
            return open(path, mode, encoding="utf-8")
        except FileExistsError:
            raise BoggleI18nError(f"checkpoint {path} exists: add --resume to continue it, or remove it") from None
        except OSError as exc:
            raise BoggleI18nError(f"cannot write checkpoint {path}: {exc.strerror or exc}") from None

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, result: TaskResult) -> None:
        """Record one finished task."""
        self._write(result.to_dict())

    def close(self) -> None:
        """Close the file."""
        self._file.close()
